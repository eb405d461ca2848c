package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"

	"github.com/vramkit/vramkit/internal/pickle"
)

// emitter writes values as CPython's C pickler does at protocol 4: every
// str, bytes, tuple, list and dict is memoized (MEMOIZE) when first
// written and referenced with BINGET/LONG_BINGET after that; lists and
// dicts are filled in batches of 1000 (APPENDS/SETITEMS, or APPEND/SETITEM
// for a batch of one); ints take the shortest of BININT1/BININT2/BININT/
// LONG1; output is cut into FRAMEs once a frame reaches 64 KiB.
//
// Identity follows the decoded fixture: lists and dicts shared in it (the
// frames lists and frame dicts PyTorch reuses) stay shared. Strings are
// shared by value, except "N/A", which PyTorch 2.11 creates afresh for
// every trace entry. Objects first met inside the repeated trace are
// "local": they are written afresh in each repetition, as a longer run
// would have produced them.
type emitter struct {
	out     *bufio.Writer
	frame   []byte
	written int64
	n       uint64 // memo entries so far, as the unpickler counts them
	global  map[any]uint64
	local   map[any]uint64
	inTrace bool
}

const frameTarget = 64 << 10

func newEmitter(w *bufio.Writer) *emitter {
	e := &emitter{out: w, global: map[any]uint64{}, local: map[any]uint64{}}
	e.raw(0x80, 4) // PROTO 4, outside any frame
	return e
}

func (e *emitter) raw(b ...byte) {
	n, _ := e.out.Write(b)
	e.written += int64(n)
}

func (e *emitter) op(b ...byte) { e.frame = append(e.frame, b...) }

// boundary commits the current frame once it is big enough, as the C
// pickler does after each object.
func (e *emitter) boundary() {
	if len(e.frame) >= frameTarget {
		e.commit()
	}
}

func (e *emitter) commit() {
	if len(e.frame) >= 4 { // CPython writes no FRAME for tiny tails
		var h [9]byte
		h[0] = 0x95
		binary.LittleEndian.PutUint64(h[1:], uint64(len(e.frame)))
		e.raw(h[:]...)
	}
	e.raw(e.frame...)
	e.frame = e.frame[:0]
}

// finish writes STOP and flushes.
func (e *emitter) finish() error {
	e.op('.')
	e.commit()
	return e.out.Flush()
}

func (e *emitter) lookup(key any) (uint64, bool) {
	if i, ok := e.global[key]; ok {
		return i, true
	}
	i, ok := e.local[key]
	return i, ok
}

// memoize records key and writes MEMOIZE; key nil is never looked up again.
func (e *emitter) memoize(key any) {
	if key != nil {
		if e.inTrace {
			e.local[key] = e.n
		} else {
			e.global[key] = e.n
		}
	}
	e.n++
	e.op(0x94)
}

func (e *emitter) get(idx uint64) {
	if idx < 256 {
		e.op('h', byte(idx))
	} else {
		e.op('j')
		e.frame = binary.LittleEndian.AppendUint32(e.frame, uint32(idx))
	}
}

// newRepetition forgets the objects first written in the last repetition.
func (e *emitter) newRepetition() { clear(e.local) }

type strKey string

func (e *emitter) value(v any) {
	switch x := v.(type) {
	case pickle.None:
		e.op('N')
	case bool:
		if x {
			e.op(0x88)
		} else {
			e.op(0x89)
		}
	case int64:
		e.int(x)
	case *big.Int:
		e.long(x)
	case float64:
		e.op('G')
		e.frame = binary.BigEndian.AppendUint64(e.frame, math.Float64bits(x))
	case string:
		e.str(x)
	case []byte:
		if len(x) < 256 {
			e.op('C', byte(len(x)))
		} else {
			e.op('B')
			e.frame = binary.LittleEndian.AppendUint32(e.frame, uint32(len(x)))
		}
		e.op(x...)
		e.memoize(nil)
	case pickle.Tuple:
		e.tuple(x)
	case *pickle.List:
		if i, ok := e.lookup(x); ok {
			e.get(i)
			return
		}
		e.op(']')
		e.memoize(x)
		e.batch(len(x.Items), 'a', 'e', func(i int) { e.value(x.Items[i]) })
	case *pickle.Dict:
		if i, ok := e.lookup(x); ok {
			e.get(i)
			return
		}
		e.dict(x, x.Items)
	default:
		panic(fmt.Sprintf("emit: unexpected %T", v))
	}
	e.boundary()
}

func (e *emitter) str(s string) {
	if s != "N/A" {
		if i, ok := e.lookup(strKey(s)); ok {
			e.get(i)
			return
		}
	}
	if len(s) < 256 {
		e.op(0x8c, byte(len(s)))
	} else {
		e.op('X')
		e.frame = binary.LittleEndian.AppendUint32(e.frame, uint32(len(s)))
	}
	e.frame = append(e.frame, s...)
	if s == "N/A" {
		e.memoize(nil)
	} else {
		e.memoize(strKey(s))
	}
}

// dict writes a dict with the given items; key identifies it for the
// memo (nil for a fresh dict no one refers to again).
func (e *emitter) dict(key any, items []pickle.Item) {
	e.op('}')
	if key == (*pickle.Dict)(nil) {
		key = nil
	}
	e.memoize(key)
	e.batch(len(items), 's', 'u', func(i int) {
		e.value(items[i].Key)
		e.value(items[i].Value)
	})
}

// batch writes n items (one item, then the one-item op; or MARK, up to
// 1000 items, then the many-items op) as pickle.py's _batch_appends does.
func (e *emitter) batch(n int, one, many byte, item func(int)) {
	for start := 0; start < n; start += 1000 {
		end := min(start+1000, n)
		if end-start == 1 {
			item(start)
			e.op(one)
			continue
		}
		e.op('(')
		for i := start; i < end; i++ {
			item(i)
		}
		e.op(many)
	}
}

func (e *emitter) tuple(t pickle.Tuple) {
	if len(t) == 0 {
		e.op(')')
		return
	}
	if len(t) <= 3 {
		for _, it := range t {
			e.value(it)
		}
		e.op(0x85 + byte(len(t)-1))
	} else {
		e.op('(')
		for _, it := range t {
			e.value(it)
		}
		e.op('t')
	}
	e.memoize(nil)
}

func (e *emitter) int(x int64) {
	switch {
	case x >= 0 && x <= 0xff:
		e.op('K', byte(x))
	case x >= 0 && x <= 0xffff:
		e.op('M', byte(x), byte(x>>8))
	case x >= math.MinInt32 && x <= math.MaxInt32:
		e.op('J')
		e.frame = binary.LittleEndian.AppendUint32(e.frame, uint32(int32(x)))
	default:
		e.long(big.NewInt(x))
	}
}

// long writes LONG1 with pickle.encode_long's bytes: the shortest
// little-endian two's complement.
func (e *emitter) long(x *big.Int) {
	n := x.BitLen()>>3 + 1
	mod := new(big.Int).Lsh(big.NewInt(1), uint(8*n))
	u := new(big.Int).Set(x)
	if x.Sign() < 0 {
		u.Add(u, mod)
	}
	b := make([]byte, n)
	u.FillBytes(b)
	for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	if x.Sign() < 0 && n > 1 && b[n-1] == 0xff && b[n-2]&0x80 != 0 {
		b = b[:n-1]
	}
	e.op(0x8a, byte(len(b)))
	e.op(b...)
}

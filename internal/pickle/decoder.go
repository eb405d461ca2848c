package pickle

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
)

// ErrTruncated reports input that ends before the pickle's STOP opcode.
var ErrTruncated = errors.New("pickle: input truncated")

// ErrForbidden is wrapped by errors for opcodes that would import or call
// code; the decoder refuses them rather than skipping them.
var ErrForbidden = errors.New("it would import or call code, and vramkit never runs code from a file")

// OpError reports a problem at one opcode of the input.
type OpError struct {
	Offset int64  // input offset of the opcode
	Op     byte   // the opcode byte
	Name   string // its pickletools name, when known
	Err    error
}

func (e *OpError) Error() string {
	name := e.Name
	if name == "" {
		name = "unknown opcode"
	}
	if errors.Is(e.Err, ErrForbidden) {
		return fmt.Sprintf("pickle: refusing opcode %s (0x%02x) at offset %d: %v", name, e.Op, e.Offset, e.Err)
	}
	return fmt.Sprintf("pickle: offset %d: %s (0x%02x): %v", e.Offset, name, e.Op, e.Err)
}

func (e *OpError) Unwrap() error { return e.Err }

// AppendHook sees every item appended to a list (APPEND, APPENDS, and the
// items of LIST). It returns keep=false to drop the item, for callers that
// convert items as they arrive; an error stops decoding.
type AppendHook func(l *List, item any) (keep bool, err error)

// Decoder decodes one pickle from a stream.
type Decoder struct {
	r     *reader
	stack []any
	marks []int
	// The memo: indices 0..memoDense-1 live in fixed-size chunks, any
	// index past that in bigMem, so a forged index costs one map entry,
	// not a run of empty slots. memoCount is Python's len(memo), the
	// index MEMOIZE uses.
	memo      [][]any
	memoDense uint64
	memoCount uint64
	bigMem    map[uint64]any
	hook      AppendHook
	opOff     int64
	started   bool
}

// consumed marks a memo slot whose object a caller released through
// Replace(old, nil).
type consumed struct{}

// NewDecoder returns a decoder reading from r.
func NewDecoder(r io.Reader) *Decoder {
	return &Decoder{r: newReader(r)}
}

// SetAppendHook installs h; see AppendHook.
func (d *Decoder) SetAppendHook(h AppendHook) { d.hook = h }

// Replace makes later memo references to the container old (a *List or
// *Dict returned by this decoder) yield repl instead, so that a consumed
// object is not kept alive by the memo.
func (d *Decoder) Replace(old, repl any) {
	idx := int32(-1)
	switch o := old.(type) {
	case *List:
		idx = o.memo
	case *Dict:
		idx = o.memo
	}
	if idx < 0 {
		return
	}
	if repl == nil {
		repl = consumed{}
	}
	if p := d.memoSlot(uint64(idx)); p != nil && *p == old {
		*p = repl
	} else if v, ok := d.bigMem[uint64(idx)]; ok && v == old {
		d.bigMem[uint64(idx)] = repl
	}
}

// Offset is the input offset of the next unread byte.
func (d *Decoder) Offset() int64 { return d.r.offset() }

// Decode reads one pickle up to its STOP opcode and returns the value.
// Bytes after STOP are left unread.
func (d *Decoder) Decode() (any, error) {
	v, err := d.run()
	if err != nil {
		if errors.Is(err, ErrTruncated) {
			return nil, fmt.Errorf("%w at offset %d (file cut short?)", ErrTruncated, d.r.offset())
		}
		var oe *OpError
		if errors.As(err, &oe) {
			return nil, err
		}
		return nil, fmt.Errorf("pickle: offset %d: %w", d.opOff, err)
	}
	return v, nil
}

func (d *Decoder) push(v any) { d.stack = append(d.stack, v) }

func (d *Decoder) pop() (any, error) {
	n := len(d.stack)
	if n == 0 || (len(d.marks) > 0 && d.marks[len(d.marks)-1] == n) {
		return nil, errors.New("stack underflow")
	}
	v := d.stack[n-1]
	d.stack = d.stack[:n-1]
	return v, nil
}

func (d *Decoder) top() (any, error) {
	n := len(d.stack)
	if n == 0 || (len(d.marks) > 0 && d.marks[len(d.marks)-1] == n) {
		return nil, errors.New("stack underflow")
	}
	return d.stack[n-1], nil
}

// popMark returns the objects above the last mark and removes them and it.
func (d *Decoder) popMark() ([]any, error) {
	if len(d.marks) == 0 {
		return nil, errors.New("no MARK on the stack")
	}
	m := d.marks[len(d.marks)-1]
	d.marks = d.marks[:len(d.marks)-1]
	items := d.stack[m:]
	d.stack = d.stack[:m]
	return items, nil
}

// below returns the nearest object under the top of the stack, ignoring
// marks; it is recorded as a new list's Parent.
func (d *Decoder) below() any {
	if n := len(d.stack); n > 0 {
		return d.stack[n-1]
	}
	return nil
}

// memoPut stores v under idx as BINPUT, LONG_BINPUT and MEMOIZE do.
func (d *Decoder) memoPut(idx uint64, v any) {
	switch o := v.(type) {
	case *List:
		if idx < math.MaxInt32 {
			o.memo = int32(idx)
		}
	case *Dict:
		if idx < math.MaxInt32 {
			o.memo = int32(idx)
		}
	}
	if p := d.memoSlot(idx); p != nil {
		if *p == nil {
			d.memoCount++
		}
		*p = v
		return
	}
	if idx == d.memoDense && idx < math.MaxInt32 {
		if idx&memoMask == 0 {
			c := 1 << memoShift
			if idx == 0 {
				c = 64 // the first chunk grows by append: small pickles stay cheap
			}
			d.memo = append(d.memo, make([]any, 0, c))
		}
		last := &d.memo[len(d.memo)-1]
		*last = append(*last, v)
		d.memoDense++
		if _, ok := d.bigMem[idx]; ok {
			delete(d.bigMem, idx) // was defined out of order: not a new entry
		} else {
			d.memoCount++
		}
		return
	}
	if d.bigMem == nil {
		d.bigMem = map[uint64]any{}
	}
	if _, ok := d.bigMem[idx]; !ok {
		d.memoCount++
	}
	d.bigMem[idx] = v
}

// The memo is kept in fixed-size chunks: one growing slice of pointers
// would be copied (with GC barriers) every time it grows.
const (
	memoShift = 14
	memoMask  = 1<<memoShift - 1
)

func (d *Decoder) memoSlot(idx uint64) *any {
	if idx < d.memoDense {
		return &d.memo[idx>>memoShift][idx&memoMask]
	}
	return nil
}

func (d *Decoder) memoGet(idx uint64) (any, error) {
	var v any
	if p := d.memoSlot(idx); p != nil {
		v = *p
	} else {
		v = d.bigMem[idx]
	}
	switch v.(type) {
	case nil:
		return nil, fmt.Errorf("memo index %d not defined", idx)
	case consumed:
		return nil, fmt.Errorf("memo index %d refers to an object already consumed", idx)
	}
	return v, nil
}

func (d *Decoder) appendItems(l *List, items ...any) error {
	for _, it := range items {
		if d.hook != nil {
			keep, err := d.hook(l, it)
			if err != nil {
				return err
			}
			if !keep {
				continue
			}
		}
		l.Items = append(l.Items, it)
	}
	return nil
}

func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// decodeLong decodes a little-endian two's-complement integer of any length.
func decodeLong(b []byte) any {
	n := len(b)
	if n == 0 {
		return int64(0)
	}
	if n <= 8 {
		var u uint64
		for i := n - 1; i >= 0; i-- {
			u = u<<8 | uint64(b[i])
		}
		if b[n-1]&0x80 != 0 && n < 8 {
			u |= ^uint64(0) << (8 * uint(n))
		}
		return int64(u)
	}
	be := make([]byte, n)
	for i := range b {
		be[n-1-i] = b[i]
	}
	x := new(big.Int).SetBytes(be)
	if b[n-1]&0x80 != 0 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(8*n)))
	}
	if x.IsInt64() {
		return x.Int64()
	}
	return x
}

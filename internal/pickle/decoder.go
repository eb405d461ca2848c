package pickle

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
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

// Error names the opcode, its offset and the cause.
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

// Unwrap returns the cause.
func (e *OpError) Unwrap() error { return e.Err }

// AppendHook sees every item appended to a list (APPEND, APPENDS, and the
// items of LIST). It returns keep=false to drop the item, for callers that
// convert items as they arrive; an error stops decoding. A dropped dict
// that the hook also released with Replace(d, nil) may be reused for a
// later dict, so the hook must not keep it (its values are safe to keep).
type AppendHook func(l *List, item any) (keep bool, err error)

// Decoder decodes one pickle from a stream.
type Decoder struct {
	r         *reader
	stack     []any
	marks     []int
	m         memo
	ints      [intCacheSize]boxedInt
	freeDicts []*Dict
	freeLists []*List
	hook      AppendHook
	runHook   RunHook
	opOff     int64
	started   bool
}

// NewDecoder returns a decoder reading from r.
func NewDecoder(r io.Reader) *Decoder {
	return &Decoder{r: newReader(r), m: newMemo()}
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
	d.m.replace(uint64(idx), old, repl)
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

func (d *Decoder) memoGet(idx uint64) (any, error) {
	v := d.m.get(idx)
	switch x := v.(type) {
	case *Dict:
		x.shared = true
	case *List:
		x.refs++
	case nil:
		return nil, fmt.Errorf("memo index %d not defined", idx)
	case consumed:
		return nil, fmt.Errorf("memo index %d refers to an object already consumed", idx)
	}
	return v, nil
}

// A dict that a hook dropped is reused for a later EMPTY_DICT when no other
// reference to it can exist: never fetched from the memo or duplicated, and
// its memo slot (if any) released through Replace(d, nil). Millions of
// trace entries then cost a handful of dicts, not millions of garbage ones.
// The lists among its values (a trace entry's frames) are reused the same
// way once the last reference the input made to them is gone and the memo
// no longer holds them (Replace put a stand-in there).
const (
	memoRecycled = -3 // Dict.memo / List.memo of one waiting for reuse
	maxFree      = 4096
)

func (d *Decoder) recycle(dict *Dict) {
	if dict.shared || dict.memo == -2 || dict.memo == memoRecycled || len(d.freeDicts) >= maxFree {
		return
	}
	if dict.memo >= 0 {
		if _, ok := d.m.get(uint64(dict.memo)).(consumed); !ok {
			return
		}
	}
	for i := range dict.Items {
		if l, ok := dict.Items[i].Value.(*List); ok {
			d.recycleList(l)
		}
	}
	clear(dict.Items)
	dict.Items = dict.Items[:0]
	dict.strIndex, dict.otherIndex, dict.strKeys = nil, nil, 0
	dict.memo = memoRecycled
	d.freeDicts = append(d.freeDicts, dict)
}

func (d *Decoder) recycleList(l *List) {
	if l.refs > 0 {
		l.refs-- // the dropped dict held one of several references
		return
	}
	if l.memo == -2 || l.memo == memoRecycled || len(d.freeLists) >= maxFree {
		return
	}
	if l.memo >= 0 && d.m.get(uint64(l.memo)) == any(l) {
		return
	}
	clear(l.Items)
	l.Items = l.Items[:0]
	l.Parent = nil
	l.memo = memoRecycled
	d.freeLists = append(d.freeLists, l)
}

func (d *Decoder) newList(parent any) *List {
	if n := len(d.freeLists); n > 0 {
		l := d.freeLists[n-1]
		d.freeLists = d.freeLists[:n-1]
		l.memo, l.Parent = -1, parent
		return l
	}
	return &List{Parent: parent, memo: -1}
}

func (d *Decoder) newDict() *Dict {
	if n := len(d.freeDicts); n > 0 {
		dict := d.freeDicts[n-1]
		d.freeDicts = d.freeDicts[:n-1]
		dict.memo = -1
		return dict
	}
	return &Dict{memo: -1}
}

// Ints are boxed through a small direct-mapped cache: sizes, addresses
// and streams repeat across millions of trace entries, and each miss is
// one 8-byte allocation, as before.
const intCacheSize = 1 << 12

type boxedInt struct {
	n int64
	v any
}

func (d *Decoder) boxInt(n int64) any {
	if uint64(n) < 256 {
		return n // the runtime boxes these without allocating
	}
	c := &d.ints[uint64(n)*0x9E3779B97F4A7C15>>(64-12)]
	if c.v != nil && c.n == n {
		return c.v
	}
	var v any = n
	c.n, c.v = n, v
	return v
}

func (d *Decoder) appendItems(l *List, items ...any) error {
	for _, it := range items {
		if d.hook != nil {
			keep, err := d.hook(l, it)
			if err != nil {
				return err
			}
			if !keep {
				if dict, ok := it.(*Dict); ok {
					d.recycle(dict)
				}
				continue
			}
		}
		l.Items = append(l.Items, it)
	}
	return nil
}

func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// decodeInt decodes a little-endian two's-complement integer of at most 8
// bytes.
func decodeInt(b []byte) int64 {
	n := len(b)
	if n == 0 {
		return 0
	}
	var u uint64
	for i := n - 1; i >= 0; i-- {
		u = u<<8 | uint64(b[i])
	}
	if b[n-1]&0x80 != 0 && n < 8 {
		u |= ^uint64(0) << (8 * uint(n))
	}
	return int64(u)
}

// decodeLong decodes a little-endian two's-complement integer of any length.
func decodeLong(b []byte) any {
	n := len(b)
	if n <= 8 {
		return decodeInt(b)
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

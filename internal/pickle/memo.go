package pickle

import (
	"math"
	"reflect"
)

// memo is the unpickler's memo. A snapshot memoizes two or three objects
// per trace entry (the entry dict, its fresh "N/A" string, its frames
// list), tens of millions in a large file, so slots are 4-byte indexes
// into a table of distinct values rather than interfaces:
//
//   - equal strings share one value (Python would hold equal objects; a
//     decoded string is immutable, so sharing is invisible);
//   - a consumed container's value is freed for reuse (Replace), and its
//     slots point at the one "consumed" marker;
//   - replacement values (a caller's stand-in for a consumed list) are
//     interned, so a million frames lists that became the same stack
//     cost a million slots and one value.
//
// Slots 0..dense-1 live in fixed-size chunks (one growing slice would be
// copied every time it grows); an index past that, which only a forged
// input uses, goes to a map, so it costs one entry, not a run of slots.
// A chunk two behind the newest, whose trace entries have long been
// consumed, usually holds few distinct values (consumed, "N/A", a few
// stacks) and is packed to one byte a slot.
type memo struct {
	chunks []memoChunk
	dense  uint64
	sparse map[uint64]uint32
	count  uint64 // Python's len(memo): the index MEMOIZE uses

	vals  []any // vals[valUndefined] is nil, vals[valConsumed] is consumed{}
	free  []uint32
	strs  map[string]uint32
	repls map[any]uint32
	// holes are the ranges Runs defined, ascending.
	holes []hole
	// lastStr is the string str returned last and lastVI its index: a
	// string pushed and then memoized (a trace entry's fresh "N/A") is
	// then looked up once, not twice.
	lastStr string
	lastVI  uint32
}

// Slot values with a fixed meaning.
const (
	valUndefined = 0
	valConsumed  = 1
	valHole      = 2
)

// consumed marks a memo value whose object a caller released through
// Replace(old, nil).
type consumed struct{}

const (
	memoShift = 14
	memoMask  = 1<<memoShift - 1
	// maxStrCache bounds how many distinct strings are interned when they
	// are merely pushed (memoized strings are always interned).
	maxStrCache = 1 << 20
)

func newMemo() memo {
	return memo{vals: []any{nil, consumed{}, holeMark{}}, strs: map[string]uint32{}}
}

// memoChunk holds 1<<memoShift slots: as values (full), or, once packed,
// as one-byte codes into a table of at most 256 values.
type memoChunk struct {
	full  []uint32
	codes []uint8
	table []uint32
}

func (c *memoChunk) get(i uint64) uint32 {
	if c.full != nil {
		return c.full[i]
	}
	if c.codes == nil {
		return c.table[0] // a chunk of one value (a Run's hole) stores no codes
	}
	return c.table[c.codes[i]]
}

func (c *memoChunk) set(i uint64, vi uint32) {
	if c.full == nil && c.codes == nil {
		c.codes = make([]uint8, 1<<memoShift)
	}
	if c.full == nil {
		for k, t := range c.table {
			if t == vi {
				c.codes[i] = uint8(k)
				return
			}
		}
		if len(c.table) < 256 {
			c.table = append(c.table, vi)
			c.codes[i] = uint8(len(c.table) - 1)
			return
		}
		c.unpack()
	}
	c.full[i] = vi
}

// pack turns a full chunk into codes when its values are few.
func (c *memoChunk) pack() {
	if c.full == nil {
		return
	}
	var table []uint32
	codes := make([]uint8, len(c.full))
	for i, vi := range c.full {
		k := 0
		for k < len(table) && table[k] != vi {
			k++
		}
		if k == len(table) {
			if k == 256 {
				return
			}
			table = append(table, vi)
		}
		codes[i] = uint8(k)
	}
	if len(table) == 1 && table[0] == valHole && len(codes) == 1<<memoShift {
		codes = nil
	}
	c.full, c.codes, c.table = nil, codes, table
}

func (c *memoChunk) unpack() {
	c.full = make([]uint32, len(c.codes))
	for i, k := range c.codes {
		c.full[i] = c.table[k]
	}
	c.codes, c.table = nil, nil
}

// get returns the value stored under idx (nil when undefined).
func (m *memo) get(idx uint64) any {
	if idx < m.dense {
		vi := m.chunks[idx>>memoShift].get(idx & memoMask)
		if vi == valHole {
			return m.holeValue(idx)
		}
		return m.vals[vi]
	}
	return m.vals[m.sparse[idx]]
}

// put stores v under idx, as BINPUT, LONG_BINPUT and MEMOIZE do.
func (m *memo) put(idx uint64, v any) {
	if idx < math.MaxInt32 {
		switch o := v.(type) {
		case *List:
			o.memo = memoOnce(o.memo, idx)
		case *Dict:
			o.memo = memoOnce(o.memo, idx)
		}
	}
	vi := m.index(v)
	if idx < m.dense {
		c := &m.chunks[idx>>memoShift]
		if c.get(idx&memoMask) == valUndefined {
			m.count++
		}
		c.set(idx&memoMask, vi)
		return
	}
	if idx == m.dense && idx < math.MaxInt32 {
		m.appendDense(vi)
		if _, ok := m.sparse[idx]; ok {
			delete(m.sparse, idx) // was defined out of order: not a new entry
			m.count--
		}
		return
	}
	if m.sparse == nil {
		m.sparse = map[uint64]uint32{}
	}
	if _, ok := m.sparse[idx]; !ok {
		m.count++
	}
	m.sparse[idx] = vi
}

// memoOnce records a container's memo index; one memoized twice is
// marked -2, and Replace leaves it alone (its other slot would go on
// naming it).
func memoOnce(cur int32, idx uint64) int32 {
	if cur == -1 {
		return int32(idx)
	}
	return -2
}

// index returns the value-table index for v, interning strings.
func (m *memo) index(v any) uint32 {
	if s, ok := v.(string); ok {
		if m.lastVI != valUndefined && s == m.lastStr && m.vals[m.lastVI] == v {
			return m.lastVI
		}
		if vi, ok := m.strs[s]; ok {
			return vi
		}
		vi := m.add(v)
		m.strs[s] = vi
		return vi
	}
	return m.add(v)
}

func (m *memo) add(v any) uint32 {
	if n := len(m.free); n > 0 {
		vi := m.free[n-1]
		m.free = m.free[:n-1]
		m.vals[vi] = v
		return vi
	}
	m.vals = append(m.vals, v)
	return uint32(len(m.vals) - 1)
}

// str returns the string b as a boxed value, interned while the table of
// strings is not too large, so that the keys and repeated values of
// millions of dicts cost no allocation.
func (m *memo) str(b []byte) any {
	if vi, ok := m.strs[string(b)]; ok {
		v := m.vals[vi]
		m.lastStr, m.lastVI = v.(string), vi
		return v
	}
	var v any = string(b)
	if len(m.strs) < maxStrCache {
		vi := m.add(v)
		m.strs[v.(string)] = vi
		m.lastStr, m.lastVI = v.(string), vi
	}
	return v
}

// replace makes the slot that holds old yield repl (consumed when nil) and
// frees old's value.
func (m *memo) replace(idx uint64, old, repl any) {
	var vi uint32
	if idx < m.dense {
		vi = m.chunks[idx>>memoShift].get(idx & memoMask)
	} else {
		vi = m.sparse[idx]
	}
	if vi == valUndefined || m.vals[vi] != old {
		return
	}
	var ri uint32 = valConsumed
	if repl != nil {
		ri = m.internRepl(repl)
	}
	if idx < m.dense {
		m.chunks[idx>>memoShift].set(idx&memoMask, ri)
	} else {
		m.sparse[idx] = ri
	}
	m.vals[vi] = nil
	m.free = append(m.free, vi)
}

func (m *memo) internRepl(v any) uint32 {
	if !reflect.TypeOf(v).Comparable() {
		return m.add(v)
	}
	if vi, ok := m.repls[v]; ok {
		return vi
	}
	if m.repls == nil {
		m.repls = map[any]uint32{}
	}
	vi := m.add(v)
	m.repls[v] = vi
	return vi
}

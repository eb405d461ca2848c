package pickle

import (
	"errors"
	"fmt"
	"io"
	"slices"
)

// A caller that has already converted a stretch of the input by other
// means (say, many trace entries decoded in parallel from a file) can let
// the decoder skip it. RunHook is consulted before every EMPTY_DICT that
// directly follows a MARK, with nothing above the mark, on a list: the
// position where a batch of list items starts. It may claim the bytes from
// that EMPTY_DICT on as a Run; the decoder then skips them, leaving the
// stack as it was (the mark on top), and defines the run's memo entries.
//
// The caller vouches that the skipped bytes are a whole number of items
// that leave the stack as it was, memoize exactly Run.Memo objects (with
// MEMOIZE, never BINPUT) and that it has consumed the items itself, as an
// AppendHook that drops them would have. The memo holds no slot values for
// a run: a later fetch of one of its indexes asks Run.Lookup.
type RunHook func(off int64, l *List) (Run, error)

// Run is a stretch of input a RunHook claims.
type Run struct {
	// Len is its length in bytes from the EMPTY_DICT's offset; 0 claims
	// nothing.
	Len int64
	// Memo is the number of memo entries its MEMOIZE opcodes define.
	Memo uint64
	// Lookup returns the value of one of those entries, when later input
	// fetches it; nil reads as an object already consumed.
	Lookup func(idx uint64) any
}

// SetRunHook installs h; see RunHook.
func (d *Decoder) SetRunHook(h RunHook) { d.runHook = h }

// Peek returns the value memo index idx holds, as a later BINGET would
// fetch it, without counting the reference; nil when the index is
// undefined or its object was consumed.
func (d *Decoder) Peek(idx uint64) any {
	switch v := d.m.get(idx).(type) {
	case nil, consumed:
		return nil
	default:
		return v
	}
}

// MemoLen is the number of memo entries defined so far (the index the
// next MEMOIZE uses).
func (d *Decoder) MemoLen() uint64 { return d.m.count }

var errBadRun = errors.New("run hook: claimed run does not fit the input")

// tryRun asks the run hook about the EMPTY_DICT just read at d.opOff.
func (d *Decoder) tryRun() (bool, error) {
	n := len(d.stack)
	if len(d.marks) == 0 || d.marks[len(d.marks)-1] != n || n == 0 {
		return false, nil
	}
	l, ok := d.stack[n-1].(*List)
	if !ok {
		return false, nil
	}
	run, err := d.runHook(d.opOff, l)
	if err != nil || run.Len == 0 {
		return false, err
	}
	if run.Len < 1 || d.m.count != d.m.dense {
		return false, errBadRun
	}
	if err := d.r.skip(run.Len - 1); err != nil {
		return false, err
	}
	d.m.skip(run.Memo, run.Lookup)
	return true, nil
}

// skip discards the next n bytes, seeking past them when the input can.
func (r *reader) skip(n int64) error {
	if n < 0 {
		return errBadRun
	}
	if avail := int64(r.end - r.pos); n <= avail {
		r.pos += int(n)
		return nil
	}
	n -= int64(r.end - r.pos)
	r.base += int64(r.end)
	r.pos, r.end = 0, 0
	if s, ok := r.r.(io.Seeker); ok && r.err == nil {
		if _, err := s.Seek(n, io.SeekCurrent); err != nil {
			return fmt.Errorf("seek: %w", err)
		}
		r.base += n
		r.readSize = 4 << 10
		return nil
	}
	for n > 0 {
		if err := r.fill(1); err != nil {
			return err
		}
		take := min(int64(r.end-r.pos), n)
		r.pos += int(take)
		n -= take
	}
	return nil
}

// skip defines n memo entries at the end of the dense memo as a hole
// whose values lookup gives. Whole chunks of them cost one byte a slot.
func (m *memo) skip(n uint64, lookup func(uint64) any) {
	if n == 0 {
		return
	}
	m.holes = append(m.holes, hole{m.dense, m.dense + n, lookup})
	for n > 0 {
		if m.dense&memoMask == 0 || m.dense < 64 {
			m.appendDense(valHole) // starts a chunk
			n--
			continue
		}
		c := &m.chunks[len(m.chunks)-1]
		k := min(n, 1<<memoShift-m.dense&memoMask)
		if c.full != nil {
			// Fill the rest of the current chunk at once.
			old := len(c.full)
			c.full = slices.Grow(c.full, int(k))[:old+int(k)]
			for i := old; i < len(c.full); i++ {
				c.full[i] = valHole
			}
		} // else: a chunk of holes only, which stores nothing
		m.dense += k
		m.count += k
		n -= k
	}
}

// hole is a range of memo indexes a Run defined.
type hole struct {
	lo, hi uint64
	lookup func(uint64) any
}

// holeMark is the value of every slot in a hole.
type holeMark struct{}

// holeValue returns the value of index idx in a hole.
func (m *memo) holeValue(idx uint64) any {
	lo, hi := 0, len(m.holes)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if m.holes[mid].hi <= idx {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(m.holes) && m.holes[lo].lo <= idx && m.holes[lo].lookup != nil {
		if v := m.holes[lo].lookup(idx); v != nil {
			return v
		}
	}
	return consumed{}
}

// appendDense stores vi under the next dense index, m.dense.
func (m *memo) appendDense(vi uint32) {
	idx := m.dense
	if idx&memoMask == 0 {
		if n := len(m.chunks); n >= 2 {
			m.chunks[n-2].pack()
		}
		if vi == valHole && idx > 0 {
			// Holes come in long stretches: the chunk stores nothing
			// until something else is memoized in it.
			m.chunks = append(m.chunks, memoChunk{table: []uint32{valHole}})
			m.dense++
			m.count++
			return
		}
		c := 1 << memoShift
		if idx == 0 {
			c = 64 // the first chunk grows by append: small pickles stay cheap
		}
		m.chunks = append(m.chunks, memoChunk{full: make([]uint32, 0, c)})
	}
	last := &m.chunks[len(m.chunks)-1]
	if last.full == nil {
		// A chunk of holes so far: store them now.
		if vi == valHole {
			m.dense++
			m.count++
			return
		}
		last.full = make([]uint32, idx&memoMask, 1<<memoShift)
		for i := range last.full {
			last.full[i] = valHole
		}
		last.codes, last.table = nil, nil
	}
	last.full = append(last.full, vi)
	m.dense++
	m.count++
}

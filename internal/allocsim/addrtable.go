package allocsim

// addrTable maps the address of each allocated (or pending) block to the
// block: the allocator's active set, looked up on every free of a
// recorded trace. It is an open-addressing hash table with linear probing
// and backward-shift deletion, specialised to the 512-byte-aligned
// addresses it holds; a replay does one insert, one lookup and one delete
// per allocation, and a general map's hashing and bookkeeping cost twice
// as much.
type addrTable struct {
	slots []addrSlot // a power of two in length; b == nil marks a free slot
	n     int
	shift uint8 // 64 - log2(len(slots))
	// found is the slot where get last found its address: a replay's
	// free looks the block up, then deletes it, and del starts there
	// when the slot still holds the address (any other value only costs
	// the probe it would have made anyway).
	found int
}

type addrSlot struct {
	ptr int64
	b   *block
}

const addrTableMin = 1 << 10

// home is the slot where the probe for ptr starts: Fibonacci hashing of
// the address without its always-zero low bits.
func (t *addrTable) home(ptr int64) int {
	return int((uint64(ptr) >> 9 * 0x9E3779B97F4A7C15) >> t.shift)
}

// get returns the block at ptr, or nil.
func (t *addrTable) get(ptr int64) *block {
	if t.n == 0 {
		return nil
	}
	mask := len(t.slots) - 1
	for i := t.home(ptr); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.b == nil {
			return nil
		}
		if s.ptr == ptr {
			t.found = i
			return s.b
		}
	}
}

// put maps ptr to b (non-nil), replacing any block already there.
func (t *addrTable) put(ptr int64, b *block) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	mask := len(t.slots) - 1
	for i := t.home(ptr); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.b == nil {
			*s = addrSlot{ptr, b}
			t.n++
			return
		}
		if s.ptr == ptr {
			s.b = b
			return
		}
	}
}

// del removes ptr, moving later entries of its probe run back so that no
// lookup stops early at the hole.
func (t *addrTable) del(ptr int64) {
	if t.n == 0 {
		return
	}
	mask := len(t.slots) - 1
	i := t.found
	if i >= len(t.slots) || t.slots[i].ptr != ptr || t.slots[i].b == nil {
		i = t.home(ptr)
		for ; t.slots[i].ptr != ptr; i = (i + 1) & mask {
			if t.slots[i].b == nil {
				return
			}
		}
	}
	if t.slots[i].b == nil {
		return // an empty slot at ptr's home: ptr 0 was never put
	}
	for j := (i + 1) & mask; t.slots[j].b != nil; j = (j + 1) & mask {
		// The entry at j may move to the hole at i when its home does not
		// lie cyclically in (i, j].
		if h := t.home(t.slots[j].ptr); (j-h)&mask >= (j-i)&mask {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = addrSlot{}
	t.n--
}

func (t *addrTable) grow() {
	old := t.slots
	size := max(addrTableMin, 2*len(old))
	t.slots = make([]addrSlot, size)
	t.shift = uint8(64 - log2(size))
	t.n = 0
	for _, s := range old {
		if s.b != nil {
			t.put(s.ptr, s.b)
		}
	}
}

func log2(n int) int {
	k := 0
	for n > 1 {
		n >>= 1
		k++
	}
	return k
}

// len is the number of entries.
func (t *addrTable) len() int { return t.n }

// each calls f with every entry, in no particular order.
func (t *addrTable) each(f func(ptr int64, b *block)) {
	for _, s := range t.slots {
		if s.b != nil {
			f(s.ptr, s.b)
		}
	}
}

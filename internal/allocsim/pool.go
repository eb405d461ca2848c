package allocsim

import "math/bits"

// block is a Block of CUDACachingAllocator.cpp: a piece of a segment,
// allocated or free, linked to its neighbours in the same segment.
type block struct {
	ptr, size  int64
	requested  int64
	stream     int64
	pool       *blockPool
	prev, next *block
	allocated  bool
	mapped     bool
	eventCount int
	streamUses []int64
	gcBase     int64
	seg        *expSegment // non-nil for expandable segments
	tag        int32       // the caller's name for the allocation (Replay's request ID)
	// hint is where the block went in its free set when last placed there:
	// inserts and erases below it since move it, but seldom far, so
	// indexOf gallops from it instead of searching the whole set.
	hint int32
	// twin is the block's copy while Allocator.clone runs, nil otherwise.
	twin *block
}

func (b *block) isSplit() bool { return b.prev != nil || b.next != nil }

// isFreeForMerge is the merge condition of try_merge_blocks.
func (b *block) isFree() bool {
	return b != nil && !b.allocated && b.eventCount == 0 && len(b.streamUses) == 0
}

// blockSet is an ordered set of blocks. PyTorch uses std::set; the pools
// here rarely hold more than a few hundred free blocks, where a sorted
// slice with binary search is faster than a tree. Each block's sort key is
// kept beside it in keys, so the search reads one small contiguous array
// instead of following a pointer per probe.
//
// An erase leaves a hole: the item becomes nil and its key stays, so the
// keys stay sorted and no other item moves. An insert fills the nearest
// hole, moving only the items between it and the new item's place, which
// is none at all when the hole is the new item's own place — a training
// step frees a block of the size it allocated last step, and that block
// usually goes back where the one just taken was. Holes cost the hot
// paths a skip; everything else reads the set through live, which closes
// them first.
type blockSet struct {
	keys  []setKey
	items []*block // nil: a hole
	// dead counts the holes.
	dead      int
	addrOrder bool // BlockComparatorAddress rather than BlockComparatorSize
	// near holds, by a hash of the size, where the latest search for that
	// size landed: a training step requests and frees the same sizes over
	// and over, and the place found last time is usually still within a
	// few items, so lowerBound and insert gallop from it. Any value is
	// correct; a stale one only costs a longer gallop.
	near [nearSlots]int32
}

const nearSlots = 64

// nearSlot is near's index for size: Fibonacci hashing of the size
// without its low 9 bits, which are zero for every rounded size.
func nearSlot(size int64) int {
	return int((uint64(size) >> 9 * 0x9E3779B97F4A7C15) >> (64 - 6))
}

// setKey is a block's place in a blockSet: BlockComparatorSize's (stream,
// size, ptr), or BlockComparatorAddress's (stream, ptr) with size 0. The
// fields are the int64s with their sign bit flipped, so that unsigned
// order is the signed order and a key compares as one 192-bit number.
type setKey struct{ ptr, size, stream uint64 }

const signBit = 1 << 63

func sizeKey(stream, size, ptr int64) setKey {
	return setKey{ptr: uint64(ptr) ^ signBit, size: uint64(size) ^ signBit, stream: uint64(stream) ^ signBit}
}

// keyOf is b's key in s.
func (s *blockSet) keyOf(b *block) setKey {
	if s.addrOrder {
		return sizeKey(b.stream, 0, b.ptr)
	}
	return sizeKey(b.stream, b.size, b.ptr)
}

// less reports whether x sorts before y: a 192-bit subtraction whose final
// borrow is the answer, with no branch for the search to mispredict.
func (x setKey) less(y setKey) bool {
	_, c := bits.Sub64(x.ptr, y.ptr, 0)
	_, c = bits.Sub64(x.size, y.size, c)
	_, c = bits.Sub64(x.stream, y.stream, c)
	return c != 0
}

// lowerBound returns the index of the first item not less than the key
// (stream, size, ptr); size is ignored by an address-ordered set. This is
// the simulator's hottest loop: a branch-free binary search.
func (s *blockSet) lowerBound(stream, size, ptr int64) int {
	if s.addrOrder {
		return s.search(sizeKey(stream, 0, ptr))
	}
	h := nearSlot(size)
	i := s.searchNear(sizeKey(stream, size, ptr), int(s.near[h]))
	s.near[h] = int32(i)
	return i
}

func (s *blockSet) search(k setKey) int { return lowerBound(s.keys, k) }

// searchNear is search(k) for a key whose place is likely near index i: it
// gallops from i (1, 2, 4, … items away) to bracket the place, then
// searches the bracket. A split remainder or a merged block usually sorts
// within a few items of the block it replaces.
func (s *blockSet) searchNear(k setKey, i int) int {
	keys := s.keys
	n := len(keys)
	if i < n && keys[i].less(k) { // the place is above i
		lo, hi := i+1, n
		for step := 1; ; step <<= 1 {
			p := lo + step - 1
			if p >= n {
				break
			}
			if !keys[p].less(k) {
				hi = p
				break
			}
			lo = p + 1
		}
		return lo + lowerBound(keys[lo:hi], k)
	}
	lo, hi := 0, min(i, n) // the place is at or below i
	for step := 1; ; step <<= 1 {
		p := hi - step
		if p < 0 {
			break
		}
		if keys[p].less(k) {
			lo = p + 1
			break
		}
		hi = p
	}
	return lo + lowerBound(keys[lo:hi], k)
}

// lowerBound returns the index of the first of keys not less than k.
func lowerBound(keys []setKey, k setKey) int {
	n := len(keys)
	if n == 0 {
		return 0
	}
	base := 0
	for n > 1 {
		half := n >> 1
		_, c := bits.Sub64(keys[base+half-1].ptr, k.ptr, 0)
		_, c = bits.Sub64(keys[base+half-1].size, k.size, c)
		_, c = bits.Sub64(keys[base+half-1].stream, k.stream, c)
		base += half & -int(c) // keys[base+half-1] < k: the answer lies past it
		n -= half
	}
	_, c := bits.Sub64(keys[base].ptr, k.ptr, 0)
	_, c = bits.Sub64(keys[base].size, k.size, c)
	_, c = bits.Sub64(keys[base].stream, k.stream, c)
	return base + int(c)
}

func (s *blockSet) insert(b *block) {
	k := s.keyOf(b)
	var i int
	if s.addrOrder {
		i = s.search(k)
	} else {
		h := nearSlot(b.size)
		i = s.searchNear(k, int(s.near[h]))
		s.near[h] = int32(i)
	}
	if s.dead > 0 {
		if s.fillHole(i, k, b, min(len(s.items)-i, maxHoleReach)) {
			return
		}
		if 4*s.dead > len(s.items) {
			s.compact()
			i = s.search(k)
		}
	}
	s.keys = append(s.keys, setKey{})
	copy(s.keys[i+1:], s.keys[i:])
	s.keys[i] = k
	s.items = append(s.items, nil)
	copy(s.items[i+1:], s.items[i:])
	s.items[i] = b
	b.hint = int32(i)
}

// erase removes b; it reports whether b was present.
func (s *blockSet) erase(b *block) bool {
	if i := s.indexOf(b); i >= 0 {
		s.eraseAt(i)
		return true
	}
	return false
}

// indexOf returns b's index, or -1 when b is not in s.
func (s *blockSet) indexOf(b *block) int {
	if h := int(b.hint); h < len(s.items) && s.items[h] == b {
		return h // nothing moved it since it was placed (an erase moves nothing)
	}
	k := s.keyOf(b)
	for i := s.searchNear(k, int(b.hint)); i < len(s.items) && !k.less(s.keys[i]); i++ {
		if s.items[i] == b {
			return i
		}
	}
	return -1
}

// replaceAt removes the item at index i and inserts b, moving only the
// items between the two places (or between b's place and a nearer hole):
// a block split or merged in place usually lands near where it was.
func (s *blockSet) replaceAt(i int, b *block) {
	k := s.keyOf(b)
	t := s.searchNear(k, i)
	if d := max(t-i-1, i-t); s.dead > 0 && d > maxHoleReach {
		// A hole next to b's place moves less than the items between.
		if s.fillHole(t, k, b, min(len(s.items)-t, maxHoleReach)) {
			s.items[i] = nil
			s.dead++
			s.trim()
			return
		}
	}
	switch {
	case t > i+1: // b sorts after items i+1 … t-1: move them down
		copy(s.keys[i:t-1], s.keys[i+1:t])
		copy(s.items[i:t-1], s.items[i+1:t])
		t--
	case t <= i: // b sorts before items t … i-1: move them up
		copy(s.keys[t+1:i+1], s.keys[t:i])
		copy(s.items[t+1:i+1], s.items[t:i])
	default: // b takes slot i itself
		t = i
	}
	s.keys[t] = k
	s.items[t] = b
	b.hint = int32(t)
	s.trim() // a hole may have moved up to the end
}

// fillHole puts b, of key k, whose place is index i, into the nearest
// hole less than reach items away, if any; it reports whether it did.
func (s *blockSet) fillHole(i int, k setKey, b *block, reach int) bool {
	for d := 0; d < reach; d++ {
		if j := i + d; s.items[j] == nil { // items i … j-1 move up
			copy(s.keys[i+1:j+1], s.keys[i:j])
			copy(s.items[i+1:j+1], s.items[i:j])
			s.keys[i], s.items[i] = k, b
			b.hint = int32(i)
			s.dead--
			return true
		}
		if j := i - 1 - d; j >= 0 && s.items[j] == nil { // items j+1 … i-1 move down
			copy(s.keys[j:i-1], s.keys[j+1:i])
			copy(s.items[j:i-1], s.items[j+1:i])
			s.keys[i-1], s.items[i-1] = k, b
			b.hint = int32(i - 1)
			s.dead--
			return true
		}
	}
	return false
}

// maxHoleReach is how far fillHole looks for a hole: nearly every hole an
// insert fills is its own place or a few items away, and looking further
// costs about what the moves it would save do.
const maxHoleReach = 8

// eraseAt removes the item at index i; the others keep their indices.
func (s *blockSet) eraseAt(i int) {
	s.items[i] = nil
	s.dead++
	s.trim()
}

// trim drops the holes at the end of the set.
func (s *blockSet) trim() {
	n := len(s.items)
	for n > 0 && s.items[n-1] == nil {
		n--
		s.dead--
	}
	s.keys, s.items = s.keys[:n], s.items[:n]
}

// compact closes the holes.
func (s *blockSet) compact() {
	if s.dead == 0 {
		return
	}
	n := 0
	for i, b := range s.items {
		if b != nil {
			s.keys[n], s.items[n] = s.keys[i], b
			b.hint = int32(n)
			n++
		}
	}
	clear(s.items[n:])
	s.keys, s.items, s.dead = s.keys[:n], s.items[:n], 0
}

// live closes the holes and returns the items, in order. Indices into
// the set stay valid until the next insert or compaction.
func (s *blockSet) live() []*block {
	s.compact()
	return s.items
}

// next returns the index of the first item at index i or above, or
// len().
func (s *blockSet) next(i int) int {
	for i < len(s.items) && s.items[i] == nil {
		i++
	}
	return i
}

// len is the number of slots, holes included.
func (s *blockSet) len() int { return len(s.items) }

// blockPool is a BlockPool: the free blocks of one kind (small or large).
type blockPool struct {
	blocks   blockSet // free mapped blocks, by size
	unmapped blockSet // unmapped ranges of expandable segments, by address
	isSmall  bool
	// private is set for the pools of a PrivatePool (CUDA graph capture,
	// torch.cuda.MemPool): they never use expandable segments and are not
	// released by empty_cache while the pool is in use.
	private bool
	id      [2]int64 // the MempoolId, (0, 0) for the default pool
	// getFreeBlocksCalls counts get_free_block calls while GC is active; a
	// block's age is the difference to its gcBase.
	getFreeBlocksCalls int64
}

func newPool(small bool) *blockPool {
	return &blockPool{
		unmapped: blockSet{addrOrder: true},
		isSmall:  small,
	}
}

// insertFree puts b into the pool's free set, stamping its GC age base.
func (p *blockPool) insertFree(b *block) {
	b.gcBase = p.getFreeBlocksCalls
	p.blocks.insert(b)
}

// replaceFree is insertFree of b in place of the free set's item i, which
// leaves the set.
func (p *blockPool) replaceFree(i int, b *block) {
	b.gcBase = p.getFreeBlocksCalls
	p.blocks.replaceAt(i, b)
}

package allocsim

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
}

func (b *block) isSplit() bool { return b.prev != nil || b.next != nil }

// isFreeForMerge is the merge condition of try_merge_blocks.
func (b *block) isFree() bool {
	return b != nil && !b.allocated && b.eventCount == 0 && len(b.streamUses) == 0
}

// blockSet is an ordered set of blocks. PyTorch uses std::set; the pools
// here rarely hold more than a few thousand free blocks, where a sorted
// slice with binary search is faster than a tree. The sort keys are kept
// beside the blocks (keys[i] is items[i]'s), so the search reads one
// contiguous array instead of chasing a pointer per step: it is the
// simulator's hottest loop.
type blockSet struct {
	items     []*block
	keys      []setKey
	less      func(a, b *block) bool
	addrOrder bool // byAddr rather than bySize
}

// setKey is a block's sort key: (stream, size, ptr) by size, (stream,
// ptr, 0) by address.
type setKey struct{ stream, k1, k2 int64 }

func (s *blockSet) keyOf(b *block) setKey {
	if s.addrOrder {
		return setKey{b.stream, b.ptr, 0}
	}
	return setKey{b.stream, b.size, b.ptr}
}

// bySize is BlockComparatorSize: (stream, size, ptr).
func bySize(a, b *block) bool {
	if a.stream != b.stream {
		return a.stream < b.stream
	}
	if a.size != b.size {
		return a.size < b.size
	}
	return a.ptr < b.ptr
}

// byAddr is BlockComparatorAddress: (stream, ptr).
func byAddr(a, b *block) bool {
	if a.stream != b.stream {
		return a.stream < b.stream
	}
	return a.ptr < b.ptr
}

// lowerBound returns the index of the first item not less than key.
func (s *blockSet) lowerBound(key *block) int {
	k := s.keyOf(key)
	keys := s.keys
	lo, hi := 0, len(keys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		b := &keys[m]
		if b.stream < k.stream || (b.stream == k.stream && (b.k1 < k.k1 || (b.k1 == k.k1 && b.k2 < k.k2))) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

func (s *blockSet) insert(b *block) {
	i := s.lowerBound(b)
	s.items = append(s.items, nil)
	copy(s.items[i+1:], s.items[i:])
	s.items[i] = b
	s.keys = append(s.keys, setKey{})
	copy(s.keys[i+1:], s.keys[i:])
	s.keys[i] = s.keyOf(b)
}

// erase removes b; it reports whether b was present.
func (s *blockSet) erase(b *block) bool {
	i := s.lowerBound(b)
	for ; i < len(s.items) && !s.less(b, s.items[i]); i++ {
		if s.items[i] == b {
			copy(s.items[i:], s.items[i+1:])
			s.items[len(s.items)-1] = nil
			s.items = s.items[:len(s.items)-1]
			copy(s.keys[i:], s.keys[i+1:])
			s.keys = s.keys[:len(s.keys)-1]
			return true
		}
	}
	return false
}

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
		blocks:   blockSet{less: bySize},
		unmapped: blockSet{less: byAddr, addrOrder: true},
		isSmall:  small,
	}
}

// insertFree puts b into the pool's free set, stamping its GC age base.
func (p *blockPool) insertFree(b *block) {
	b.gcBase = p.getFreeBlocksCalls
	p.blocks.insert(b)
}

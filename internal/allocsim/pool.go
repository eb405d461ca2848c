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
// slice with binary search is faster than a tree.
type blockSet struct {
	items     []*block
	less      func(a, b *block) bool
	addrOrder bool // byAddr rather than bySize
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

// lowerBound returns the index of the first item not less than key. The
// comparators are inlined by hand: this is the simulator's hottest loop.
func (s *blockSet) lowerBound(key *block) int {
	lo, hi := 0, len(s.items)
	if s.addrOrder {
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			b := s.items[m]
			if b.stream < key.stream || (b.stream == key.stream && b.ptr < key.ptr) {
				lo = m + 1
			} else {
				hi = m
			}
		}
		return lo
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		b := s.items[m]
		if b.stream < key.stream || (b.stream == key.stream && (b.size < key.size || (b.size == key.size && b.ptr < key.ptr))) {
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
}

// erase removes b; it reports whether b was present.
func (s *blockSet) erase(b *block) bool {
	i := s.lowerBound(b)
	for ; i < len(s.items) && !s.less(b, s.items[i]); i++ {
		if s.items[i] == b {
			copy(s.items[i:], s.items[i+1:])
			s.items[len(s.items)-1] = nil
			s.items = s.items[:len(s.items)-1]
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

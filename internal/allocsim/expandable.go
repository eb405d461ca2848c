package allocsim

import "github.com/vramkit/vramkit/internal/snapshot"

// expSegment is an ExpandableSegment: a large virtual address range whose
// pages (2 MiB for the small pool, large_segment_size for the large pool)
// are mapped to physical memory on demand.
type expSegment struct {
	base   int64
	page   int64
	pages  int64
	mapped []bool
	stream int64
}

func (s *expSegment) size() int64 { return s.page * s.pages }

// mapRange maps every page touched by [ptr, ptr+size) and returns the
// mapped range, or size 0 when the device has no memory for it.
func (a *Allocator) mapRange(s *expSegment, ptr, size int64) (int64, int64) {
	begin := (ptr - s.base) / s.page
	end := (ptr + size - s.base + s.page - 1) / s.page
	if begin >= end {
		return s.base + begin*s.page, 0
	}
	start, n := s.base+begin*s.page, (end-begin)*s.page
	if !a.dev.Map(start, n) {
		return start, 0
	}
	for i := begin; i < end; i++ {
		s.mapped[i] = true
	}
	return start, n
}

// unmapRange unmaps the whole pages inside [ptr, ptr+size).
func (a *Allocator) unmapRange(s *expSegment, ptr, size int64) (int64, int64) {
	begin := (ptr - s.base + s.page - 1) / s.page
	end := (ptr + size - s.base) / s.page
	if begin >= end {
		return 0, 0
	}
	start, n := s.base+begin*s.page, (end-begin)*s.page
	a.dev.Unmap(start, n)
	for i := begin; i < end; i++ {
		s.mapped[i] = false
	}
	return start, n
}

// findExpandableBlock is find_expandable_block: the lowest-address run of
// free and unmapped blocks on this stream with room for size bytes, or a
// new segment's single unmapped block.
func (a *Allocator) findExpandableBlock(pool *blockPool, size, stream int64) *block {
	roomy := func(b *block) bool {
		var n int64
		for ; n < size && b.isFree(); b = b.next {
			n += b.size
		}
		return n >= size
	}
	set := &pool.unmapped
	set.compact()
	for i := set.lowerBound(stream, 0, 0); i < set.len() && set.items[i].stream == stream; i++ {
		c := set.items[i]
		if c.prev.isFree() {
			c = c.prev
		}
		if roomy(c) {
			return c
		}
	}
	page := a.cfg.LargeSegmentSize
	if pool.isSmall {
		page = SmallBuffer
	}
	total := a.dev.Total()
	va := total + total/8
	pages := (va + page - 1) / page
	seg := &expSegment{page: page, pages: pages, mapped: make([]bool, pages), stream: stream}
	seg.base = a.dev.Reserve(seg.size(), stream, pool.isSmall)
	a.segs = append(a.segs, seg)
	c := &block{ptr: seg.base, size: seg.size(), stream: stream, pool: pool, seg: seg}
	pool.unmapped.insert(c)
	return c
}

// mapBlock is map_block: map size bytes at the front of the unmapped block
// b and merge it with free mapped neighbours.
func (a *Allocator) mapBlock(b *block, size int64) bool {
	ptr, n := a.mapRange(b.seg, b.ptr, size)
	if n == 0 {
		return false
	}
	pool := b.pool
	pool.unmapped.erase(b)
	b.mapped = true
	if n < b.size {
		rest := &block{ptr: b.ptr + n, size: b.size - n, stream: b.stream, pool: pool, seg: b.seg,
			prev: b, next: b.next}
		if b.next != nil {
			b.next.prev = rest
		}
		b.next = rest
		pool.unmapped.insert(rest)
		b.size = n
	}
	a.tryMerge(b, b.prev, pool)
	a.tryMerge(b, b.next, pool)
	pool.insertFree(b)
	a.totalAllocated += n
	a.stats.ReservedBytes.increase(pool.isSmall, n)
	a.stats.NumDeviceAlloc++
	a.record(snapshot.ActionSegmentMap, ptr, n, b.stream)
	return true
}

// tryAllocateExpandable is try_allocate_expandable_block.
func (a *Allocator) tryAllocateExpandable(pool *blockPool, size, stream int64) *block {
	c := a.findExpandableBlock(pool, size, stream)
	if !c.mapped && !a.mapBlock(c, min(c.size, size)) {
		return nil
	}
	for c.size < size {
		next := c.next
		if next == nil || !a.mapBlock(next, min(size-c.size, next.size)) {
			return nil
		}
		c = next
	}
	pool.blocks.erase(c)
	return c
}

// unmapBlock is unmap_block: return the whole free pages inside b to the
// device, leaving the partial pages before and after as free blocks.
func (a *Allocator) unmapBlock(b *block) {
	ptr, n := a.unmapRange(b.seg, b.ptr, b.size)
	if n == 0 {
		return
	}
	pool := b.pool
	pool.blocks.erase(b)
	if before := ptr - b.ptr; before > 0 {
		f := &block{ptr: b.ptr, size: before, stream: b.stream, pool: pool, seg: b.seg, mapped: true,
			prev: b.prev, next: b}
		if b.prev != nil {
			b.prev.next = f
		}
		b.prev = f
		pool.insertFree(f)
	}
	if after := b.size - (ptr - b.ptr) - n; after > 0 {
		f := &block{ptr: ptr + n, size: after, stream: b.stream, pool: pool, seg: b.seg, mapped: true,
			prev: b, next: b.next}
		if b.next != nil {
			b.next.prev = f
		}
		b.next = f
		pool.insertFree(f)
	}
	b.ptr, b.size, b.mapped = ptr, n, false
	a.tryMerge(b, b.prev, pool)
	a.tryMerge(b, b.next, pool)
	pool.unmapped.insert(b)
	a.totalAllocated -= n
	a.stats.ReservedBytes.decrease(pool.isSmall, n)
	a.stats.NumDeviceFree++
	a.record(snapshot.ActionSegmentUnmap, ptr, n, b.stream)
}

// releaseExpandableSegment drops a segment that is one unmapped block.
func (a *Allocator) releaseExpandableSegment(b *block) {
	for i, s := range a.segs {
		if s == b.seg {
			a.segs = append(a.segs[:i], a.segs[i+1:]...)
			break
		}
	}
	b.pool.unmapped.erase(b)
}

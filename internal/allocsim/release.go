package allocsim

import "github.com/vramkit/vramkit/internal/snapshot"

// EmptyCache is torch.cuda.empty_cache(): wait for outstanding stream
// events, then return every unused cached segment (and unmap every free
// expandable page) to the device.
func (a *Allocator) EmptyCache() { a.releaseCachedBlocks() }

// releaseCachedBlocks is release_cached_blocks for the default pool.
func (a *Allocator) releaseCachedBlocks() {
	a.synchronizeAndFreeEvents()
	a.releaseBlocks(a.large)
	a.releaseBlocks(a.small)
}

// synchronizeAndFreeEvents waits on every outstanding event and frees the
// blocks that were waiting.
func (a *Allocator) synchronizeAndFreeEvents() {
	a.stats.NumSyncAllStreams++
	pend := a.pending
	a.pending = nil
	for _, b := range pend {
		b.eventCount = 0
		a.freeBlock(b)
	}
}

// releaseBlocks frees every whole-segment free block of pool, in the
// pool's (stream, size, address) order, and unmaps free expandable pages.
func (a *Allocator) releaseBlocks(pool *blockPool) {
	var toUnmap []*block
	items := append([]*block(nil), pool.blocks.live()...)
	for _, b := range items {
		if b.seg != nil {
			toUnmap = append(toUnmap, b)
		} else if b.prev == nil && b.next == nil {
			a.releaseBlock(b)
		}
	}
	for _, b := range toUnmap {
		a.unmapBlock(b)
		if b.prev == nil && b.next == nil {
			a.releaseExpandableSegment(b)
		}
	}
}

// releaseBlock is release_block: cudaFree of a whole free segment.
func (a *Allocator) releaseBlock(b *block) {
	a.stats.NumDeviceFree++
	a.record(snapshot.ActionSegmentFree, b.ptr, b.size, b.stream)
	a.dev.Free(b.ptr, b.size)
	a.totalAllocated -= b.size
	small := b.pool.isSmall
	a.stats.Segment.decrease(small, 1)
	a.stats.ReservedBytes.decrease(small, b.size)
	if b.size >= a.cfg.MaxSplitSize {
		a.stats.OversizeSegments.decrease(1)
	}
	b.pool.blocks.erase(b)
	a.recycle(b)
}

// releaseAvailableCachedBlocks is release_available_cached_blocks: after a
// failed cudaMalloc, free oversize cached blocks (only when
// max_split_size is set) until the request could fit.
func (a *Allocator) releaseAvailableCachedBlocks(pool *blockPool, size, stream int64) bool {
	if a.cfg.MaxSplitSize == Unlimited {
		return false
	}
	keySize := size
	if keySize < a.cfg.MaxSplitSize {
		keySize = a.cfg.MaxSplitSize
	}
	set := &pool.blocks
	set.compact() // the walk down below steps over no holes but its own
	i := set.lowerBound(stream, keySize, 0)
	if i == set.len() || set.items[i].stream != stream {
		if i == 0 {
			return false
		}
		var released int64
		i--
		for released < keySize && set.items[i].size >= a.cfg.MaxSplitSize && set.items[i].stream == stream {
			cur := set.items[i]
			released += cur.size
			a.releaseBlock(cur) // PyTorch asserts cur is not expandable
			if i == 0 {
				break
			}
			i--
		}
		return released >= keySize
	}
	a.releaseBlock(set.items[i])
	return true
}

// garbageCollect is garbage_collect_cached_blocks: with a memory fraction
// and garbage_collection_threshold set, free the oldest unsplit cached
// large blocks once reserved memory passes threshold × allowed.
func (a *Allocator) garbageCollect() {
	threshold := int64(a.cfg.GCThreshold * float64(a.allowed))
	if a.totalAllocated <= threshold {
		return
	}
	target := a.totalAllocated - threshold
	pool := a.large
	age := func(b *block) float64 { return float64(pool.getFreeBlocksCalls - b.gcBase) }
	var totalAge float64
	count := 0
	for _, b := range pool.blocks.live() {
		if !b.isSplit() && b.seg == nil {
			totalAge += age(b)
			count++
		}
	}
	if count == 0 {
		return
	}
	var reclaimed int64
	freed := true
	for reclaimed < target && freed && count > 0 {
		avg := totalAge / float64(count)
		freed = false
		items := append([]*block(nil), pool.blocks.live()...)
		for _, b := range items {
			if !b.isSplit() && b.seg == nil && age(b) >= avg {
				freed = true
				reclaimed += b.size
				totalAge -= age(b)
				count--
				a.releaseBlock(b)
			}
		}
	}
}

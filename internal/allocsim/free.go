package allocsim

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// Free releases the block at ptr, as DeviceCachingAllocator::free. A block
// used on other streams (RecordStream) stays active until CompleteEvents.
func (a *Allocator) Free(ptr int64) error {
	b := a.active.get(ptr)
	if b == nil || !b.allocated {
		return fmt.Errorf("allocsim: free of %#x, which is not an allocated block", ptr)
	}
	a.free(b)
	return nil
}

// free is Free of allocated block b.
func (a *Allocator) free(b *block) {
	small := b.pool.isSmall
	b.allocated = false
	a.stats.Allocation.decrease(small, 1)
	a.stats.AllocatedBytes.decrease(small, b.size)
	a.record(snapshot.ActionFreeRequested, b.ptr, b.requested, b.stream)
	if b.size >= a.cfg.MaxSplitSize {
		a.stats.OversizeAllocations.decrease(1)
	}
	if len(b.streamUses) > 0 {
		// insert_events: one event per recorded stream; the block waits.
		b.eventCount += len(b.streamUses)
		b.streamUses = nil
		a.pending = append(a.pending, b)
		return
	}
	a.freeBlock(b)
}

// RecordStream is Tensor.record_stream: the block at ptr is also used on
// stream, so its memory is reused only after that stream's work is done.
func (a *Allocator) RecordStream(ptr, stream int64) error {
	b := a.active.get(ptr)
	if b == nil || !b.allocated {
		return fmt.Errorf("allocsim: record_stream on %#x, which is not an allocated block", ptr)
	}
	b.recordStream(stream)
	return nil
}

func (b *block) recordStream(stream int64) {
	if stream == b.stream {
		return
	}
	for _, s := range b.streamUses {
		if s == stream {
			return
		}
	}
	b.streamUses = append(b.streamUses, stream)
}

// CompleteEvents marks the outstanding stream events of the freed block at
// ptr as done, as process_events does when they have completed; the block
// returns to its pool. It reports whether such a block was waiting.
func (a *Allocator) CompleteEvents(ptr int64) bool {
	for i, b := range a.pending {
		if b.ptr == ptr {
			a.completePending(i)
			return true
		}
	}
	return false
}

// completePending is CompleteEvents of a.pending[i].
func (a *Allocator) completePending(i int) {
	b := a.pending[i]
	a.pending = append(a.pending[:i], a.pending[i+1:]...)
	b.eventCount = 0
	a.freeBlock(b)
}

// completeBlock is CompleteEvents of block b; it reports whether b was
// waiting.
func (a *Allocator) completeBlock(b *block) bool {
	for i, p := range a.pending {
		if p == b {
			a.completePending(i)
			return true
		}
	}
	return false
}

// Pending reports how many freed blocks wait on stream events.
func (a *Allocator) Pending() int { return len(a.pending) }

// freeBlock is free_block: return b to its pool, merging free neighbours.
func (a *Allocator) freeBlock(b *block) {
	a.record(snapshot.ActionFreeCompleted, b.ptr, b.requested, b.stream)
	origSize, requested := b.size, b.requested
	if !a.untracked {
		a.active.del(b.ptr) // before a merge moves b.ptr
	}
	pool := b.pool
	var netBlocks, netSize int64
	// b takes the free set's slot of the first neighbour it absorbs: it
	// sorts just above it, so one short move replaces an erase and an
	// insert that would each shift the rest of the set.
	slot := -1
	for _, c := range [2]*block{b.prev, b.next} {
		if !mergeable(b, c) {
			continue
		}
		if i := pool.blocks.indexOf(c); i >= 0 {
			if slot < 0 {
				slot = i
			} else {
				pool.blocks.eraseAt(i) // slot keeps its index
			}
		}
		netBlocks--
		netSize -= a.merge(b, c)
	}
	if slot >= 0 {
		pool.replaceFree(slot, b)
	} else {
		pool.insertFree(b)
	}
	if b.isSplit() {
		netBlocks++
		netSize += b.size
	}
	small := pool.isSmall
	if b.seg == nil {
		switch {
		case netBlocks > 0:
			a.stats.InactiveSplit.increase(small, netBlocks)
		case netBlocks < 0:
			a.stats.InactiveSplit.decrease(small, -netBlocks)
		}
		switch {
		case netSize > 0:
			a.stats.InactiveSplitBytes.increase(small, netSize)
		case netSize < 0:
			a.stats.InactiveSplitBytes.decrease(small, -netSize)
		}
	}
	a.stats.Active.decrease(small, 1)
	a.stats.ActiveBytes.decrease(small, origSize)
	a.stats.RequestedBytes.decrease(small, requested)
}

// tryMerge is try_merge_blocks: fold src into dst when src is free; it
// returns the bytes subsumed.
func (a *Allocator) tryMerge(dst, src *block, pool *blockPool) int64 {
	if !mergeable(dst, src) {
		return 0
	}
	if src.mapped {
		pool.blocks.erase(src)
	} else {
		pool.unmapped.erase(src)
	}
	return a.merge(dst, src)
}

// mergeable is try_merge_blocks' condition: src is a free neighbour of
// dst on the same side of the mapped/unmapped line.
func mergeable(dst, src *block) bool {
	return src != nil && !src.allocated && src.eventCount == 0 && len(src.streamUses) == 0 && dst.mapped == src.mapped
}

// merge folds src, already out of its pool's sets, into dst and returns
// the bytes subsumed.
func (a *Allocator) merge(dst, src *block) int64 {
	if dst.prev == src {
		dst.ptr = src.ptr
		dst.prev = src.prev
		if dst.prev != nil {
			dst.prev.next = dst
		}
	} else {
		dst.next = src.next
		if dst.next != nil {
			dst.next.prev = dst
		}
	}
	dst.size += src.size
	n := src.size
	a.recycle(src)
	return n
}

// BlockSize returns the size of the allocated block at ptr, or 0 when no
// block is allocated there.
func (a *Allocator) BlockSize(ptr int64) int64 {
	if b := a.active.get(ptr); b != nil && b.allocated {
		return b.size
	}
	return 0
}

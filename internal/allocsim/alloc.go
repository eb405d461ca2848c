package allocsim

import (
	"errors"
	"fmt"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// ErrOOM is returned by Malloc when PyTorch would raise
// torch.OutOfMemoryError.
var ErrOOM = errors.New("CUDA out of memory")

// Event is one allocator trace entry, as record_trace would write it.
type Event struct {
	Action snapshot.Action
	Addr   int64 // device free bytes for ActionOOM
	Size   int64
	Stream int64
}

// Allocator is one device's caching allocator.
type Allocator struct {
	cfg    Config
	dev    Device
	large  *blockPool
	small  *blockPool
	active addrTable // allocated blocks and blocks awaiting events, by address
	// untracked: the caller keeps its own handle on every allocated block
	// (Simulate does, by request ID) and active stays empty, which saves
	// two hash-map operations a request; Free, RecordStream, tagOf and
	// Segments, which look blocks up by address, are then unavailable.
	untracked bool
	// last is the block the latest Malloc handed out.
	last    *block
	pending []*block // blocks with outstanding stream events, FIFO
	segs    []*expSegment
	stats   Stats
	// totalAllocated is total_allocated_memory: bytes obtained from the
	// device, mapped pages included.
	totalAllocated int64
	// allowed is allowed_memory_maximum; 0 when no fraction below 1 is set.
	allowed int64
	// OnEvent, if set, receives every trace entry the allocator records.
	OnEvent func(Event)
	// checker, when set, is the replay that checks every entry against
	// its trace: called directly, before OnEvent, as it runs for every
	// event of a replay.
	checker *replayer
	// nextTag is stamped on the next allocated block; see tagOf.
	nextTag int32
	// nextPool is the MempoolId the next Malloc allocates from; (0, 0) is
	// the default pool. See SetPool.
	nextPool [2]int64
	// private holds the PrivatePools by MempoolId.
	private map[[2]int64]*privatePool
	// spare holds dead block structs for reuse: a replay splits and merges
	// blocks millions of times.
	spare []*block
	// cloneSlab holds a clone's blocks, and cloneOrig the blocks they copy,
	// for the next clone to reuse when this one is dropped (cloneInto).
	cloneSlab []block
	cloneOrig []*block
}

// newBlock returns a block struct for the caller to fill: a spare one
// when there is one. Its fields hold garbage (the caller assigns the whole
// struct), so the struct is written once instead of zeroed first.
func (a *Allocator) newBlock() *block {
	if n := len(a.spare); n > 0 {
		b := a.spare[n-1]
		a.spare = a.spare[:n-1]
		return b
	}
	return new(block)
}

func (a *Allocator) recycle(b *block) {
	b.prev, b.next, b.pool, b.seg, b.streamUses = nil, nil, nil, nil, nil
	a.spare = append(a.spare, b)
}

// New returns an allocator with configuration cfg over device dev.
func New(cfg Config, dev Device) *Allocator {
	a := &Allocator{
		cfg:   cfg,
		dev:   dev,
		large: newPool(false),
		small: newPool(true),
	}
	a.stats.MaxSplitSize = -1
	if cfg.MaxSplitSize != Unlimited {
		a.stats.MaxSplitSize = cfg.MaxSplitSize
	}
	a.SetMemoryFraction(cfg.MemoryFraction)
	return a
}

// SetMemoryFraction is torch.cuda.set_per_process_memory_fraction: a
// fraction below 1 caps reserved memory at f × totalGlobalMem.
func (a *Allocator) SetMemoryFraction(f float64) {
	a.cfg.MemoryFraction = f
	a.allowed = 0
	if f < 1 {
		a.allowed = int64(f * float64(a.dev.Total()))
	}
}

// Config returns the allocator's configuration.
func (a *Allocator) Config() Config { return a.cfg }

// Stats returns a copy of the counters of memory_stats().
func (a *Allocator) Stats() Stats { return a.stats }

// record gives an event the allocator did to the replay checking it, or
// to OnEvent.
func (a *Allocator) record(act snapshot.Action, addr, size, stream int64) {
	if a.checker != nil || a.OnEvent != nil {
		a.emit(act, addr, size, stream)
	}
}

// emit is record's delivery, out of line: one call per event, with the
// replay's common case (the event is the trace's next) decided here.
func (a *Allocator) emit(act snapshot.Action, addr, size, stream int64) {
	if r := a.checker; r != nil {
		// observe's decision when nothing has diverged, nothing was
		// matched out of order and the event is the trace's next one.
		if i := r.cur; i < len(r.tr) && len(r.skip) == 0 && r.res.DivergedAt < 0 && matchAt(&r.tr[i], act, addr, size) {
			r.cur++
		} else {
			r.observe(Event{act, addr, size, stream})
		}
	}
	if a.OnEvent != nil {
		a.OnEvent(Event{act, addr, size, stream})
	}
}

func (a *Allocator) gcActive() bool { return a.allowed > 0 && a.cfg.GCThreshold > 0 }

// Malloc allocates size bytes on stream, as DeviceCachingAllocator::malloc.
// The error wraps ErrOOM when PyTorch would raise OutOfMemoryError.
func (a *Allocator) Malloc(size, stream int64) (int64, error) {
	if size < 0 {
		return 0, fmt.Errorf("allocsim: negative size %d", size)
	}
	if size >= 1<<60 {
		return 0, fmt.Errorf("%w: tried to allocate more than 1EB memory", ErrOOM)
	}
	rounded := a.cfg.RoundSize(size)
	small, large := a.pools(a.nextPool)
	pool := large
	if rounded <= SmallSize {
		pool = small
	}
	allocSize := a.cfg.AllocationSize(rounded)
	b, at := a.getFreeBlock(pool, rounded, stream)
	if b == nil {
		if a.gcActive() {
			a.garbageCollect()
		}
		b = a.allocBlock(pool, rounded, allocSize, stream, false)
		if b == nil && a.releaseAvailableCachedBlocks(pool, rounded, stream) {
			b = a.allocBlock(pool, rounded, allocSize, stream, false)
		}
		if b == nil {
			a.releaseCachedBlocks()
			b = a.allocBlock(pool, rounded, allocSize, stream, true)
		}
	}
	if b == nil {
		a.stats.NumOOMs++
		free := a.dev.FreeMemory()
		a.record(snapshot.ActionOOM, free, rounded, stream)
		return 0, fmt.Errorf("%w: tried to allocate %d bytes (%d reserved, %d allocated, %d free on the device)",
			ErrOOM, allocSize, a.stats.ReservedBytes.All.Current, a.stats.AllocatedBytes.All.Current, free)
	}
	return a.allocFoundBlock(b, at, rounded, size), nil
}

// getFreeBlock is get_free_block: the best-fitting cached block of the
// same stream, or nil. The block stays in the pool's set, at index at,
// until allocFoundBlock takes it out: when it splits the block, the
// remainder takes the block's place there with one short move.
func (a *Allocator) getFreeBlock(pool *blockPool, size, stream int64) (b *block, at int) {
	if a.gcActive() {
		pool.getFreeBlocksCalls++
	}
	set := &pool.blocks
	if 2*set.dead > set.len()+64 {
		set.compact()
	}
	i := set.next(set.lowerBound(stream, size, 0))
	n := set.len()
	if i == n || set.items[i].stream != stream {
		return nil, -1
	}
	if set.items[i].seg != nil {
		if a.cfg.Expandable {
			// Count a block's growable tail as part of its size, so holes
			// inside a segment win over the end of it.
			for j := set.next(i + 1); set.items[i].seg != nil && j < n && set.items[j].stream == stream &&
				expandableSize(set.items[j]) < expandableSize(set.items[i]); j = set.next(j + 1) {
				i = j
			}
		} else {
			for i = set.next(i + 1); i < n && set.items[i].seg != nil && set.items[i].stream == stream; i = set.next(i + 1) {
			}
			if i == n || set.items[i].stream != stream {
				return nil, -1
			}
		}
	}
	b = set.items[i]
	if size < a.cfg.MaxSplitSize && b.size >= a.cfg.MaxSplitSize {
		return nil, -1
	}
	if size >= a.cfg.MaxSplitSize && b.size >= size+a.cfg.MaxNonSplitRounding {
		return nil, -1
	}
	return b, i
}

func expandableSize(b *block) int64 {
	if b.next != nil && !b.next.mapped {
		return b.size + b.next.size
	}
	return b.size
}

// allocBlock is alloc_block: a new segment (or mapped pages) for the
// request, or nil when the device refuses.
func (a *Allocator) allocBlock(pool *blockPool, size, allocSize, stream int64, retry bool) *block {
	if retry {
		a.stats.NumAllocRetries++
	}
	if a.allowed > 0 && a.totalAllocated+allocSize > a.allowed {
		return nil
	}
	if a.cfg.Expandable && !pool.private {
		return a.tryAllocateExpandable(pool, size, stream)
	}
	ptr, ok := a.dev.Malloc(allocSize, stream)
	if !ok {
		return nil
	}
	a.totalAllocated += allocSize
	b := a.newBlock()
	*b = block{ptr: ptr, size: allocSize, stream: stream, pool: pool, mapped: true}
	a.stats.Segment.increase(pool.isSmall, 1)
	a.stats.ReservedBytes.increase(pool.isSmall, allocSize)
	if allocSize >= a.cfg.MaxSplitSize {
		a.stats.OversizeSegments.increase(1)
	}
	a.stats.NumDeviceAlloc++
	a.record(snapshot.ActionSegmentAlloc, ptr, allocSize, stream)
	return b
}

func (a *Allocator) shouldSplit(b *block, size int64) bool {
	remaining := b.size - size
	if b.pool.isSmall || a.cfg.Expandable {
		return remaining >= MinBlockSize
	}
	return size < a.cfg.MaxSplitSize && remaining > SmallSize
}

// allocFoundBlock is alloc_found_block: carve the request from the front
// of b and account for it. at is b's index in its pool's free set, or -1
// when b is not in it (a new segment).
func (a *Allocator) allocFoundBlock(b *block, at int, size, orig int64) int64 {
	pool := b.pool
	small := pool.isSmall
	alreadySplit := b.isSplit()
	if a.shouldSplit(b, size) {
		remaining := b
		b = a.newBlock()
		*b = block{ptr: remaining.ptr, size: size, stream: remaining.stream, pool: pool,
			mapped: true, seg: remaining.seg, prev: remaining.prev, next: remaining}
		if b.prev != nil {
			b.prev.next = b
		}
		remaining.prev = b
		remaining.ptr += size
		remaining.size -= size
		if at >= 0 {
			pool.replaceFree(at, remaining)
		} else {
			pool.insertFree(remaining)
		}
		if b.seg == nil {
			if alreadySplit {
				a.stats.InactiveSplitBytes.decrease(small, size)
			} else {
				a.stats.InactiveSplitBytes.increase(small, remaining.size)
				a.stats.InactiveSplit.increase(small, 1)
			}
		}
	} else {
		if at >= 0 {
			pool.blocks.eraseAt(at)
		}
		if alreadySplit && b.seg == nil {
			a.stats.InactiveSplitBytes.decrease(small, b.size)
			a.stats.InactiveSplit.decrease(small, 1)
		}
	}
	b.allocated = true
	b.requested = orig
	b.tag = a.nextTag
	a.last = b
	if !a.untracked {
		a.active.put(b.ptr, b)
	}
	a.record(snapshot.ActionAlloc, b.ptr, orig, b.stream)
	a.stats.Allocation.increase(small, 1)
	a.stats.AllocatedBytes.increase(small, b.size)
	a.stats.Active.increase(small, 1)
	a.stats.ActiveBytes.increase(small, b.size)
	a.stats.RequestedBytes.increase(small, orig)
	if b.size >= a.cfg.MaxSplitSize {
		a.stats.OversizeAllocations.increase(1)
	}
	return b.ptr
}

// tagOf returns the tag of the allocated (or pending) block at ptr: Replay
// names allocations by request ID this way instead of keeping a second map
// keyed by address.
func (a *Allocator) tagOf(ptr int64) (int32, bool) {
	b := a.active.get(ptr)
	if b == nil {
		return 0, false
	}
	return b.tag, true
}

// privatePool is a PrivatePool: the small and large pools of one MempoolId,
// used by CUDA graph capture and torch.cuda.MemPool.
type privatePool struct {
	small, large *blockPool
}

// SetPool makes the following Mallocs allocate from the private pool id
// ((0, 0), the default, ends that), as beginAllocateToPool does for a
// graph capture or a MemPool context.
func (a *Allocator) SetPool(id [2]int64) { a.nextPool = id }

// pools returns the small and large pool of MempoolId id.
func (a *Allocator) pools(id [2]int64) (small, large *blockPool) {
	if id == [2]int64{} {
		return a.small, a.large
	}
	p := a.private[id]
	if p == nil {
		if a.private == nil {
			a.private = map[[2]int64]*privatePool{}
		}
		p = &privatePool{small: newPool(true), large: newPool(false)}
		p.small.private, p.large.private = true, true
		p.small.id, p.large.id = id, id
		a.private[id] = p
	}
	return p.small, p.large
}

// allPools lists every block pool: the default large and small pools, then
// the private ones.
func (a *Allocator) allPools() []*blockPool {
	out := []*blockPool{a.large, a.small}
	for _, p := range a.private {
		out = append(out, p.small, p.large)
	}
	return out
}

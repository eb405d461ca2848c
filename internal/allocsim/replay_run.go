package allocsim

import (
	"errors"
	"runtime/trace"

	"github.com/vramkit/vramkit/internal/snapshot"
)

func isRequest(a snapshot.Action) bool {
	return a == snapshot.ActionAlloc || a == snapshot.ActionFreeRequested || a == snapshot.ActionOOM
}

// run walks the trace request by request. The events between two requests
// are what the allocator did inside the second one (stream events
// completing, segments released, a segment allocated) or, when no request
// explains them, an empty_cache() call in between.
func (r *replayer) run() {
	for !r.failed() && !r.hazard {
		if r.steps&checkEvery == 0 {
			if err := r.ctx.Err(); err != nil {
				r.stopped = err
				return
			}
		}
		r.steps++
		if r.pub != nil && len(r.res.Requests) >= r.pubN+publishRequests {
			r.pubN = len(r.res.Requests)
			r.pub.publish(r.res.Requests, r.tr, false, true)
		}
		start := r.peek()
		for start >= len(r.tr) && r.more() {
			start = r.peek()
		}
		if start >= len(r.tr) {
			return
		}
		k := start
		hasRelease := false
		for {
			for k < len(r.tr) && !isRequest(r.tr[k].Action) {
				switch r.tr[k].Action {
				case snapshot.ActionSegmentFree, snapshot.ActionSegmentUnmap:
					hasRelease = true
				}
				k++
			}
			if k < len(r.tr) || !r.more() {
				break
			}
		}
		if r.stopped != nil {
			return
		}
		n := len(r.tr)
		if k < n && r.tr[k].Action == snapshot.ActionFreeRequested {
			r.await(k + 1) // free looks at the event after its request
			n = len(r.tr)
		}
		if k == n { // events after the last request: an empty_cache()
			r.emptyCache(k)
			if !r.failed() && r.peek() < n {
				r.diverge(r.peek(), "trace ends with %s, which no request explains", describeT(&r.tr[r.peek()]))
			}
			r.observeAfter(n - 1)
			return
		}
		t := &r.tr[k]
		switch t.Action {
		case snapshot.ActionFreeRequested:
			if start < k {
				r.emptyCache(k)
			}
			r.free(k)
		case snapshot.ActionAlloc, snapshot.ActionOOM:
			r.mallocGroup(start, k, hasRelease)
		}
		r.observeAfter(k)
	}
}

// more waits for more of a fed trace; false when there is no more (or the
// feed was abandoned: stopped says so).
func (r *replayer) more() bool {
	if r.done || r.stopped != nil {
		return false
	}
	reg := trace.StartRegion(r.ctx, "replay: wait for feed")
	v, ok := r.feed.Next(len(r.tr))
	reg.End()
	if !ok {
		r.stopped = errAbandoned
		return false
	}
	r.tr, r.tags, r.stacks, r.done = v.Events, v.Tags, v.Stacks, v.Done
	return true
}

// await waits until the trace holds its first event from j on that is
// not a snapshot marker, or is whole.
func (r *replayer) await(j int) {
	for {
		for j < len(r.tr) && r.tr[j].Action == snapshot.ActionSnapshot {
			j++
		}
		if j < len(r.tr) || !r.more() {
			return
		}
	}
}

// in reports whether trace index i exists, outside run's own waiting: on
// a fed trace not yet whole, an index past its end is a hazard.
func (r *replayer) in(i int) bool {
	if i < len(r.tr) {
		return true
	}
	if !r.done {
		r.hazard = true
	}
	return false
}

// isFramed is framed, found by the first allocation of the trace.
func (r *replayer) isFramed() bool {
	for !r.framedKnown {
		if !r.in(r.framedAt) {
			r.framedKnown = true
			break
		}
		if e := &r.tr[r.framedAt]; e.Action == snapshot.ActionAlloc {
			r.framed, r.framedKnown = e.Stack != 0, true
		}
		r.framedAt++
	}
	return r.framed
}

// observeAfter reports the state after trace event k to the caller's
// observer, once the replay has settled on an explanation of it.
func (r *replayer) observeAfter(k int) {
	if r.failed() {
		return
	}
	if r.sampler != nil {
		r.sampler.after(k, r.a, r.out)
	}
	if e := &r.tr[k]; e.Action == snapshot.ActionOOM && r.out != nil {
		st := &r.a.stats
		r.out.OOMs = append(r.out.OOMs, OOMRecord{Event: k, Size: int64(e.Size), DeviceFree: int64(e.DeviceFree()),
			Reserved: st.ReservedBytes.All.Current, Allocated: st.AllocatedBytes.All.Current})
	}
}

func (r *replayer) emptyCache(at int) {
	r.a.EmptyCache()
	r.res.EmptyCacheCalls++
	r.request(Request{Kind: ReqEmptyCache, Event: int32(at)})
}

// completeLeading applies the free_completed events at the front of a
// group: stream events that process_events found done.
func (r *replayer) completeLeading(start, k int) {
	for i := start; i < k && !r.failed(); i++ {
		e := &r.tr[i]
		if e.Action == snapshot.ActionSnapshot {
			continue
		}
		if e.Action != snapshot.ActionFreeCompleted {
			return
		}
		if i < r.peek() {
			continue
		}
		id, _ := r.a.tagOf(int64(e.Addr))
		if !r.a.CompleteEvents(int64(e.Addr)) {
			r.diverge(i, "free_completed for %#x, which is not waiting on stream events", e.Addr)
			return
		}
		r.request(Request{Kind: ReqComplete, ID: id, Event: int32(i)})
	}
}

// releasesLookLikeEmptyCache tells the two explanations of releases before
// a malloc apart by their stacks, when the trace has stacks: releases made
// inside malloc carry that malloc's own stack, while empty_cache()'s carry
// the released segment's allocation stack, none, or (context "all") one
// through empty_cache.
func (r *replayer) releasesLookLikeEmptyCache(start, k int) bool {
	if !r.isFramed() {
		return false
	}
	own := r.tr[k].Stack
	for i := start; i < k; i++ {
		e := &r.tr[i]
		if e.Action != snapshot.ActionSegmentFree && e.Action != snapshot.ActionSegmentUnmap {
			continue
		}
		if r.emptyCacheStack != nil && e.Stack != 0 && r.emptyCacheStack(e.Stack) {
			return true
		}
		return own == 0 || e.Stack != own
	}
	return false
}

// cudaMallocCouldNotFail: the request's new segment would leave reserved
// memory no higher than it has already been, without a memory fraction in
// the way, so a failed cudaMalloc (and the retry that follows one) is the
// less likely story; an empty_cache() before the malloc is the likelier.
func (r *replayer) cudaMallocCouldNotFail(k int) bool {
	if r.a.allowed > 0 || r.tr[k].Action != snapshot.ActionAlloc {
		return false
	}
	st := r.a.Stats()
	cfg := &r.a.cfg
	need := cfg.AllocationSize(cfg.RoundSize(int64(r.tr[k].Size)))
	return st.ReservedBytes.All.Current+need <= st.ReservedBytes.All.Peak
}

type replayState struct {
	cur          int
	skip         map[int]bool
	next         int32
	nreq, nempty int
	peak         CacheState
}

func (r *replayer) save() replayState {
	return replayState{cur: r.cur, skip: copySkip(r.skip), next: r.next,
		nreq: len(r.res.Requests), nempty: r.res.EmptyCacheCalls, peak: r.res.AtPeakReserved}
}

func (r *replayer) restore(a *Allocator, st replayState) {
	a.checker = r
	a.dev = &traceDevice{r}
	r.a = a
	r.cur, r.skip, r.next = st.cur, st.skip, st.next
	r.res.Requests = r.res.Requests[:st.nreq]
	r.res.EmptyCacheCalls = st.nempty
	r.res.AtPeakReserved = st.peak
	r.res.DivergedAt, r.res.FirstDivergence = -1, ""
}

// mallocGroup replays the request at k and the events before it. When the
// events include releases, two explanations exist — the malloc's own
// out-of-memory ladder, or an empty_cache() just before — and the one the
// trace bears out is kept.
func (r *replayer) mallocGroup(start, k int, hasRelease bool) {
	if !hasRelease {
		r.completeLeading(start, k)
		r.malloc(k)
		return
	}
	emptyFirst := r.releasesLookLikeEmptyCache(start, k) || r.cudaMallocCouldNotFail(k)
	// The state before the group, for the second explanation; when the
	// first holds, the next group's copy reuses its memory.
	saved := r.a.cloneInto(r.dropped)
	r.dropped = nil
	if emptyFirst {
		st := r.save()
		r.emptyCache(start)
		r.malloc(k)
		if !r.failed() {
			r.dropped = saved
			return
		}
		r.restore(saved, st)
		r.completeLeading(start, k)
		r.malloc(k)
		return
	}
	st := r.save()
	r.completeLeading(start, k)
	r.malloc(k)
	if !r.failed() {
		r.dropped = saved
		return
	}
	first := *r.res
	// Second explanation: empty_cache(), then the malloc.
	r.restore(saved, st)
	r.emptyCache(start)
	r.malloc(k)
	if r.failed() {
		// Report the first explanation's mismatch: it is the usual one.
		r.res.DivergedAt, r.res.FirstDivergence = first.DivergedAt, first.FirstDivergence
	}
}

func copySkip(m map[int]bool) map[int]bool {
	c := make(map[int]bool, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func (r *replayer) malloc(k int) {
	if r.failed() {
		return
	}
	t := &r.tr[k]
	size := int64(t.Size)
	var stream int64
	if tag := t.Tag(); int(tag) < len(r.tags) {
		stream = int64(r.tags[tag].Stream)
	}
	id := r.next
	r.next++
	var pool [2]int64
	if r.poolOf != nil {
		pool = r.poolOf[k]
	}
	if r.keep { // the request is built only to be kept
		r.request(Request{Kind: ReqAlloc, ID: id, Stream: stream, Size: size, Event: int32(k), Pool: r.poolNumber(pool)})
	}
	if size == 0 && t.Action == snapshot.ActionAlloc {
		r.diverge(k, "alloc of 0 bytes: PyTorch never traces these")
		return
	}
	if size < 0 {
		// a size past 2^63 bytes: no device has it, and the allocator
		// would refuse it without moving the replay on
		r.diverge(k, "request of %d bytes (past 2^63): not a real allocation", t.Size)
		return
	}
	r.a.nextTag = id
	r.a.SetPool(pool)
	_, err := r.a.Malloc(size, stream)
	switch {
	case r.failed():
	case t.Action == snapshot.ActionOOM && err == nil:
		r.diverge(k, "trace has an out-of-memory error for %d bytes; the simulator found room", size)
	case t.Action == snapshot.ActionAlloc && err != nil:
		if errors.Is(err, ErrOOM) {
			r.diverge(k, "trace allocates %d bytes; the simulator ran out of memory", size)
		} else {
			r.diverge(k, "trace allocates %d bytes; the simulator refused: %v", size, err)
		}
	case err != nil && !errors.Is(err, ErrOOM):
		r.diverge(k, "trace runs out of memory for %d bytes; the simulator refused the request: %v", size, err)
	case err == nil:
		if r.keep {
			r.res.Requests[len(r.res.Requests)-1].Block = r.a.last.size
		}
		// Reserved memory only grows inside a malloc, so checking here
		// catches every new peak; there are few (one per new segment on
		// the way up), so the scan of the free blocks costs nothing.
		if res := r.a.stats.ReservedBytes.All.Current; res > r.res.AtPeakReserved.Reserved {
			r.res.AtPeakReserved = CacheState{Event: k, Request: len(r.res.Requests) - 1, Reserved: res,
				Allocated: r.a.stats.AllocatedBytes.All.Current, LargestFree: r.a.LargestFreeBlock()}
		}
	}
}

// poolNumber is Request.Pool for MempoolId id: the order in which the
// trace first used it.
func (r *replayer) poolNumber(id [2]int64) int32 {
	if id == [2]int64{} {
		return 0
	}
	n, ok := r.poolNums[id]
	if !ok {
		if r.poolNums == nil {
			r.poolNums = map[[2]int64]int32{}
		}
		n = int32(len(r.poolNums) + 1)
		r.poolNums[id] = n
	}
	return n
}

// free replays a free_requested. If the trace does not complete the free
// right away, the block was used on another stream (record_stream) and its
// memory waits for that stream's events.
func (r *replayer) free(k int) {
	t := &r.tr[k]
	ptr := int64(t.Addr)
	j := k + 1
	for r.in(j) && r.tr[j].Action == snapshot.ActionSnapshot {
		j++
	}
	immediate := r.in(j) && r.tr[j].Action == snapshot.ActionFreeCompleted && r.tr[j].Addr == t.Addr
	b := r.a.active.get(ptr)
	if b == nil || !b.allocated {
		r.diverge(k, "free of %#x, which the trace never allocated (history started late or the ring buffer overflowed)", ptr)
		return
	}
	if !immediate {
		b.recordStream(-1)
	}
	if r.keep {
		r.request(Request{Kind: ReqFree, ID: b.tag, Deferred: !immediate, Event: int32(k)})
	}
	r.a.free(b)
}

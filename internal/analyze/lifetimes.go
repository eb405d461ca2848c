package analyze

import (
	"sort"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// life is one allocation of the trace, with the request indices that
// bound its lifetime. Request indices are the time axis of the analysis:
// they are dense and every change of allocated bytes happens at one.
type life struct {
	alloc int32 // request index of the allocation
	free  int32 // request index of the free, or never
	size  int64 // requested bytes
	block int64 // bytes the allocator handed out (allocated_bytes counts these)
	stack snapshot.StackID
	phase phase // phase label from frames (phUnknown without frames)
}

const never = int32(1<<31 - 1)

// timeline is the allocation history of one device on the request axis.
// It holds one int64 per request and one life per allocation, nothing
// more: on a trace of tens of millions of events every per-request byte
// counts (the ≥ 1 GiB benchmark has ~20 M requests).
type timeline struct {
	reqs  []allocsim.Request
	trace []snapshot.TraceEvent
	lives []life // in allocation order, so lives[k].alloc increases
	// lifeOf maps an allocation ID to its life (-1: none): the replay
	// numbers allocations 0, 1, 2, … in request order.
	lifeOf []int32
	// level[i] is allocated bytes after request i.
	level []int64
	// resPeak is the first request after which reserved memory is
	// highest, and resPeakBytes that memory: the replay notes both when
	// they happen (a reproduced trace's segment events up to each request
	// add up to the simulator's reserved bytes there).
	resPeak      int
	resPeakBytes int64
}

// buildTimeline walks the replay's request stream once. Allocated bytes
// use the block sizes of the exact replay, so the curve's maximum is
// memory_stats()'s allocated_bytes.all.peak to the byte; peak is the
// replay's cache at peak reserved memory.
func buildTimeline(reqs []allocsim.Request, trace []snapshot.TraceEvent, peak allocsim.CacheState, advise func(slice any)) *timeline {
	nalloc := 0
	for i := range reqs {
		if reqs[i].Kind == allocsim.ReqAlloc {
			nalloc++
		}
	}
	t := &timeline{reqs: reqs, trace: trace, level: make([]int64, len(reqs)), lives: make([]life, 0, nalloc),
		resPeak: max(peak.Request, 0), resPeakBytes: peak.Reserved}
	// The replay numbers allocations 0, 1, 2, … in request order, so a
	// slice indexed by ID maps them to lives without a hash map.
	lifeOf := make([]int32, nalloc)
	t.lifeOf = lifeOf
	if advise != nil {
		advise(t.level)
		advise(t.lives)
	}
	var cur int64
	for i := range reqs {
		r := &reqs[i]
		switch r.Kind {
		case allocsim.ReqAlloc:
			if int(r.ID) >= len(lifeOf) {
				break // not numbered as expected: leave it out rather than guess
			}
			lifeOf[r.ID] = -1
			if r.Block > 0 {
				var st snapshot.StackID
				if int(r.Event) < len(trace) {
					st = trace[r.Event].Stack
				}
				lifeOf[r.ID] = int32(len(t.lives))
				t.lives = append(t.lives, life{alloc: int32(i), free: never, size: r.Size, block: r.Block, stack: st})
				cur += r.Block
			}
		case allocsim.ReqFree:
			if int(r.ID) < len(lifeOf) {
				if k := lifeOf[r.ID]; k >= 0 && t.lives[k].free == never {
					t.lives[k].free = int32(i)
					cur -= t.lives[k].block
				}
			}
		}
		t.level[i] = cur
	}
	return t
}

// reservedDelta is how a trace event changes reserved memory.
func reservedDelta(e *snapshot.TraceEvent) int64 {
	switch e.Action {
	case snapshot.ActionSegmentAlloc, snapshot.ActionSegmentMap:
		return int64(e.Size)
	case snapshot.ActionSegmentFree, snapshot.ActionSegmentUnmap:
		return -int64(e.Size)
	}
	return 0
}

// reservedAt is reserved memory after request i. It rescans the trace:
// it is asked for once or twice per analysis (at an OOM), which is
// cheaper than a second int64 per request.
func (t *timeline) reservedAt(i int) int64 {
	var res int64
	for ev := 0; ev <= int(t.reqs[i].Event) && ev < len(t.trace); ev++ {
		res += reservedDelta(&t.trace[ev])
	}
	return res
}

// freedAt returns the life request i frees, or -1.
func (t *timeline) freedAt(i int) int {
	r := &t.reqs[i]
	if r.Kind != allocsim.ReqFree || int(r.ID) >= len(t.lifeOf) || r.ID < 0 {
		return -1
	}
	if k := t.lifeOf[r.ID]; k >= 0 && int(t.lives[k].free) == i {
		return int(k)
	}
	return -1
}

// lifeRange returns the lives allocated at requests in [lo, hi): lives
// are in allocation order, so they are a contiguous run.
func (t *timeline) lifeRange(lo, hi int) (int, int) {
	a := sort.Search(len(t.lives), func(k int) bool { return int(t.lives[k].alloc) >= lo })
	b := sort.Search(len(t.lives), func(k int) bool { return int(t.lives[k].alloc) >= hi })
	return a, b
}

// argmax returns the first request index in [lo, hi) with the highest
// allocated level, or lo when the range is empty.
func (t *timeline) argmax(lo, hi int) int {
	best := lo
	for i := lo; i < hi; i++ {
		if t.level[i] > t.level[best] {
			best = i
		}
	}
	return best
}

// liveAt lists the lives allocated at or before request i and not yet
// freed after it.
func (t *timeline) liveAt(i int) []int {
	var out []int
	for k := range t.lives {
		l := &t.lives[k]
		if int(l.alloc) > i {
			break
		}
		if int(l.free) > i {
			out = append(out, k)
		}
	}
	return out
}

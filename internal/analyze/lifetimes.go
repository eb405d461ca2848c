package analyze

import (
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
type timeline struct {
	reqs  []allocsim.Request
	lives []life
	// level[i] is allocated bytes after request i.
	level []int64
	// reserved[i] is reserved bytes after request i (segments the trace
	// shows being allocated or mapped up to that request's event).
	reserved []int64
	// byReq maps a request index to its life index for allocations, -1
	// otherwise.
	byReq []int32
}

// buildTimeline walks the replay's request stream once. Allocated bytes
// use the block sizes of the exact replay, so the curve's maximum is
// memory_stats()'s allocated_bytes.all.peak to the byte.
func buildTimeline(reqs []allocsim.Request, trace []snapshot.TraceEvent) *timeline {
	t := &timeline{reqs: reqs, level: make([]int64, len(reqs)), reserved: make([]int64, len(reqs)),
		byReq: make([]int32, len(reqs))}
	idx := make(map[int32]int32, 1024) // allocation ID -> life index
	var cur, res int64
	ev := 0
	for i := range reqs {
		r := &reqs[i]
		// Segment events up to this request's trace event change reserved.
		for ; ev <= int(r.Event) && ev < len(trace); ev++ {
			switch e := &trace[ev]; e.Action {
			case snapshot.ActionSegmentAlloc, snapshot.ActionSegmentMap:
				res += int64(e.Size)
			case snapshot.ActionSegmentFree, snapshot.ActionSegmentUnmap:
				res -= int64(e.Size)
			}
		}
		t.byReq[i] = -1
		switch r.Kind {
		case allocsim.ReqAlloc:
			if r.Block > 0 {
				var st snapshot.StackID
				if int(r.Event) < len(trace) {
					st = trace[r.Event].Stack
				}
				idx[r.ID] = int32(len(t.lives))
				t.byReq[i] = int32(len(t.lives))
				t.lives = append(t.lives, life{alloc: int32(i), free: never, size: r.Size, block: r.Block, stack: st})
				cur += r.Block
			}
		case allocsim.ReqFree:
			if k, ok := idx[r.ID]; ok {
				t.lives[k].free = int32(i)
				cur -= t.lives[k].block
				delete(idx, r.ID)
			}
		}
		t.level[i] = cur
		t.reserved[i] = res
	}
	return t
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

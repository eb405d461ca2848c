package report

import (
	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// Bucket is one point of a downsampled memory timeline: the requests
// [First, Last] of the replay, with the extremes of allocated and reserved
// bytes over them, so a peak survives any amount of downsampling.
type Bucket struct {
	First, Last    int   // request indices
	TimeUS         int64 // trace time of the bucket's first request, µs
	AllocMin       int64 // bytes
	AllocMax       int64 // bytes
	ResMin, ResMax int64 // bytes
	// Trace times (µs) at which each extreme was first reached, so an
	// export can replay the envelope in the order it happened.
	AllocMinUS, AllocMaxUS, ResMinUS, ResMaxUS int64
	// Big is the trace index of the bucket's largest allocation (-1: none),
	// so hovering a bucket can name an allocation and its stack.
	Big int
}

// Timeline is a device's allocated and reserved memory over its trace,
// as the allocator simulator saw them, and the allocator's state at peak
// reserved.
type Timeline struct {
	Device  int
	StartUS int64 // trace time of the first event, µs
	EndUS   int64 // trace time of the last event, µs
	Buckets []Bucket
	// PeakAllocated and PeakReserved are the maxima, in bytes; the trace
	// indices say when they were first reached.
	PeakAllocated, PeakReserved     int64
	PeakAllocatedAt, PeakReservedAt int
	// PeakState is the allocator's state when reserved memory peaked;
	// PeakStacks gives, per segment and block, the trace index of the
	// allocation a block holds (-1 when free).
	PeakState  []allocsim.SegmentState
	PeakBlocks [][]int
}

// BuildTimeline replays a device's request stream (from allocsim's replay
// of the recorded trace) and samples allocated and reserved memory after
// every request into at most maxBuckets buckets.
//
// It runs its own copy of allocsim.Simulate's request loop rather than
// hooking the trace replay: the loop is ten times cheaper than the replay,
// and it knows which request each live pointer came from, which the state
// view needs to show a block's stack.
func BuildTimeline(s *snapshot.Snapshot, d allocsim.DeviceReplay, maxBuckets int) *Timeline {
	trace := s.Trace(d.Device)
	reqs := d.Result.Requests
	tl := &Timeline{Device: d.Device, PeakAllocatedAt: -1, PeakReservedAt: -1}
	if len(trace) > 0 {
		tl.StartUS, tl.EndUS = trace[0].TimeUS, trace[len(trace)-1].TimeUS
	}
	if maxBuckets < 1 {
		maxBuckets = 1
	}
	per := (len(reqs) + maxBuckets - 1) / maxBuckets
	if per < 1 {
		per = 1
	}
	a := allocsim.New(d.Config, allocsim.NewDevice(0))
	ptrs := make(map[int32]int64, 1024)   // allocation ID -> pointer
	origin := make(map[int64]int32, 1024) // live pointer -> trace index of its alloc
	var cur *Bucket
	for i, r := range reqs {
		switch r.Kind {
		case allocsim.ReqAlloc:
			if r.Size == 0 {
				break
			}
			p, err := a.Malloc(r.Size, r.Stream)
			if err != nil {
				break // the recorded OOM: the program caught it or died here
			}
			ptrs[r.ID] = p
			origin[p] = r.Event
		case allocsim.ReqFree:
			p, ok := ptrs[r.ID]
			if !ok {
				break
			}
			if r.Deferred {
				_ = a.RecordStream(p, -1)
			}
			_ = a.Free(p)
			if !r.Deferred {
				delete(ptrs, r.ID)
				delete(origin, p)
			}
		case allocsim.ReqComplete:
			if p, ok := ptrs[r.ID]; ok {
				a.CompleteEvents(p)
				delete(ptrs, r.ID)
				delete(origin, p)
			}
		case allocsim.ReqEmptyCache:
			a.EmptyCache()
		}
		st := a.Stats()
		al, rs := st.AllocatedBytes.All.Current, st.ReservedBytes.All.Current
		t := trace[r.Event].TimeUS
		if i%per == 0 {
			tl.Buckets = append(tl.Buckets, Bucket{First: i, TimeUS: t, AllocMin: al, AllocMax: al, ResMin: rs, ResMax: rs,
				AllocMinUS: t, AllocMaxUS: t, ResMinUS: t, ResMaxUS: t, Big: -1})
			cur = &tl.Buckets[len(tl.Buckets)-1]
		}
		cur.Last = i
		if al < cur.AllocMin {
			cur.AllocMin, cur.AllocMinUS = al, t
		}
		if al > cur.AllocMax {
			cur.AllocMax, cur.AllocMaxUS = al, t
		}
		if rs < cur.ResMin {
			cur.ResMin, cur.ResMinUS = rs, t
		}
		if rs > cur.ResMax {
			cur.ResMax, cur.ResMaxUS = rs, t
		}
		if r.Kind == allocsim.ReqAlloc && (cur.Big < 0 || int64(trace[cur.Big].Size) < r.Size) {
			cur.Big = int(r.Event)
		}
		if al > tl.PeakAllocated {
			tl.PeakAllocated, tl.PeakAllocatedAt = al, int(r.Event)
		}
		if rs > tl.PeakReserved {
			// Reserved memory rises only at cudaMalloc, a few hundred times
			// a run, so copying the state at each new high is cheap.
			tl.PeakReserved, tl.PeakReservedAt = rs, int(r.Event)
			tl.PeakState = a.Segments()
			tl.PeakBlocks = blockOrigins(tl.PeakState, origin)
		}
	}
	return tl
}

func blockOrigins(segs []allocsim.SegmentState, origin map[int64]int32) [][]int {
	out := make([][]int, len(segs))
	for i, g := range segs {
		out[i] = make([]int, len(g.Blocks))
		for j, b := range g.Blocks {
			out[i][j] = -1
			if b.Allocated || b.Pending {
				if ev, ok := origin[b.Addr]; ok {
					out[i][j] = int(ev)
				}
			}
		}
	}
	return out
}

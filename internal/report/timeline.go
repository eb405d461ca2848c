package report

import (
	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// Bucket is one point of a downsampled memory timeline: the trace events
// [First, Last], with the extremes of allocated and reserved
// bytes over them, so a peak survives any amount of downsampling.
type Bucket struct {
	First, Last    int   // trace indices
	TimeUS         int64 // trace time of the bucket's first request, µs
	AllocMin       int64 // bytes
	AllocMax       int64 // bytes
	ResMin, ResMax int64 // bytes
	// Trace times (µs) at which each extreme was first reached, so an
	// export can replay the envelope in the order it happened.
	AllocMinUS, AllocMaxUS, ResMinUS, ResMaxUS int64
	// AllocMaxAt is the trace index where AllocMax was reached, where a
	// breakdown by category tops out at the curve.
	AllocMaxAt int
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

// BuildTimeline replays device dev of s with options o (its Observe is
// taken over) and samples allocated and reserved memory after every
// request into at most maxBuckets buckets of equal event counts. It
// returns the replay too, whose request stream the what-ifs reuse, so a
// report replays the trace once.
func BuildTimeline(s *snapshot.Snapshot, dev int, o allocsim.ReplayOptions, maxBuckets int) (*Timeline, allocsim.DeviceReplay) {
	trace := s.Trace(dev)
	tl := &Timeline{Device: dev, PeakAllocatedAt: -1, PeakReservedAt: -1}
	if len(trace) > 0 {
		tl.StartUS, tl.EndUS = trace[0].TimeUS, trace[len(trace)-1].TimeUS
	}
	per := max((len(trace)+max(maxBuckets, 1)-1)/max(maxBuckets, 1), 1)
	// origin maps a block address to the trace index of the latest alloc
	// there: the replay reproduces the recorded addresses, so for a live
	// block that is the allocation it holds.
	origin := make(map[int64]int32, 1024)
	scanned := 0
	var cur *Bucket
	o.Observe = func(k int, a *allocsim.Allocator) {
		for ; scanned <= k; scanned++ {
			if e := &trace[scanned]; e.Action == snapshot.ActionAlloc {
				origin[int64(e.Addr)] = int32(scanned)
			}
		}
		st := a.Stats()
		al, rs := st.AllocatedBytes.All.Current, st.ReservedBytes.All.Current
		t := trace[k].TimeUS
		if cur == nil || k/per != cur.First/per {
			tl.Buckets = append(tl.Buckets, Bucket{First: k, TimeUS: t, AllocMin: al, AllocMax: al, ResMin: rs, ResMax: rs,
				AllocMinUS: t, AllocMaxUS: t, ResMinUS: t, ResMaxUS: t, AllocMaxAt: k, Big: -1})
			cur = &tl.Buckets[len(tl.Buckets)-1]
		}
		cur.Last = k
		if al < cur.AllocMin {
			cur.AllocMin, cur.AllocMinUS = al, t
		}
		if al > cur.AllocMax {
			cur.AllocMax, cur.AllocMaxUS, cur.AllocMaxAt = al, t, k
		}
		if rs < cur.ResMin {
			cur.ResMin, cur.ResMinUS = rs, t
		}
		if rs > cur.ResMax {
			cur.ResMax, cur.ResMaxUS = rs, t
		}
		if trace[k].Action == snapshot.ActionAlloc && (cur.Big < 0 || trace[cur.Big].Size < trace[k].Size) {
			cur.Big = k
		}
		if al > tl.PeakAllocated {
			tl.PeakAllocated, tl.PeakAllocatedAt = al, k
		}
		if rs > tl.PeakReserved {
			// Reserved memory rises only at cudaMalloc, a few hundred times
			// a run, so copying the state at each new high is cheap.
			tl.PeakReserved, tl.PeakReservedAt = rs, k
			tl.PeakState = a.Segments()
			tl.PeakBlocks = blockOrigins(tl.PeakState, origin)
		}
	}
	d := allocsim.ReplayDeviceWith(s, dev, o)
	return tl, d
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

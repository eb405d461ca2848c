package report

import (
	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// Bucket is one point of a downsampled memory timeline (allocsim samples
// it during the replay).
type Bucket = allocsim.Bucket

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

// TimelineOptions are the replay options a timeline of at most maxBuckets
// buckets needs, on top of o.
func TimelineOptions(o allocsim.ReplayOptions, maxBuckets int) allocsim.ReplayOptions {
	o.TimelineBuckets, o.KeepPeakSegments = max(maxBuckets, 1), true
	return o
}

// NewTimeline reads device d's timeline out of its replay, which must have
// been run with TimelineOptions.
func NewTimeline(s *snapshot.Snapshot, d *allocsim.DeviceReplay) *Timeline {
	trace := s.Trace(d.Device)
	tl := &Timeline{Device: d.Device, Buckets: d.Timeline, PeakAllocated: d.PeakAllocated, PeakReserved: d.PeakReserved,
		PeakAllocatedAt: d.PeakAllocatedAt, PeakReservedAt: d.PeakReservedAt, PeakState: d.PeakSegments}
	if len(trace) > 0 {
		tl.StartUS, tl.EndUS = trace[0].TimeUS, trace[len(trace)-1].TimeUS
	}
	if tl.PeakReservedAt >= 0 {
		tl.PeakBlocks = blockOrigins(tl.PeakState, origins(trace[:tl.PeakReservedAt+1]))
	}
	return tl
}

// origins maps a block address to the trace index of the latest alloc
// there: the replay reproduces the recorded addresses, so for a block live
// at the end of trace that is the allocation it holds.
func origins(trace []snapshot.TraceEvent) map[int64]int32 {
	origin := make(map[int64]int32, 1024)
	for i := range trace {
		if e := &trace[i]; e.Action == snapshot.ActionAlloc {
			origin[int64(e.Addr)] = int32(i)
		}
	}
	return origin
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

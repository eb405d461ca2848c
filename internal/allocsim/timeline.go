package allocsim

import "github.com/vramkit/vramkit/internal/snapshot"

// Bucket is one point of a downsampled memory timeline: the trace events
// [First, Last], with the extremes of allocated and reserved bytes over
// them, so a peak survives any amount of downsampling.
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

// OOMRecord is an out-of-memory error of the trace as the replay met it.
type OOMRecord struct {
	Event int   `json:"trace_event"`
	Size  int64 `json:"size_bytes"`
	// DeviceFree is cudaMemGetInfo's free memory the trace recorded.
	DeviceFree int64 `json:"device_free_bytes"`
	Reserved   int64 `json:"reserved_bytes"`
	Allocated  int64 `json:"allocated_bytes"`
}

// sampler follows allocated and reserved memory after every request of
// the replay, into buckets of equal event counts. It runs inside the
// replay's loop, so it allocates only when a bucket opens or reserved
// memory reaches a new high (a few hundred times a run).
type sampler struct {
	tr       []snapshot.TraceEvent
	per      int
	segments bool
	cur      int // index of the open bucket, -1 before the first
}

func newSampler(tr []snapshot.TraceEvent, o ReplayOptions) *sampler {
	if o.TimelineBuckets <= 0 && !o.KeepPeakSegments {
		return nil
	}
	per := 0 // no buckets: only the peaks
	if n := o.TimelineBuckets; n > 0 {
		per = max((len(tr)+n-1)/n, 1)
	}
	return &sampler{tr: tr, per: per, segments: o.KeepPeakSegments, cur: -1}
}

func (s *sampler) after(k int, a *Allocator, d *DeviceReplay) {
	al, rs := a.stats.AllocatedBytes.All.Current, a.stats.ReservedBytes.All.Current
	if s.per > 0 {
		s.bucket(k, al, rs, d)
	}
	if al > d.PeakAllocated {
		d.PeakAllocated, d.PeakAllocatedAt = al, k
	}
	if rs > d.PeakReserved {
		d.PeakReserved, d.PeakReservedAt = rs, k
		if s.segments {
			d.PeakSegments = a.Segments()
		}
	}
}

func (s *sampler) bucket(k int, al, rs int64, d *DeviceReplay) {
	t := s.tr[k].TimeUS
	if s.cur < 0 || k/s.per != d.Timeline[s.cur].First/s.per {
		d.Timeline = append(d.Timeline, Bucket{First: k, TimeUS: t, AllocMin: al, AllocMax: al, ResMin: rs, ResMax: rs,
			AllocMinUS: t, AllocMaxUS: t, ResMinUS: t, ResMaxUS: t, AllocMaxAt: k, Big: -1})
		s.cur = len(d.Timeline) - 1
	}
	b := &d.Timeline[s.cur]
	b.Last = k
	if al < b.AllocMin {
		b.AllocMin, b.AllocMinUS = al, t
	}
	if al > b.AllocMax {
		b.AllocMax, b.AllocMaxUS, b.AllocMaxAt = al, t, k
	}
	if rs < b.ResMin {
		b.ResMin, b.ResMinUS = rs, t
	}
	if rs > b.ResMax {
		b.ResMax, b.ResMaxUS = rs, t
	}
	if s.tr[k].Action == snapshot.ActionAlloc && (b.Big < 0 || s.tr[b.Big].Size < s.tr[k].Size) {
		b.Big = k
	}
}

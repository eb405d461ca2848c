package allocsim

import (
	"context"
	"errors"
	"fmt"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// DeviceReplay is one device of a snapshot replayed once, with everything
// its consumers read (stats, request stream, timeline, state at peak
// reserved, OOM records) filled in the same pass.
type DeviceReplay struct {
	Device int
	Events int
	Config Config
	Result *ReplayResult
	// TraceComplete: the trace starts at the allocator's birth (every freed
	// block was allocated in it) and the replay ends in exactly the state
	// the snapshot's segments list. Only then are peaks and totals exact.
	TraceComplete bool
	// StateMismatch is the first difference between the replay's final
	// state and the recorded segments ("" when they agree).
	StateMismatch string
	// Notes say what limits the figures, in plain words.
	Notes []string
	// Timeline is allocated and reserved memory after every request, in at
	// most ReplayOptions.TimelineBuckets buckets (empty when none asked).
	Timeline []Bucket
	// PeakAllocated and PeakReserved are the highest values after a
	// request, first reached at trace indices PeakAllocatedAt and
	// PeakReservedAt (-1 unless a timeline or the peak segments were
	// asked for).
	PeakAllocated, PeakReserved     int64
	PeakAllocatedAt, PeakReservedAt int
	// PeakSegments is the allocator's state when reserved memory first
	// reached its peak (ReplayOptions.KeepPeakSegments).
	PeakSegments []SegmentState
	// OOMs are the trace's out-of-memory errors, as the replay met them.
	OOMs []OOMRecord
}

// ReplayOptions say what a replay runs under that the snapshot does not
// record, and what it keeps besides the counters.
type ReplayOptions struct {
	// MemoryFraction is the per-process memory fraction the run used
	// (torch.cuda.set_per_process_memory_fraction); snapshots do not record
	// it, yet it decides garbage collection. 0 or 1 keeps the recorded
	// configuration's (none unless PYTORCH_CUDA_ALLOC_CONF set one).
	MemoryFraction float64 `json:"memory_fraction"`
	// TotalMemory is the device's total memory as cudaMemGetInfo reports
	// it, which a memory fraction multiplies; required under a fraction.
	// Resolve fills it from the GPU table.
	TotalMemory int64 `json:"total_memory_bytes"`
	// KeepRequests keeps the address-free request stream for what-ifs.
	KeepRequests bool `json:"keep_requests"`
	// TimelineBuckets, when positive, samples memory after every request
	// into at most this many buckets (DeviceReplay.Timeline).
	TimelineBuckets int `json:"timeline_buckets"`
	// KeepPeakSegments keeps the allocator's segments at peak reserved.
	KeepPeakSegments bool `json:"keep_peak_segments"`
	// MakeRequests, when set, makes the kept request slice (length 0,
	// capacity n): a large trace's requests are hundreds of megabytes
	// written once, and the CLI passes a maker that asks the kernel for
	// huge pages, which this package does not touch itself.
	MakeRequests func(n int) []Request `json:"-"`
	// Ahead, when set, is a replay of this device that ran while the
	// snapshot was decoding; its result is taken when it is this replay's
	// (see Ahead), else the trace is replayed again.
	Ahead *Ahead `json:"-"`
}

// DefaultReplayOptions keeps the request stream, assumes no fraction and
// samples no timeline.
func DefaultReplayOptions() ReplayOptions { return ReplayOptions{KeepRequests: true} }

// ErrNoTotal is returned when a memory fraction applies and the device's
// total memory is unknown.
var ErrNoTotal = errors.New("allocsim: a memory fraction needs the device's total memory")

// ReplayDevice replays device dev of s under its recorded settings and o.
// It is the one way to replay a snapshot: every command reads the value it
// returns.
func ReplayDevice(s *snapshot.Snapshot, dev int, o ReplayOptions) (DeviceReplay, error) {
	return ReplayDeviceContext(context.Background(), s, dev, o)
}

// ReplayDeviceContext is ReplayDevice that gives up, returning ctx's error,
// once ctx is done: a large trace replays for tens of seconds, and Ctrl-C
// must not wait for the end.
func ReplayDeviceContext(ctx context.Context, s *snapshot.Snapshot, dev int, o ReplayOptions) (DeviceReplay, error) {
	d := DeviceReplay{Device: dev, PeakAllocatedAt: -1, PeakReservedAt: -1}
	cfg, err := FromSettings(s.Settings)
	if err != nil {
		with := "the settings dict the snapshot recorded (expandable segments, max_split_size, GC threshold, roundup divisions) over PyTorch's defaults"
		if !s.Settings.Present {
			with = "PyTorch's default settings (the snapshot recorded no settings dict)"
		}
		d.Notes = append(d.Notes, err.Error()+"; replayed with "+with)
	}
	if o.MemoryFraction > 0 && o.MemoryFraction < 1 {
		cfg.MemoryFraction = o.MemoryFraction
	}
	if cfg.MemoryFraction < 1 && o.TotalMemory <= 0 {
		return d, ErrNoTotal
	}
	if err := cfg.Simulable(); err != nil {
		d.Notes = append(d.Notes, err.Error()+": the figures below are the snapshot's recorded state only")
		d.Config = cfg
		d.Events = len(s.Trace(dev))
		d.Result = &ReplayResult{DivergedAt: -1, Stats: SegmentStats(s.Segments, dev)}
		return d, nil
	}
	d.Config = cfg
	ev := s.Trace(dev)
	d.Events = len(ev)
	if len(ev) == 0 {
		d.Notes = append(d.Notes, "no allocation history was recorded (enable torch.cuda.memory._record_memory_history before the run): "+
			"figures are the snapshot's current state only; peaks and totals are unknown")
		d.Result = &ReplayResult{DivergedAt: -1, Stats: SegmentStats(s.Segments, dev)}
		return d, nil
	}
	if err := ctx.Err(); err != nil {
		return d, err
	}
	var res *ReplayResult
	if o.Ahead != nil {
		res = o.Ahead.take(ctx, s, dev, cfg, o, &d)
	}
	if res == nil {
		if o.TotalMemory <= 0 {
			// No fraction applies, so the total only sizes the address range
			// expandable segments reserve: what the trace maps is enough.
			o.TotalMemory = mappedBytes(ev)
		}
		res, err = replayTrace(ctx, ev, s.Tags, cfg, o, func(id snapshot.StackID) bool {
			for _, f := range s.Frames(id) {
				if f.Name == "empty_cache" {
					return true
				}
			}
			return false
		}, poolRouting(ev, s.Segments, dev), &d)
		if err != nil {
			return d, err
		}
	}
	d.Result = res
	if d.Result.Reproduced {
		d.StateMismatch = CompareSegments(d.Result.Allocator.Segments(), s.Segments, dev)
	}
	d.TraceComplete = d.Result.Reproduced && d.StateMismatch == ""
	switch {
	case !d.Result.Reproduced && cfg.GCThreshold > 0 && cfg.MemoryFraction >= 1:
		d.Notes = append(d.Notes, "the trace could not be replayed ("+d.Result.FirstDivergence+"); "+
			"garbage_collection_threshold is set: if the run used torch.cuda.set_per_process_memory_fraction, pass that "+
			"fraction (--memory-fraction) so garbage collection can be replayed")
	case !d.Result.Reproduced && usesPrivatePools(s.Segments, dev):
		d.Notes = append(d.Notes, "this snapshot uses private memory pools (CUDA graph capture or torch.cuda.MemPool), "+
			"which vramkit's allocator simulator does not model yet: the exact replay stopped at "+d.Result.FirstDivergence+
			"; figures that need it are left out, and what the trace itself proves is reported instead")
	case !d.Result.Reproduced && startsEmpty(ev):
		d.Notes = append(d.Notes, "the trace starts with the allocator, yet vramkit could not reproduce it ("+d.Result.FirstDivergence+
			"): the run probably used something the simulator does not model yet (private pools for CUDA graph capture or "+
			"torch.cuda.MemPool, whose segments are gone from the dump); what the trace itself proves is reported instead")
	case !d.Result.Reproduced:
		d.Notes = append(d.Notes, "the trace could not be replayed ("+d.Result.FirstDivergence+
			"); usually the trace does not start with the process: history was enabled late, or the ring buffer "+
			"(max_entries) overflowed and dropped the oldest events")
	case d.StateMismatch != "":
		d.Notes = append(d.Notes, "the replay does not end in the recorded state ("+d.StateMismatch+
			"): the trace probably began after the allocator did, so peaks and totals may be low")
	}
	return d, nil
}

// SegmentStats derives the current-value counters that a snapshot's segment
// list alone determines, for snapshots without a trace.
func SegmentStats(segs []snapshot.Segment, dev int) Stats {
	var st Stats
	st.MaxSplitSize = -1
	for _, g := range segs {
		if g.Device != dev {
			continue
		}
		small := !g.Large
		st.ReservedBytes.increase(small, int64(g.TotalSize))
		if !g.Expandable {
			st.Segment.increase(small, 1)
		}
		for _, b := range g.Blocks {
			switch b.State {
			case snapshot.BlockActiveAllocated:
				st.Allocation.increase(small, 1)
				st.AllocatedBytes.increase(small, int64(b.Size))
				fallthrough
			case snapshot.BlockActivePendingFree:
				st.Active.increase(small, 1)
				st.ActiveBytes.increase(small, int64(b.Size))
				st.RequestedBytes.increase(small, int64(b.RequestedSize))
			default:
				if len(g.Blocks) > 1 && !g.Expandable {
					st.InactiveSplit.increase(small, 1)
					st.InactiveSplitBytes.increase(small, int64(b.Size))
				}
			}
		}
	}
	return st
}

// String summarises a replay in one line.
func (d DeviceReplay) String() string {
	return fmt.Sprintf("device %d: %d events, reproduced=%v, complete=%v", d.Device, d.Events, d.Result.Reproduced, d.TraceComplete)
}

// usesPrivatePools reports whether any of device dev's segments belongs to
// a private pool (segment_pool_id other than (0, 0)).
func usesPrivatePools(segs []snapshot.Segment, dev int) bool {
	for _, g := range segs {
		if g.Device == dev && g.PoolID != [2]int64{} {
			return true
		}
	}
	return false
}

// startsEmpty reports whether a trace begins by creating memory, as one
// recorded from the allocator's first request does (a late start begins
// with traffic on memory that already exists).
func startsEmpty(ev []snapshot.TraceEvent) bool {
	for i := range ev {
		switch ev[i].Action {
		case snapshot.ActionSnapshot:
			continue
		case snapshot.ActionSegmentAlloc, snapshot.ActionSegmentMap:
			return true
		}
		return false
	}
	return false
}

// mappedBytes is every byte the trace allocates or maps as segments, a
// bound on the device memory it ever holds.
func mappedBytes(ev []snapshot.TraceEvent) int64 {
	n := int64(RoundLarge)
	for i := range ev {
		if a := ev[i].Action; a == snapshot.ActionSegmentAlloc || a == snapshot.ActionSegmentMap {
			n += int64(ev[i].Size)
		}
	}
	return n
}

package allocsim

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// DeviceReplay is one device of a snapshot replayed with its recorded
// settings.
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
}

// ReplayOptions supplies what a snapshot does not record.
type ReplayOptions struct {
	// MemoryFraction is the per-process memory fraction the run used
	// (torch.cuda.set_per_process_memory_fraction); snapshots do not record
	// it, yet it decides garbage collection. 0 or 1 means none.
	MemoryFraction float64 `json:"memory_fraction"`
	// TotalMemory is the device's totalGlobalMem; 0 means an H200's.
	TotalMemory int64 `json:"total_memory"`
	// KeepRequests keeps the address-free request stream for what-ifs.
	KeepRequests bool `json:"-"`
	// Observe, if set, is called after each request of the trace (alloc,
	// free_requested, oom) has been replayed, with its trace index and the
	// allocator, so a caller can follow memory over time (the report's
	// timeline) from the exact replay rather than a second simulation.
	Observe func(event int, a *Allocator) `json:"-"`
}

// DefaultReplayOptions keeps the request stream and assumes no fraction.
func DefaultReplayOptions() ReplayOptions { return ReplayOptions{KeepRequests: true} }

// ReplayDevice replays device dev of s under its recorded settings and
// keeps the request stream for what-if runs.
func ReplayDevice(s *snapshot.Snapshot, dev int) DeviceReplay {
	return ReplayDeviceWith(s, dev, DefaultReplayOptions())
}

// ReplayDeviceStats is ReplayDevice without the request stream.
func ReplayDeviceStats(s *snapshot.Snapshot, dev int) DeviceReplay {
	return ReplayDeviceWith(s, dev, ReplayOptions{})
}

// ReplayDeviceWith replays device dev of s with options o.
func ReplayDeviceWith(s *snapshot.Snapshot, dev int, o ReplayOptions) DeviceReplay {
	d := DeviceReplay{Device: dev}
	keep := o.KeepRequests
	cfg, err := FromSettings(s.Settings)
	if err != nil {
		d.Notes = append(d.Notes, err.Error()+"; replaying with the recorded settings dict instead")
	}
	if o.MemoryFraction > 0 && o.MemoryFraction < 1 {
		cfg.MemoryFraction = o.MemoryFraction
	}
	d.Config = cfg
	ev := s.Trace(dev)
	d.Events = len(ev)
	if len(ev) == 0 {
		d.Notes = append(d.Notes, "no allocation history was recorded (enable torch.cuda.memory._record_memory_history before the run): "+
			"figures are the snapshot's current state only; peaks and totals are unknown")
		d.Result = &ReplayResult{DivergedAt: -1, Stats: SegmentStats(s.Segments, dev)}
		return d
	}
	d.Result = replayWith(ev, cfg, o.TotalMemory, keep, o.Observe, func(id snapshot.StackID) bool {
		for _, f := range s.Frames(id) {
			if f.Name == "empty_cache" {
				return true
			}
		}
		return false
	}, poolRouting(ev, s.Segments, dev))
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
	return d
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

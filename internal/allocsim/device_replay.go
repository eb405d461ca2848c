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

// ReplayDevice replays device dev of s under its recorded settings.
func ReplayDevice(s *snapshot.Snapshot, dev int) DeviceReplay {
	d := DeviceReplay{Device: dev}
	cfg, err := FromSettings(s.Settings)
	if err != nil {
		d.Notes = append(d.Notes, err.Error()+"; replaying with the recorded settings dict instead")
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
	d.Result = Replay(ev, cfg, 0)
	if d.Result.Reproduced {
		d.StateMismatch = CompareSegments(d.Result.Allocator.Segments(), s.Segments, dev)
	}
	d.TraceComplete = d.Result.Reproduced && d.StateMismatch == ""
	switch {
	case !d.Result.Reproduced:
		d.Notes = append(d.Notes, "the trace could not be replayed from the start ("+d.Result.FirstDivergence+
			"); figures cover events up to that point only")
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

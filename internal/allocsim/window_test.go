package allocsim

import (
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// TestTraceWindow cuts the oldest two thirds off real traces, as a ring
// buffer would, and checks the reconstruction against the exact replay of
// the whole trace: reserved must match exactly over the kept window, and
// allocated within 1% (block sizes of freed blocks are inferred).
func TestTraceWindow(t *testing.T) {
	for _, name := range []string{"h200/bert-base-s128-b16-fp32.pickle.gz", "h200/resnet50-b16x4-fp32-accum.pickle.gz",
		"h200/oom-vitl16-b96-fp32.pickle.gz", "h200/gpt2-dyn-pad-batch-default.pickle.gz"} {
		s := load(t, name)
		full := s.Devices[0].Events
		cut := len(full) * 2 / 3
		var resPeak, allocPeak int64
		// One bucket per trace event: the timeline is then memory after
		// every request, exactly.
		d := mustReplay(t, s, ReplayOptions{TimelineBuckets: len(full)})
		for _, b := range d.Timeline {
			if b.First >= cut {
				resPeak, allocPeak = max(resPeak, b.ResMax), max(allocPeak, b.AllocMax)
			}
		}
		if !d.TraceComplete {
			t.Fatalf("%s: %v", name, d.Notes)
		}
		cfg, _ := FromSettings(s.Settings)
		w := TraceWindow(full[cut:], s.Segments, 0, cfg)
		st := d.Result.Stats
		if w.ReservedEnd != st.ReservedBytes.All.Current || w.AllocatedEnd != st.AllocatedBytes.All.Current {
			t.Errorf("%s: end %d/%d, replay %d/%d", name, w.AllocatedEnd, w.ReservedEnd,
				st.AllocatedBytes.All.Current, st.ReservedBytes.All.Current)
		}
		if w.ReservedPeak != resPeak {
			t.Errorf("%s: window reserved peak %d, exact %d", name, w.ReservedPeak, resPeak)
		}
		if diff := float64(w.AllocatedPeak-allocPeak) / float64(allocPeak); diff > 0.01 || diff < -0.01 {
			t.Errorf("%s: window allocated peak %d, exact %d (%+.2f%%)", name, w.AllocatedPeak, allocPeak, 100*diff)
		}
		t.Logf("%s: reserved peak %d exact; allocated peak %d vs %d", name, w.ReservedPeak, w.AllocatedPeak, allocPeak)
	}
}

var _ = snapshot.ActionAlloc

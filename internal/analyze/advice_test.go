package analyze

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// TestActivationSavingBoundedByOptimizerStep: BERT-base s128 b16 fp32
// (testdata/h200) peaks in backward, but its AdamW step, which no change
// to activations touches, comes within a few hundred MiB of that peak.
// Checkpointing was quoted at 65% of the activations (773 MiB) and
// autocast at half of them (595 MiB): more than the peak can fall before
// the optimizer step sets it. The bound here comes from the raw trace,
// not from vramkit: the requested bytes live during any optimizer-step
// event (stacks in torch/optim) can never be saved by shrinking
// activations, and the peak matches PyTorch's measured max_allocated.
func TestActivationSavingBoundedByOptimizerStep(t *testing.T) {
	dir := filepath.Join("../../testdata", "h200")
	name := "bert-base-s128-b16-fp32"
	var maxAlloc int64
	for _, m := range loadMeasuredIn(t, dir) {
		if m.Name == name {
			maxAlloc = m.MaxAllocated
		}
	}
	s, err := snapshot.LoadFile(filepath.Join(dir, name+".pickle.gz"))
	if err != nil {
		t.Fatal(err)
	}
	// The requested bytes live at each optimizer-step event.
	var live, optPeak int64
	for _, e := range s.Trace(0) {
		switch e.Action {
		case snapshot.ActionAlloc:
			live += int64(e.Size)
		case snapshot.ActionFreeCompleted:
			live -= int64(e.Size)
		default:
			continue
		}
		for _, fr := range s.Stacks[e.Stack] {
			if strings.Contains(fr.Filename, "torch/optim/") {
				optPeak = max(optPeak, live)
				break
			}
		}
	}
	rep, err := Analyze(s, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	d := rep.Devices[0]
	if d.PeakAllocated != maxAlloc {
		t.Fatalf("peak allocated %d, measured %d", d.PeakAllocated, maxAlloc)
	}
	bound := maxAlloc - optPeak
	if optPeak == 0 || bound*2 >= d.Categories.Activations {
		t.Fatalf("optimizer step peak %d leaves %d of %d activations: not the case under test", optPeak, bound, d.Categories.Activations)
	}
	n := 0
	for _, a := range d.Advice {
		if strings.HasPrefix(a.Action, "checkpoint") || strings.Contains(a.Action, "mixed precision") {
			n++
			if a.Saving > bound || a.Saving <= 0 {
				t.Errorf("%s: saving %d, but the optimizer step holds %d of the %d peak: at most %d", a.Action, a.Saving,
					optPeak, maxAlloc, bound)
			}
			if !strings.Contains(a.Detail, "optimizer step") {
				t.Errorf("%s: detail %q does not say the optimizer step then sets the peak", a.Action, a.Detail)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d activation advices, want checkpointing and autocast", n)
	}
}

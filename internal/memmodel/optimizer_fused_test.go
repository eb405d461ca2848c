package memmodel_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestFusedAdamW: torch.optim.AdamW(fused=True) keeps each parameter's
// step counter on the GPU (a float32 scalar: one 512-byte block of the
// caching allocator) and updates in place, so after the step the fused run
// holds exactly 512 bytes per trainable tensor more than the foreach run
// (GPT-2 small: 148 tensors, the tied head counted once), never less; and
// the calibrated fused step (one multi-tensor kernel, measured on the
// H200) is faster than the foreach one (eight _foreach ops).
func TestFusedAdamW(t *testing.T) {
	opts := memmodel.DefaultOptions()
	base := `{"model": "gpt2", "batch": 4, "seq": 512, "precision": "bf16-amp", "optimizer": "%s"}`
	foreach := estimate(t, fmt.Sprintf(base, "adamw"), opts)
	fused := estimate(t, fmt.Sprintf(base, "adamw-fused"), opts)
	if d := fused.SteadyAllocated - foreach.SteadyAllocated; d != 148*512 {
		t.Errorf("steady allocated: fused - foreach = %d bytes, want 148 step counters x 512 = %d", d, 148*512)
	}
	if fused.PeakAllocated > foreach.PeakAllocated+148*512 {
		t.Errorf("peak allocated: fused %d > foreach %d + counters: the fused step allocates no denominators",
			fused.PeakAllocated, foreach.PeakAllocated)
	}
	if fused.StepTime >= foreach.StepTime {
		t.Errorf("step time: fused %.4fs >= foreach %.4fs", fused.StepTime, foreach.StepTime)
	}
	if _, err := memmodel.LookupOptimizer("adam-fused"); err != nil {
		t.Error(err)
	}
}

// TestFusedAdamWCaptures: the fused optimizer, written from PyTorch's
// source before any fused run was captured, against the three H200
// captures taken after (testdata/fused): peak allocated within 0.5%, and
// every measured peak reserved inside its band.
func TestFusedAdamWCaptures(t *testing.T) {
	rows, err := measured.ReadGTRows("../../testdata/fused/results.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
	for _, r := range rows {
		res := planRow(t, r)
		if e := math.Abs(float64(res.PeakAllocated-r.MaxAllocated)) / float64(r.MaxAllocated); e > 0.005 {
			t.Errorf("%s: peak allocated %d, measured %d (%.2f%%)", r.Name, res.PeakAllocated, r.MaxAllocated, 100*e)
		}
		if !measured.InBand(r.MaxReserved, res.ReservedBand) {
			t.Errorf("%s: measured reserved %d outside the band %v", r.Name, r.MaxReserved, res.ReservedBand)
		}
	}
}

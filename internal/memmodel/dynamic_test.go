package memmodel

import (
	"math"
	"testing"
)

func TestBatchLengths(t *testing.T) {
	ls := []int{10, 50, 20, 30, 40, 60}
	for _, tc := range []struct {
		pad  string
		want []int
		eff  float64
	}{
		{"max", []int{64, 64, 64}, 210.0 / 384},
		{"longest", []int{50, 30, 60}, 210.0 / 280},
	} {
		got, eff, err := batchLengths(ls, 2, 64, tc.pad)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 3 || got[0] != tc.want[0] || got[1] != tc.want[1] || got[2] != tc.want[2] || math.Abs(eff-tc.eff) > 1e-9 {
			t.Errorf("%s: got %v eff %.3f, want %v eff %.3f", tc.pad, got, eff, tc.want, tc.eff)
		}
	}
	// bucketing pairs neighbours: batch maxima are 20, 40, 60 in some order
	got, eff, err := batchLengths(ls, 2, 64, "bucket")
	if err != nil || got[0]+got[1]+got[2] != 120 || math.Abs(eff-210.0/240) > 1e-9 {
		t.Errorf("bucket: got %v eff %.3f err %v", got, eff, err)
	}
	if _, _, err := batchLengths(ls, 2, 32, "longest"); err == nil {
		t.Error("a length over seq was accepted")
	}
	if _, _, err := batchLengths(ls[:1], 2, 64, "longest"); err == nil {
		t.Error("fewer lengths than one batch was accepted")
	}
}

// TestDynamicPaddingPlan: a plan with lengths reports the worst batch and
// a lower mean step time than padding to the maximum.
func TestDynamicPaddingPlan(t *testing.T) {
	s := DefaultSpec()
	m := "bert-base"
	s.Model, s.Batch, s.Seq = &m, 8, 512
	fixed, err := Estimate(s, Options{Steps: 2, Warm: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 64; i++ {
		s.Lengths = append(s.Lengths, 32+(i*37)%200)
	}
	r, err := Estimate(s, Options{Steps: 2, Warm: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Dynamic == nil || r.Dynamic.MaxLen > 232 || r.PeakAllocated >= fixed.PeakAllocated || r.StepTime >= fixed.StepTime {
		t.Errorf("dynamic plan %+v: allocated %d vs fixed %d, step %.3f s vs %.3f s", r.Dynamic, r.PeakAllocated, fixed.PeakAllocated, r.StepTime, fixed.StepTime)
	}
	s.Padding = "sideways"
	if _, err := Estimate(s, DefaultOptions()); err == nil {
		t.Error("unknown padding accepted")
	}
}

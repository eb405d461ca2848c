package analyze

import (
	"path/filepath"
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// TestCategoryCurve: the curve at the breakdown's moment is the breakdown,
// and at the peak its parts sum to peak allocated.
func TestCategoryCurve(t *testing.T) {
	for _, name := range []string{"bert-base-s128-b16-fp32", "gpt2-dyn-pad-batch-default"} {
		s, err := snapshot.LoadFile(filepath.Join("..", "..", "testdata", "h200", name+".pickle.gz"))
		if err != nil {
			t.Fatal(err)
		}
		o := DefaultOptions()
		o.Tune = false
		first, err := Analyze(s, o)
		if err != nil {
			t.Fatal(err)
		}
		d0 := first.Devices[0]
		at := []int{-1, d0.PeakAllocatedAt.TraceEvent, d0.CategoriesAt.TraceEvent}
		if at[2] < at[1] {
			at[1], at[2] = at[2], at[1]
		}
		o.CurveAt = at
		rep, err := Analyze(s, o)
		if err != nil {
			t.Fatal(err)
		}
		d := rep.Devices[0]
		if len(d.CategoryCurve) != 3 || d.CategoryCurve[0] != (Categories{}) {
			t.Fatalf("%s: curve %+v", name, d.CategoryCurve)
		}
		sum := func(c Categories) int64 {
			return c.Parameters + c.Gradients + c.OptimizerState + c.Activations + c.Temporaries + c.Other + c.BlockRounding
		}
		for i, c := range d.CategoryCurve[1:] {
			switch at[i+1] {
			case d.CategoriesAt.TraceEvent:
				if c != d.Categories {
					t.Errorf("%s: curve at the breakdown %+v, breakdown %+v", name, c, d.Categories)
				}
			case d.PeakAllocatedAt.TraceEvent:
				if sum(c) != d.PeakAllocated {
					t.Errorf("%s: curve at the peak sums to %d, peak allocated %d", name, sum(c), d.PeakAllocated)
				}
			}
		}
	}
}

package memmodel

import (
	"os"
	"testing"
)

// TestAccuracyAgainstMeasured predicts every fixed-shape training row of the
// H200 ground truth (testdata/measured.jsonl, copied from
// shared/fixtures/h200) and holds the acceptance targets: median |error| ≤ 5%
// and max ≤ 10% on peak allocated and on peak reserved, and every
// measurement inside the predicted uncertainty band.
func TestAccuracyAgainstMeasured(t *testing.T) {
	if testing.Short() {
		t.Skip("replays ~35 workloads")
	}
	rows := readRows(t, "testdata/measured.jsonl")
	cmp, err := Compare(rows)
	if err != nil {
		t.Fatal(err)
	}
	var ea, er []float64
	for _, c := range cmp {
		if c.VarLen {
			continue // planned at the longest batch; fragmentation of changing shapes not modelled
		}
		ea = append(ea, c.ErrAlloc)
		er = append(er, c.ErrResv)
		if !c.InBands {
			// fits is judged on the band's upper edge: a measurement
			// above it means fits: true could OOM
			t.Errorf("%s: measurement outside the predicted band", c.Name)
		}
		t.Logf("%-32s allocated %+6.1f%%  reserved %+6.1f%%", c.Name, 100*c.ErrAlloc, 100*c.ErrResv)
	}
	if len(ea) < 30 {
		t.Fatalf("only %d fixed-shape training rows compared", len(ea))
	}
	for _, s := range []struct {
		what string
		errs []float64
	}{{"allocated", ea}, {"reserved", er}} {
		st := Summarize(s.errs)
		t.Logf("%s: median |err| %.1f%%, max %.1f%%, under-estimates %.0f%%", s.what, 100*st.MedianAbs, 100*st.MaxAbs, 100*st.UnderRate)
		if st.MedianAbs > 0.05 || st.MaxAbs > 0.10 {
			t.Errorf("%s: median |err| %.1f%% (target 5%%), max %.1f%% (target 10%%)", s.what, 100*st.MedianAbs, 100*st.MaxAbs)
		}
	}
}

func TestSummarize(t *testing.T) {
	st := Summarize([]float64{-0.1, 0.02, 0.04, -0.03})
	if st.MaxAbs != 0.1 || st.UnderRate != 0.5 || st.MedianAbs < 0.0349 || st.MedianAbs > 0.0351 {
		t.Errorf("Summarize = %+v", st)
	}
}

// readRows reads a measured.jsonl-style file of ground-truth rows.
func readRows(t *testing.T, path string) []MeasuredRow {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := ReadMeasured(f)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

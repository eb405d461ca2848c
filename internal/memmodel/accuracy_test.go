package memmodel_test

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
)

// TestAccuracyAgainstMeasured predicts every fixed-shape training row of the
// H200 ground truth (testdata/measured.jsonl, copied from
// shared/fixtures/h200) and holds the acceptance targets: median |error| ≤ 5%
// and max ≤ 10% on peak allocated and on peak reserved, and at least 90%
// of the measurements inside the predicted 95% bands (issue 18: bands from
// held-out error, not wide enough to hold every row).
func TestAccuracyAgainstMeasured(t *testing.T) {
	if testing.Short() {
		t.Skip("replays ~35 workloads")
	}
	rows := readRows(t, "testdata/measured.jsonl")
	cmp, err := measured.Compare(rows)
	if err != nil {
		t.Fatal(err)
	}
	var ea, er []float64
	inside := 0
	for _, c := range cmp {
		if c.VarLen {
			continue // planned at the longest batch; fragmentation of changing shapes not modelled
		}
		ea = append(ea, c.ErrAlloc)
		er = append(er, c.ErrResv)
		if c.InBands {
			inside++
		} else {
			// fits is judged on the band's upper edge: a measurement
			// above it means fits: true could OOM
			t.Logf("%s: measurement outside the predicted band", c.Name)
		}
		t.Logf("%-32s allocated %+6.1f%%  reserved %+6.1f%%", c.Name, 100*c.ErrAlloc, 100*c.ErrResv)
	}
	if len(ea) < 30 {
		t.Fatalf("only %d fixed-shape training rows compared", len(ea))
	}
	checkCoverage(t, inside, len(ea))
	for _, s := range []struct {
		what string
		errs []float64
	}{{"allocated", ea}, {"reserved", er}} {
		st := measured.Summarize(s.errs)
		t.Logf("%s: median |err| %.1f%%, max %.1f%%, under-estimates %.0f%%", s.what, 100*st.MedianAbs, 100*st.MaxAbs, 100*st.UnderRate)
		if st.MedianAbs > 0.05 || st.MaxAbs > 0.10 {
			t.Errorf("%s: median |err| %.1f%% (target 5%%), max %.1f%% (target 10%%)", s.what, 100*st.MedianAbs, 100*st.MaxAbs)
		}
	}
}

// TestDynamicPaddingAgainstMeasured replays the capture's own length
// schedules (testdata/capture_lengths.json, regenerated from capture.py's
// lengths()) for the bert-dyn-* and gpt2-dyn-* rows of measured.jsonl:
// peak allocated within 5%, reserved within 10% (the order-dependent
// growth of the cache included), each inside its band.
func TestDynamicPaddingAgainstMeasured(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 24-step schedules")
	}
	rows := readRows(t, "testdata/measured.jsonl")
	data, err := os.ReadFile("testdata/capture_lengths.json")
	if err != nil {
		t.Fatal(err)
	}
	var schedules map[string][]int
	if err := json.Unmarshal(data, &schedules); err != nil {
		t.Fatal(err)
	}
	var dyn []measured.MeasuredRow
	for _, m := range rows {
		if l := schedules[m.LengthsKey()]; l != nil && m.Mode != nil {
			m.Lengths = l
			dyn = append(dyn, m)
		}
	}
	if len(dyn) < 8 {
		t.Fatalf("only %d dynamic-padding rows", len(dyn))
	}
	cmp, err := measured.Compare(dyn)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmp {
		t.Logf("%-34s allocated %+6.1f%%  reserved %+6.1f%%", c.Name, 100*c.ErrAlloc, 100*c.ErrResv)
		if math.Abs(c.ErrAlloc) > 0.05 || math.Abs(c.ErrResv) > 0.10 || !c.InBands {
			t.Errorf("%s: allocated %+.1f%%, reserved %+.1f%%, in bands %v", c.Name, 100*c.ErrAlloc, 100*c.ErrResv, c.InBands)
		}
	}
}

// readRows reads a measured.jsonl-style file of ground-truth rows.
func readRows(t *testing.T, path string) []measured.MeasuredRow {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := measured.ReadMeasured(f)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

package memmodel

import (
	"strings"
	"testing"
)

func TestDecideNeverContradicts(t *testing.T) {
	const gib = 1 << 30
	for _, c := range []struct {
		pred, high, limit int64
		fits              bool
		prefix            string
	}{
		{19 * gib, 20 * gib, 23 * gib, true, "fits with 95% confidence"},
		{20 * gib, 23 * gib, 23 * gib, true, "fits with 95% confidence"}, // top exactly at the limit
		{20 * gib, 24 * gib, 23 * gib, false, "does NOT fit with 95% confidence"},
		{25 * gib, 27 * gib, 23 * gib, false, "does NOT fit:"},
	} {
		v := Decide(c.pred, c.high, c.limit, 0.95, "")
		if v.Fits != c.fits || !strings.HasPrefix(v.Text, c.prefix) {
			t.Errorf("Decide(%d, %d, %d) = %v %q, want %v %q", c.pred, c.high, c.limit, v.Fits, v.Text, c.fits, c.prefix)
		}
		if v.Headroom != c.limit-c.high || (v.Headroom >= 0) != v.Fits {
			t.Errorf("headroom %d contradicts fits=%v", v.Headroom, v.Fits)
		}
	}
	// a top within rounding of the limit is printed apart from it, on
	// the side the verdict says (a top 10 MiB under rtx4090's 23.65 GiB,
	// 10 MiB over a limit of 23.60 GiB)
	for _, c := range []struct {
		high, limit int64
		want        string
	}{
		{25393692672 - 10<<20, 25393692672, "fits with 95% confidence: 21.4 GiB, at most 23.64 GiB, of 23.65 GiB"},
		{25340000000 + 10<<20, 25340000000, "does NOT fit with 95% confidence: 21.4 GiB predicted, but up to 23.61 GiB, of 23.60 GiB"},
	} {
		if v := Decide(23<<30-1600<<20, c.high, c.limit, 0.95, ""); v.Text != c.want {
			t.Errorf("Decide near the limit: %q, want %q", v.Text, c.want)
		}
	}
	v := Decide(19*gib, 20*gib, 21*gib, 0.95, "(GPU less a 10% margin)")
	if v.Text != "fits with 95% confidence: 19.0 GiB, at most 20.0 GiB, of 21.0 GiB (GPU less a 10% margin)" {
		t.Errorf("text %q", v.Text)
	}
}

// TestEstimateVerdictConsistent checks the verdict Estimate prints on a
// real configuration against its own band and capacity, on GPUs where it
// fits and where (on the T4) the point fits but the band's top does not.
func TestEstimateVerdictConsistent(t *testing.T) {
	m := "gpt2"
	seen := map[bool]bool{}
	for _, gpu := range []string{"h200", "rtx4090", "t4"} {
		s := DefaultSpec()
		s.Model, s.Batch, s.Seq, s.Precision, s.GPU = &m, 8, 1024, "fp16-amp", gpu
		r, err := Estimate(s, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if r.ProcessHigh != r.ProcessBand.High+r.SteadyProcess-r.Process || r.ProcessHigh < r.SteadyProcess {
			t.Errorf("%s: band top %d, process %d, band %+v", gpu, r.ProcessHigh, r.SteadyProcess, r.ProcessBand)
		}
		if r.Fits != r.Verdict.Fits || r.Headroom != r.Capacity-r.ProcessHigh || (r.Headroom >= 0) != r.Fits ||
			strings.HasPrefix(r.Verdict.Text, "fits") != r.Fits {
			t.Errorf("%s: fits %v, headroom %d, verdict %q", gpu, r.Fits, r.Headroom, r.Verdict.Text)
		}
		seen[r.Fits] = true
	}
	if !seen[true] || !seen[false] {
		t.Errorf("want both verdicts among the GPUs, got %v", seen)
	}
}

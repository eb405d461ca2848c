package plan

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// consistent fails when a verdict's words, fits flag, headroom and the
// budget disagree.
func consistent(t *testing.T, what string, fits bool, hi, budget int64, v memmodel.Verdict) {
	t.Helper()
	if v.Fits != fits || v.High != hi || v.Limit != budget || v.Headroom != budget-hi ||
		(hi <= budget) != fits || strings.HasPrefix(v.Text, "fits") != fits || v.Confidence != 0.95 {
		t.Errorf("%s: fits %v, top %d, budget %d, verdict %+v", what, fits, hi, budget, v)
	}
}

// TestVerdictsAgreeInFitAndSweep runs --fit and --sweep with and without
// a margin and checks every candidate and point: verdict, headroom and
// budget never contradict each other, and the rendered texts say the
// confidence the decision was made at.
func TestVerdictsAgreeInFitAndSweep(t *testing.T) {
	for _, margin := range []float64{0, 0.1} {
		res, err := Fit(context.Background(), bertSpec(), FitOptions{GlobalBatch: 64, Margin: margin, Exact: 6})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range append(append([]Candidate{*res.Best}, res.Feasible...), res.Rejected...) {
			consistent(t, "fit "+describe(c), c.Fits, c.ProcessHi, res.Budget, c.Verdict)
		}
		var w bytes.Buffer
		WriteFitText(&w, res)
		if !strings.Contains(w.String(), "fits with 95% confidence: ") {
			t.Errorf("fit text lacks the verdict line:\n%s", w.String())
		}
		if margin > 0 && !strings.Contains(w.String(), "10% margin") {
			t.Errorf("fit text does not name the margin:\n%s", w.String())
		}
		m := "resnet18"
		s := memmodel.DefaultSpec()
		s.Model, s.GPU = &m, "t4"
		o, err := ParseSweep("batch=16..1024")
		if err != nil {
			t.Fatal(err)
		}
		o.Margin = margin
		sw, err := Sweep(context.Background(), s, o)
		if err != nil {
			t.Fatal(err)
		}
		fits := 0
		for _, p := range sw.Points {
			consistent(t, "sweep point", p.Fits, p.ProcessHi, sw.Budget, p.Verdict)
			if p.Fits {
				fits++
			}
		}
		consistent(t, "largest", true, sw.LargestVerdict.High, sw.Budget, sw.LargestVerdict)
		if fits == 0 || fits == len(sw.Points) {
			t.Errorf("sweep should cross the budget: %d of %d points fit", fits, len(sw.Points))
		}
		w.Reset()
		WriteSweepText(&w, sw)
		if !strings.Contains(w.String(), "fits with 95% confidence") {
			t.Errorf("sweep text lacks the verdict:\n%s", w.String())
		}
	}
}

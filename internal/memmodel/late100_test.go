package memmodel_test

import (
	"context"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestLate100HostScaleBlind: the blind test of --host-scale written before
// capture (bench/gpu/gt/late100_predictions.md). Five models the eleven
// calibration sets did not time, one process each on one lent host; the
// first workload of each model calibrates F = measured/planned, the other
// five are planned with host_scale F. Pass, fixed before capture: over the
// 25, the median |error| at most 10% and lower than unscaled, the 90th
// percentile lower than unscaled; on each model's largest batch (near or
// past the crossover) the scaled |error| within 10 points of the
// unscaled one's. The one evaluation (session 55, an H100 host, F
// 0.94-1.27): median 10.8% -> 7.8%, 90th percentile 20.9% -> 18.6%, max
// 35.7% -> 21.8%, no crossover point worse by more than 2.4 points
// (testdata/late100/RESULTS.md).
func TestLate100HostScaleBlind(t *testing.T) {
	ws := readTimedFile(t, "late100/timing/results.jsonl")
	groups := map[string][]measured.Timed{}
	var order []string
	for _, w := range ws {
		m := strings.SplitN(strings.TrimPrefix(w.Name, "late100-t-"), "-", 2)[0]
		if groups[m] == nil {
			order = append(order, m)
		}
		groups[m] = append(groups[m], w)
	}
	var before, after, solved, all0 []float64
	for _, m := range order {
		g := groups[m]
		if len(g) != 6 {
			t.Fatalf("%s: %d workloads, want 6", m, len(g))
		}
		cal := planStep(t, g[0].Spec, 0)
		f := g[0].StepS / cal.StepTime
		c, err := memmodel.CalibrateHost(context.Background(), g[0].Spec, g[0].StepS)
		if err != nil {
			t.Fatal(err)
		}
		all0 = append(all0, math.Abs(1/f-1))
		t.Logf("%s: F = %.1f ms / %.1f ms = %.2f (solved %.2f)", g[0].Name, 1e3*g[0].StepS, 1e3*cal.StepTime, f, c.HostScale)
		for i, w := range g[1:] {
			p0, p1 := planStep(t, w.Spec, 0).StepTime, planStep(t, w.Spec, f).StepTime
			e0, e1 := math.Abs(p0/w.StepS-1), math.Abs(p1/w.StepS-1)
			before, after = append(before, e0), append(after, e1)
			all0 = append(all0, e0)
			solved = append(solved, math.Abs(planStep(t, w.Spec, c.HostScale).StepTime/w.StepS-1))
			t.Logf("  %s: %.1f ms measured, planned %.1f (%+.1f%%), with host_scale %.1f (%+.1f%%)",
				w.Name, 1e3*w.StepS, 1e3*p0, 100*(p0/w.StepS-1), 1e3*p1, 100*(p1/w.StepS-1))
			if i == len(g)-2 && e1 > e0+0.10 {
				t.Errorf("%s (the crossover point): host_scale took |error| %.1f%% to %.1f%%", w.Name, 100*e0, 100*e1)
			}
		}
	}
	for _, e := range [][]float64{before, after, solved, all0} {
		sort.Float64s(e)
	}
	n := len(after)
	t.Logf("all %d steps unscaled (issue 14's first sight): median |error| %.1f%%, max %.1f%%; solved factor (--measured-step) on the 25: median %.1f%%, 90th percentile %.1f%%, max %.1f%%",
		len(all0), 100*all0[len(all0)/2], 100*all0[len(all0)-1], 100*solved[n/2], 100*solved[n*9/10], 100*solved[n-1])
	t.Logf("%d predictions: median |error| %.1f%% -> %.1f%%, 90th percentile %.1f%% -> %.1f%%, max %.1f%% -> %.1f%%",
		n, 100*before[n/2], 100*after[n/2], 100*before[n*9/10], 100*after[n*9/10], 100*before[n-1], 100*after[n-1])
	if after[n/2] > 0.10 || after[n/2] >= before[n/2] || after[n*9/10] >= before[n*9/10] {
		t.Errorf("the committed criteria fail")
	}
}

package main

import (
	"math"
	"testing"
)

// TestRegIncBeta checks I_x(a, b) against closed forms: I_x(1, 1) = x,
// I_x(a, 1) = x^a, I_x(1, b) = 1 − (1−x)^b, and the symmetry
// I_x(a, b) = 1 − I_{1−x}(b, a).
func TestRegIncBeta(t *testing.T) {
	for _, x := range []float64{0.01, 0.2, 0.5, 0.77, 0.99} {
		for _, c := range []struct{ a, b, want float64 }{
			{1, 1, x}, {3.5, 1, math.Pow(x, 3.5)}, {1, 0.85, 1 - math.Pow(1-x, 0.85)},
		} {
			if got := regIncBeta(x, c.a, c.b); math.Abs(got-c.want) > 1e-10 {
				t.Errorf("I_%g(%g, %g) = %g, want %g", x, c.a, c.b, got, c.want)
			}
		}
		if got, want := regIncBeta(x, 33.15, 0.85), 1-regIncBeta(1-x, 0.85, 33.15); math.Abs(got-want) > 1e-10 {
			t.Errorf("symmetry at %g: %g vs %g", x, got, want)
		}
	}
}

// TestHarrellDavis: the weights sum to one (a constant sample is its own
// quantile), the median of a symmetric sample is its centre, and the
// 97.5% estimate of 33 values lies below their maximum but above the
// order statistic one rank in, pulled toward the maximum.
func TestHarrellDavis(t *testing.T) {
	if got := harrellDavis([]float64{2, 2, 2, 2}, 0.975); math.Abs(got-2) > 1e-12 {
		t.Errorf("constant sample: %g", got)
	}
	if got := harrellDavis([]float64{-3, -1, 0, 1, 3}, 0.5); math.Abs(got) > 1e-12 {
		t.Errorf("symmetric median: %g", got)
	}
	zs := make([]float64, 33)
	for i := range zs {
		zs[i] = float64(i)
	}
	zs[32] = 100 // one far miss
	got := harrellDavis(zs, 0.975)
	if got >= 100 || got <= 31 {
		t.Errorf("97.5%% of 0..31 and 100: %g, want between 31 and 100", got)
	}
	// with 259 rows the order statistic is six in from the end: kept
	many := make([]float64, 259)
	for i := range many {
		many[i] = float64(i)
	}
	if b, o := levelBand(many, 0.95, true), orderBand(many, 0.95, true); b != o {
		t.Errorf("259 rows: %v, want the order statistics %v", b, o)
	}
	if b := levelBand(zs, 0.95, true); b[1] != got {
		t.Errorf("33 rows: top %g, want the Harrell–Davis %g", b[1], got)
	}
}

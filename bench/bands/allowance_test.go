package main

import (
	"github.com/vramkit/vramkit/bench/measured"
	"math"
	"testing"
)

// TestDeriveAllowanceSynthetic checks the derivation on rows whose misses
// are known: 40 rows the model predicts 1% low plus 10 MiB (an untraced
// segment and a proportional part), 10 exact. The smallest grid allowance
// that covers the 40 is 10 MiB + 1%; anything less leaves them all low,
// which is 80% of the rows.
func TestDeriveAllowanceSynthetic(t *testing.T) {
	var set []obs
	for i := 0; i < 40; i++ {
		m := float64(int64(1+i) << 30)
		set = append(set, obs{model: m, meas: m*1.01 + 10<<20})
	}
	for i := 0; i < 10; i++ {
		m := float64(int64(3+i) << 30)
		set = append(set, obs{model: m, meas: m})
	}
	a, _, ok := deriveAllowance(set, underTarget)
	if !ok {
		t.Fatal("no allowance found")
	}
	if a.Bytes != 10<<20 || a.Ratio != 0.01 {
		t.Errorf("allowance %d MiB + %.2f%%, want 10 MiB + 1%%", a.Bytes>>20, 100*a.Ratio)
	}
	if a.UnderBefore != 0.8 || a.UnderAfter != 0 || a.UnderLOO != 0 || a.Rows != 50 {
		t.Errorf("under %v -> %v (LOO %v) of %d rows, want 0.8 -> 0 (0) of 50", a.UnderBefore, a.UnderAfter, a.UnderLOO, a.Rows)
	}
}

// TestDeriveAllowanceNone: a model that is never low gets no allowance,
// and the median |error| is not made worse.
func TestDeriveAllowanceNone(t *testing.T) {
	var set []obs
	for i := 0; i < 30; i++ {
		m := float64(int64(1+i) << 30)
		set = append(set, obs{model: m, meas: m * (1 - 0.001*float64(i%5))})
	}
	a, _, ok := deriveAllowance(set, underTarget)
	if !ok || a.Bytes != 0 || a.Ratio != 0 {
		t.Errorf("allowance %+v, want none", a)
	}
}

// TestAllowanceOnHeldOutRows checks the committed derivation on the real
// held-out rows: the model alone is low on about half of them; with the
// allowance derived without each row in turn at most underTarget are,
// and the median |error| stays within issue 13's 3%.
func TestAllowanceOnHeldOutRows(t *testing.T) {
	if testing.Short() {
		t.Skip("predicts every capture")
	}
	mem, _, _, err := memorySamples(root, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	held := heldObs(mem, memKind)
	if len(held) < 80 {
		t.Fatalf("%d held-out training rows, want the sets' 90 or more", len(held))
	}
	a, limit, ok := deriveAllowance(held, underTarget)
	if !ok {
		t.Fatal("no allowance")
	}
	lu := looUnder(held, evalGrid(held), limit)
	t.Logf("%d MiB + %.2f%%: under %.0f%% -> %.0f%% (LOO %d of %d), median |err| %.2f%% -> %.2f%%",
		a.Bytes>>20, 100*a.Ratio, 100*a.UnderBefore, 100*a.UnderAfter, lu, len(held), 100*a.MedianAbsBefore, 100*a.MedianAbsAfter)
	// (session 22's replay fixes left the model low on 49.8% of 213 rows,
	// from 51%: still the share an allowance exists for; 40% is where
	// it would need rethinking)
	if a.UnderBefore < 0.4 {
		t.Errorf("the model alone is low on %.0f%% of the rows: the allowance's premise no longer holds", 100*a.UnderBefore)
	}
	if a.UnderLOO > underTarget || float64(lu) > underTarget*float64(len(held)) {
		t.Errorf("leave-one-out under-estimates %.0f%% (%d rows), want at most %.0f%%", 100*a.UnderLOO, lu, 100*underTarget)
	}
	if a.MedianAbsAfter > 0.03 {
		t.Errorf("median |error| with the allowance %.2f%%, over issue 13's 3%%", 100*a.MedianAbsAfter)
	}
	if math.Abs(a.UnderAfter-float64(score(held, a.Bytes, a.Ratio).under)/float64(len(held))) > 1e-3 {
		t.Errorf("recorded in-sample rate %v does not match the rows", a.UnderAfter)
	}
}

// TestChooseWithoutMatchesRescoring checks the shortcut looUnder takes
// (each grid point's figures less one row, from the whole set's) against
// scoring every grid point afresh on the set without the row, as the
// derivation did before: the same point, the same under-estimates and the
// same median |error| for every row left out, at several limits. The rows
// mix under- and over-estimates, ties and generate's cap.
func TestChooseWithoutMatchesRescoring(t *testing.T) {
	var set []obs
	for i := 0; i < 41; i++ {
		m := float64(int64(1+i%7)<<30) + float64(i)*(1<<20)
		e := 0.0007*float64((i*17)%41-20) - float64(i%3)*(2<<20)/m // distinct errors: some low by a segment, some over
		o := obs{model: m, meas: m * (1 - e)}
		if i%4 == 0 {
			o.maxOver = 0.01
		}
		set = append(set, o)
	}
	set = append(set, set[3], set[8]) // equal |errors|
	grid := evalGrid(set)
	for _, limit := range []float64{0, 0.05, 0.15, 0.3} {
		for i := range set {
			rest := append(append([]obs(nil), set[:i]...), set[i+1:]...)
			var want gridPoint
			found := false
			for _, r := range allowanceRatioGrid {
				for _, b := range allowanceBytesGrid {
					p := score(rest, b, r)
					if float64(p.under) > limit*float64(len(rest)) || p.pushed > 0 {
						continue
					}
					if !found || p.medAbs < want.medAbs {
						want, found = p, true
					}
				}
			}
			got, ok := choose(grid, len(set), i, limit)
			if ok != found || got != want {
				t.Fatalf("limit %v, row %d left out: shortcut %+v (%v), rescored %+v (%v)", limit, i, got, ok, want, found)
			}
		}
	}
}

// TestSortedMedianWithout: the median of a sorted list less one element,
// against median on the list rebuilt without it, for odd and even lengths.
func TestSortedMedianWithout(t *testing.T) {
	for _, s := range [][]float64{{1}, {1, 2}, {1, 2, 4}, {0.5, 1, 2, 4, 8, 9}, {1, 1, 2, 3, 5, 8, 13}} {
		if got, want := sortedMedian(s, -1), measured.Median(s); got != want {
			t.Errorf("%v: %v, want %v", s, got, want)
		}
		for k := range s {
			rest := append(append([]float64(nil), s[:k]...), s[k+1:]...)
			if got, want := sortedMedian(s, k), measured.Median(rest); got != want {
				t.Errorf("%v less [%d]: %v, want %v", s, k, got, want)
			}
		}
	}
}

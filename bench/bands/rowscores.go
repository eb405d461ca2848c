package main

import (
	"math"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// groupFit is what the rows of one left-out group (a capture set) are
// scored against: the other groups' errors, all of them (rest) and those
// each class counts (byClass), with the pooled centre and spread, and the
// centre and spread of each class shrunk toward it (classLS), computed
// once for the group: every row of the group asks for the same ones, and
// recomputing them per row and per class (a median over every other row
// each time) took a tenth of the band table's time.
type groupFit struct {
	rest    []float64
	byClass map[string][]float64
	pool    locScale
	// all is classLS of every row of the other groups
	all  locScale
	memo map[string]locScale
}

// newGroupFit is the groupFit of the other groups' errors rest and
// byClass.
func newGroupFit(rest []float64, byClass map[string][]float64) *groupFit {
	pool := robustLS(rest)
	return &groupFit{rest: rest, byClass: byClass, pool: pool, all: classLS(rest, pool), memo: map[string]locScale{}}
}

// class is classLS of class c's rows.
func (g *groupFit) class(c string) locScale {
	ls, ok := g.memo[c]
	if !ok {
		ls = classLS(g.byClass[c], g.pool)
		g.memo[c] = ls
	}
	return ls
}

// rowScores are the largest q_low and smallest q_high whose band would
// have covered a row of log error x (variant v, fixed-bytes shift f,
// classes cls) with the classes' centres and spreads taken from the other
// groups' rows: gf (all of them, and those each class counts), measured
// (each class's rows of any kind) and their split counts.
func rowScores(x, v, f float64, cls []string, gf *groupFit, measured map[string]int, split *memmodel.BandTable, minRows int, widenThin, sharedSpread bool) (lo, hi float64) {
	xh := x // the top is the variant's where the classes' split rate reaches it
	if v > 0 && split.SplitReach(cls).Reach {
		xh = x - v
	}
	lo, hi = math.Inf(-1), math.Inf(1)
	xl := x + f
	cover := func(ls locScale) {
		if sharedSpread {
			ls.s = gf.all.s
		}
		lo, hi = math.Max(lo, (xl-ls.m)/ls.s), math.Min(hi, (xh-ls.m)/ls.s)
	}
	used, thin := false, false
	for _, c := range cls {
		ys := gf.byClass[c]
		switch {
		case len(ys) == 0:
			thin = true
		case len(ys) < minRows && widenThin && measured[c] < minRows:
			// too few captures of the class at all: its band and the
			// pooled band widened, as for a class with none
			cover(gf.class(c))
			thin, used = true, true
		case len(ys) < minRows:
			cover(gf.class(c))
			cover(gf.all)
			used = true
		case 2*len(ys) <= len(gf.rest):
			cover(gf.class(c))
			used = true
		}
	}
	if !used {
		cover(gf.all)
	}
	if thin {
		// the pooled band widened by widenPooled is part of the envelope
		ls := gf.all
		up := (math.Log(math.Max(math.Exp(xh)-widenPooled, 1e-9)) - ls.m) / ls.s
		down := (math.Log(math.Exp(xl)+widenPooled) - ls.m) / ls.s
		lo, hi = math.Max(lo, down), math.Min(hi, up)
	}
	return lo, hi
}

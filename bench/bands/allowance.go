package main

import (
	"fmt"
	"github.com/vramkit/vramkit/bench/measured"
	"math"
	"sort"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// The allowance on peak reserved (memmodel.Allowance): the model is low on
// most held-out captures by a segment or two it does not trace, so the
// headline figure adds Bytes + Ratio × the model's figure, the smallest
// such allowance that leaves at most one capture in underTarget low. It is
// chosen on a small grid (Bytes a multiple of the allocator's 2 MiB
// segment, Ratio in quarter percents), among the grid points whose share
// of under-estimates is at most a limit the one with the smallest median
// |error|; the limit starts at the target and comes down until the choice,
// made again without each row in turn, under-estimates that row in at most
// the target's share of rows. The leave-one-out rate is what a new capture
// can expect; the in-sample rate alone would promise too much.

// genMaxOver is the largest over-estimate the allowance may push a
// generate capture to: issue 12 (resolved) holds generation's peak reserved
// within 8%, so for generate a grid point that lifts a held-out row from
// within 8% to above it is not a candidate. Training has no such cap: its
// rows near +8% are model errors of their own (late5's Whisper fp32
// +7.9%), and the under-estimate target comes first there.
const genMaxOver = 0.08

// underTarget is the largest leave-one-out share of under-estimates the
// allowance accepts: issue 13 asks for at most one in five; three in
// twenty leave a margin for workloads unlike the held-out ones.
const underTarget = 0.15

// allowanceBytesGrid and allowanceRatioGrid are the candidates. The
// untraced allocations are a segment or two of the caching allocator (a
// 2 MiB small-pool segment, a 20 MiB large-pool one), so the fixed part
// goes up to two large segments; more would be a guess at things the
// captures do not show, and would swamp small runs (64 MiB is 17% of a
// BERT-tiny step's reserved memory).
var (
	allowanceBytesGrid = func() []int64 {
		var g []int64
		for mib := int64(0); mib <= 40; mib += 2 {
			g = append(g, mib<<20)
		}
		return g
	}()
	allowanceRatioGrid = []float64{0, 0.0025, 0.005, 0.0075, 0.01, 0.0125, 0.015, 0.0175, 0.02}
)

// obs is one held-out row: the model's peak reserved and the measured one.
type obs struct {
	name        string
	model, meas float64
	maxOver     float64 // the over-estimate the allowance may not push it past; 0: none
}

// relErr is the signed relative error (pred−meas)/meas of o with the
// allowance (b, r).
func (o obs) relErr(b int64, r float64) float64 {
	pred := o.model + float64(memmodel.Allowance{Bytes: b, Ratio: r}.Of(int64(o.model)))
	return (pred - o.meas) / o.meas
}

// gridPoint is one candidate allowance and what it does to a set of rows.
type gridPoint struct {
	b      int64
	r      float64
	under  int
	medAbs float64
	pushed int // rows lifted above their maxOver by the allowance
}

// score is what (b, r) does to set.
func score(set []obs, b int64, r float64) gridPoint {
	p := gridPoint{b: b, r: r}
	abs := make([]float64, len(set))
	for i, o := range set {
		e := o.relErr(b, r)
		if e < 0 {
			p.under++
		}
		if o.maxOver > 0 && e > o.maxOver && o.relErr(0, 0) <= o.maxOver {
			p.pushed++
		}
		abs[i] = math.Abs(e)
	}
	p.medAbs = measured.Median(abs)
	return p
}

// gridEval is one grid point's errors on a set, computed once so that the
// choice without any one row (looUnder) needs no second pass over the set:
// the under-estimates, the rows pushed past their maxOver and the median
// |error| without row i follow from the whole set's (bench/bands spent
// half its run re-scoring every grid point on every row-left-out copy).
type gridEval struct {
	gridPoint
	neg, push []bool    // per row: under-estimated; pushed past its maxOver
	abs       []float64 // per row |error|
	sorted    []float64 // abs, sorted
}

// evalGrid scores every grid point on set, in choose's order.
func evalGrid(set []obs) []gridEval {
	var out []gridEval
	for _, r := range allowanceRatioGrid {
		for _, b := range allowanceBytesGrid {
			g := gridEval{gridPoint: gridPoint{b: b, r: r}, neg: make([]bool, len(set)), push: make([]bool, len(set)), abs: make([]float64, len(set))}
			for i, o := range set {
				e := o.relErr(b, r)
				g.neg[i] = e < 0
				g.push[i] = o.maxOver > 0 && e > o.maxOver && o.relErr(0, 0) <= o.maxOver
				if g.neg[i] {
					g.under++
				}
				if g.push[i] {
					g.pushed++
				}
				g.abs[i] = math.Abs(e)
			}
			g.sorted = append([]float64(nil), g.abs...)
			sort.Float64s(g.sorted)
			g.medAbs = sortedMedian(g.sorted, -1)
			out = append(out, g)
		}
	}
	return out
}

// without is the grid point's figures on its set less row i (i < 0: none
// left out), as score would compute them on that smaller set.
func (g gridEval) without(i int) gridPoint {
	if i < 0 {
		return g.gridPoint
	}
	p := g.gridPoint
	if g.neg[i] {
		p.under--
	}
	if g.push[i] {
		p.pushed--
	}
	// rows of equal |error| are interchangeable in the sorted order
	p.medAbs = sortedMedian(g.sorted, sort.SearchFloat64s(g.sorted, g.abs[i]))
	return p
}

// sortedMedian is median's value on sorted s less its element at skip
// (skip < 0: none).
func sortedMedian(s []float64, skip int) float64 {
	n := len(s)
	if skip >= 0 {
		n--
	}
	if n <= 0 {
		return 0
	}
	at := func(j int) float64 {
		if skip >= 0 && j >= skip {
			return s[j+1]
		}
		return s[j]
	}
	if n%2 == 1 {
		return at(n / 2)
	}
	return (at(n/2-1) + at(n/2)) / 2
}

// choose is the grid point with the smallest median |error| among those
// under-estimating at most limit of the set grid was evaluated on, less
// row skip (skip < 0: none), and pushing no row past its maxOver (ties:
// the earlier point, the smaller allowance); ok is false when none does.
func choose(grid []gridEval, n int, skip int, limit float64) (gridPoint, bool) {
	if skip >= 0 {
		n--
	}
	var best gridPoint
	found := false
	for _, g := range grid {
		p := g.without(skip)
		if float64(p.under) > limit*float64(n) || p.pushed > 0 {
			continue
		}
		if !found || p.medAbs < best.medAbs {
			best, found = p, true
		}
	}
	return best, found
}

// looUnder is how many rows of set are under-estimated by the allowance
// chosen (at limit) without them; grid is evalGrid(set).
func looUnder(set []obs, grid []gridEval, limit float64) int {
	n := 0
	for i, o := range set {
		p, ok := choose(grid, len(set), i, limit)
		if !ok || o.relErr(p.b, p.r) < 0 {
			n++
		}
	}
	return n
}

// deriveAllowance is the allowance of set at target (see the comment at the
// top of the file) and the in-sample limit it was chosen at; ok is false
// when the grid holds none that reaches the target.
func deriveAllowance(set []obs, target float64) (a memmodel.Allowance, limit float64, ok bool) {
	n := float64(len(set))
	if len(set) == 0 {
		return memmodel.Allowance{}, 0, false
	}
	grid := evalGrid(set)
	for k := int(math.Floor(target * n)); k >= 0; k-- {
		limit := float64(k) / n
		p, ok := choose(grid, len(set), -1, limit)
		if !ok {
			continue
		}
		lu := looUnder(set, grid, limit)
		if float64(lu) > target*n {
			continue
		}
		return allowanceRecord(set, p, target, lu), limit, true
	}
	return memmodel.Allowance{}, 0, false
}

// printAllowance shows the derivation: the grid's frontier (per Ratio the
// smallest Bytes at each share of under-estimates) and the choice.
func printAllowance(title string, set []obs, a memmodel.Allowance) {
	fmt.Printf("\n%s: %d held-out rows\n", title, len(set))
	fmt.Printf("%-10s %8s %8s %10s\n", "bytes", "ratio", "under", "med|err|")
	for _, r := range allowanceRatioGrid {
		last := -1
		for _, b := range allowanceBytesGrid {
			p := score(set, b, r)
			pct := int(math.Round(100 * float64(p.under) / float64(len(set))))
			if pct/5 == last {
				continue // one line per five points of under-estimates
			}
			last = pct / 5
			fmt.Printf("%4d MiB   %7.2f%% %7.0f%% %9.2f%%\n", b>>20, 100*r, 100*float64(p.under)/float64(len(set)), 100*p.medAbs)
		}
	}
	fmt.Printf("chosen: %d MiB + %.2f%% of the model's figure: under-estimates %.0f%% → %.0f%% (%.0f%% each row left out of the derivation), median |err| %.2f%% → %.2f%%\n",
		a.Bytes>>20, 100*a.Ratio, 100*a.UnderBefore, 100*a.UnderAfter, 100*a.UnderLOO, 100*a.MedianAbsBefore, 100*a.MedianAbsAfter)
	var low []string
	for _, o := range set {
		if o.relErr(a.Bytes, a.Ratio) < 0 {
			low = append(low, fmt.Sprintf("%s %+.2f%%", o.name, 100*o.relErr(a.Bytes, a.Ratio)))
		}
	}
	sort.Strings(low)
	fmt.Printf("still low with it (%d): %v\n", len(low), low)
}

// incumbentAllowance is the allowance of kind k in the committed table
// (the one memmodel embeds, which this run is about to replace); zero
// when it has none.
func incumbentAllowance(k kind) memmodel.Allowance {
	t := memmodel.EmbeddedBands()
	if k == genKind {
		if t.Generate == nil || t.Generate.Allowance == nil {
			return memmodel.Allowance{}
		}
		return *t.Generate.Allowance
	}
	return t.Allowance
}

// keepIncumbent keeps the committed allowance inc while it still meets
// the target on set: at most target of the rows under-estimated with it,
// none pushed past its maxOver. A fixed allowance is not re-chosen without
// a row, so its leave-one-out share is its in-sample one. The allowance
// moves every prediction of its kind; re-deriving it whenever a model
// change moves a few held-out rows would move them all for a gain in
// median |error| of a tenth of a percent (session 15: the ViT patch-conv
// workspaces turned two ViT rows from under to over, and the rule moved
// training's 14 MiB + 0.50% to 34 MiB + 0.25%, check.py's plan reserved
// max from 3.0% to 4.4%). It changes when it stops meeting the target.
func keepIncumbent(inc memmodel.Allowance, set []obs, target float64) (memmodel.Allowance, bool) {
	if inc.Rows == 0 || len(set) == 0 {
		return memmodel.Allowance{}, false
	}
	n := float64(len(set))
	p := score(set, inc.Bytes, inc.Ratio)
	if float64(p.under) > target*n || p.pushed > 0 {
		return memmodel.Allowance{}, false
	}
	return allowanceRecord(set, p, target, p.under), true
}

// allowanceRecord is grid point p as the table records it, with what it
// does to set against no allowance; lu is how many rows it leaves
// low when each is left out of the choice.
func allowanceRecord(set []obs, p gridPoint, target float64, lu int) memmodel.Allowance {
	n := float64(len(set))
	before := score(set, 0, 0)
	return memmodel.Allowance{Bytes: p.b, Ratio: p.r, Rows: len(set), Target: target,
		UnderBefore: round4(float64(before.under) / n), UnderAfter: round4(float64(p.under) / n),
		UnderLOO:        round4(float64(lu) / n),
		MedianAbsBefore: round4(before.medAbs), MedianAbsAfter: round4(p.medAbs)}
}

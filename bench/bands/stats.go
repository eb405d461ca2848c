package main

import (
	"github.com/vramkit/vramkit/bench/measured"
	"math"
	"sort"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// A band is a prediction interval for the next workload's log error
// x = ln(measured/predicted) in a class of workloads. Classes hold three
// to thirty rows, too few for a distribution-free interval of their own
// (the widest one n rows give, their minimum to their maximum, covers a
// new row with probability (n−1)/(n+1): 95% needs 39 rows). So each class
// keeps what it can estimate, its centre (the median: a class the model
// under-predicts is centred above zero, so its band's top is higher) and
// its spread (the median absolute deviation), and every class shares the
// shape of the error: the quantiles of the standardised errors
// z = (x − centre)/scale, pooled over every class and row. Each row is
// standardised by its class's centre and scale computed WITHOUT it (and
// shrunk toward the pooled ones as the class would be), so the pooled z
// carry the error of estimating a centre and a spread from few rows, and
// the order statistics of a few hundred z exist at 95%. This is split
// conformal prediction with a studentised score, the class estimates
// taken jackknife-style; bench/bands checks its coverage by leaving each
// row out of the whole computation in turn.

// priorRows is the weight, in rows, of the pooled centre and spread in a
// class's: a class of three rows does not claim to know its spread.
const priorRows = 4

// minScale is the smallest spread (in ln units) a class assumes: two runs
// of one workload differ by a segment or two of the caching allocator.
const minScale = 0.002

// locScale is a centre and spread of log errors.
type locScale struct{ m, s float64 }

// robustLS is the median and the median absolute deviation of xs.
func robustLS(xs []float64) locScale {
	m := measured.Median(xs)
	dev := make([]float64, len(xs))
	for i, x := range xs {
		dev[i] = math.Abs(x - m)
	}
	return locScale{m, measured.Median(dev)}
}

// classLS is the centre and spread of a class's rows xs shrunk toward the
// pooled pool with the weight of priorRows rows.
func classLS(xs []float64, pool locScale) locScale {
	n := float64(len(xs))
	own := pool
	if len(xs) > 0 {
		own = robustLS(xs)
	}
	m := (n*own.m + priorRows*pool.m) / (n + priorRows)
	s := math.Sqrt((n*own.s*own.s + priorRows*pool.s*pool.s) / (n + priorRows))
	return locScale{m, math.Max(s, minScale)}
}

// groups are the rows of each class (indices into the samples), and the
// pseudo-class "" holding every row (the pooled band).
type groups map[string][]int

// widenPooled is memmodel's widening of the pooled band for a class with
// too few rows (unmeasuredWiden), in ratio units.
const widenPooled = 0.10

// sharedQuantiles are the quantiles q (low, high) every class's band
// exp(centre + scale×q) uses, chosen so that the band plan gives each row
// (the envelope of its classes' bands, see memmodel.BandTable.Band) would
// have covered it at confidence conf had the row's capture set not been
// measured: for each row the smallest q_high and largest q_low that would
// have covered it, with every class's centre and scale computed without
// the rows of its group grp (its capture set; a group per row is the
// leave-one-row-out rule), and of these one score per row the order
// statistics at conf. Each row is scored on score (its first-sight error
// where one is recorded, see firstsight.go), its class estimates come
// from xs (the errors now). cls are the classes each row's band comes from, st
// those its error counts toward.
// vs are the rows' variants (sample.v): a row with one is scored on the
// high side against the variant's prediction, which is its band's top,
// and its error counts toward its classes as the residual resid leaves;
// vls the low variants (sample.vl), whose low side fs carries.
// widenThin says a class with fewer than minRows rows of any kind
// (technique rows count here, though their errors count toward their
// techniques) adds the pooled band widened by widenPooled (memory bands,
// memmodel's bandFor), not the pooled band itself (step time). spareLow
// gives the low side the order statistic an even split leaves unused
// (orderBand): peak reserved, the quantity fit decisions are made on.
// fs are the rows' sample.f: a row's low side is scored against the figure
// without the allowance's fixed bytes, where its band's low end is taken.
//
// Why the capture set and not the row: a new configuration comes with a
// new technique mix or family shape, and its error is shared by the runs
// of its set that have it (late10's Qwen3 all-linear LoRA, its SD UNet
// LoRA); with only the row left out, its set-mates still stand in its
// classes, and the bands came out narrower than the error on the next
// blind set (late10: 19 of 24 inside).
//
// sharedSpread says every class takes the pooled spread, keeping its own
// centre (step time: see fitSet).
//
// risk splits the rows by risk level (memmodel's BandTable.Risk): the
// quantiles of level l (out[l], levels of them) come from the scores of
// its own rows (nil risk: one level; a level without rows takes every
// row's).
//
// ckpt, when not nil, marks checkpointed rows: ckLow[l] is the low
// quantile of level l's checkpointed rows alone where they are at least
// minOwnLow (else NaN: the level's applies).
func sharedQuantiles(xs, score, vs, vls, fs []float64, cls, st [][]string, grp []int, risk []int, ckpt []bool, levels, minRows int, conf float64, widenThin, spareLow, sharedSpread bool) (out [][2]float64, ckLow []float64) {
	lows, highs := make([]float64, len(xs)), make([]float64, len(xs))
	members := map[int][]int{}
	var order []int
	for i, g := range grp {
		if _, ok := members[g]; !ok {
			order = append(order, g)
		}
		members[g] = append(members[g], i)
	}
	for _, g := range order {
		rest := make([]float64, 0, len(xs))
		byClass := map[string][]float64{}
		measured := map[string]int{} // rows of each class, technique rows too
		split := &memmodel.BandTable{Confidence: conf, MinRows: minRows, Classes: map[string]memmodel.ClassBand{}}
		for j, y := range xs {
			if grp[j] == g {
				continue
			}
			r := resid(y, vs[j], vls[j])
			rest = append(rest, r)
			for _, c := range st[j] {
				byClass[c] = append(byClass[c], r)
			}
			for _, c := range cls[j] {
				measured[c]++
			}
			if vs[j] <= 0 {
				continue
			}
			tech := memmodel.SplitTechnique(cls[j])
			for _, c := range append([]string{""}, cls[j]...) {
				cb := split.Classes[c]
				cb.SplitRows++
				if r != y {
					cb.SplitTaken++
				}
				if tech {
					cb.SplitTechRows++
					if r != y {
						cb.SplitTechTaken++
					}
				}
				split.Classes[c] = cb
			}
		}
		if sharedSpread {
			dropOneSetClasses(byClass, st, grp, g)
		}
		split.Pooled = split.Classes[""]
		gf := newGroupFit(rest, byClass)
		for _, i := range members[g] {
			lows[i], highs[i] = rowScores(score[i], vs[i], fs[i], cls[i], gf, measured, split, minRows, widenThin, sharedSpread)
		}
	}
	out = make([][2]float64, max(levels, 1))
	ckLow = make([]float64, len(out))
	for b := range out {
		var l, h, lc []float64
		for i := range xs {
			if (risk == nil && b == 0) || (risk != nil && risk[i] == b) {
				l, h = append(l, lows[i]), append(h, highs[i])
				if ckpt != nil && ckpt[i] {
					lc = append(lc, lows[i])
				}
			}
		}
		if len(l) == 0 { // an empty bucket takes the other's
			l, h = lows, highs
		}
		lo, hi := levelBand(l, conf, spareLow), levelBand(h, conf, spareLow)
		out[b] = [2]float64{lo[0], hi[1]}
		ckLow[b] = math.NaN()
		if len(lc) >= minOwnLow(conf) {
			ckLow[b] = levelBand(lc, conf, spareLow)[0]
		}
	}
	return out, ckLow
}

// minOwnLow is how many checkpointed rows a risk level needs for their
// own low quantile: the fewest whose lowest score, the least order
// statistic orderBand takes, leaves a new row below it with probability
// 1/(n+1) at most the whole band's miss share 1−conf (19 at 95%). With
// fewer, the level's low quantile over every row applies.
func minOwnLow(conf float64) int {
	return int(math.Ceil(1/(1-conf)-1e-9)) - 1
}

// resid is what is left of a row's log error x once its variant v (0:
// none) is allowed for: the error against whichever of the prediction
// and the variant's prediction is nearer the measurement. A row the
// variant explains (Gemma 2 checkpointed: measured 17.7% above the
// prediction, 0.05% from the variant) then counts toward its classes'
// centre and spread with the small error it has, not with the 17.7%.
//
// vl (≤ 0) is a row's low variant (sample.vl: DDP's release figure) and
// counts the same way: a run that let the buffer go counts with its
// error against the release figure.
func resid(x, v, vl float64) float64 {
	r := x
	if v > 0 && math.Abs(x-v) < math.Abs(r) {
		r = x - v
	}
	if vl < 0 && math.Abs(x-vl) < math.Abs(r) {
		r = x - vl
	}
	return r
}

// withVariant is a row's band (ratios measured/predicted) with its top
// raised to the variant's prediction times the same top ratio when the
// row has a variant v (ln variant/predicted).
func withVariant(b [2]float64, v float64) [2]float64 {
	if v > 0 {
		b[1] *= math.Exp(v)
	}
	return b
}

// orderBand is the interval [z_(kLo), z_(n+1−kHi)] of sorted zs: it
// covers a new exchangeable z with probability (n+1−kLo−kHi)/(n+1), at
// least conf when kLo+kHi ≤ (1−conf)(n+1). The top takes its half,
// kHi = ⌊(1−conf)/2·(n+1)⌋, and the bottom the rest of ⌊(1−conf)(n+1)⌋
// (at least 1 each) when spareLow: the order statistic the two floors
// would leave unused goes to the low side, whose misses are
// over-estimates, so the top every fit decision is made on is what an
// even split gives (without spareLow both sides take kHi).
func orderBand(zs []float64, conf float64, spareLow bool) [2]float64 {
	if len(zs) == 0 {
		return [2]float64{}
	}
	s := append([]float64(nil), zs...)
	sort.Float64s(s)
	n1 := float64(len(s) + 1)
	kHi := max(int(math.Floor((1-conf)/2*n1)), 1)
	kLo := kHi
	if spareLow {
		kLo = max(int(math.Floor((1-conf)*n1))-kHi, 1)
	}
	return [2]float64{s[min(kLo, len(s))-1], s[len(s)-kHi]}
}

// ratioBand is a class's band as ratios measured/predicted, at least
// minScale either side of its centre. The shared quantiles are set by the
// rare large errors of classes the model predicts closely (a 15% miss
// where the spread is 0.3%); a class whose own spread is wide has
// measured its extremes, so its band reaches no further than the pooled
// spread times q beyond the class's measured extremes xs (nil: no cap).
// Training memory only: on generate (session 7's models) the cap moved
// plan --fit's answers above the largest batch the GPU ran (infer's
// TestLateFit); step time's pooled spread (7%) puts it no nearer than the
// band.
func ratioBand(ls locScale, q [2]float64, xs []float64, pool locScale) [2]float64 {
	lo, hi := ls.m+ls.s*q[0], ls.m+ls.s*q[1]
	if len(xs) > 0 {
		mn, mx := xs[0], xs[0]
		for _, x := range xs {
			mn, mx = math.Min(mn, x), math.Max(mx, x)
		}
		margin := math.Max(pool.s, minScale) // allocated's pooled spread is a few hundredths of a percent
		lo, hi = math.Max(lo, mn+margin*q[0]), math.Min(hi, mx+margin*q[1])
	}
	lo, hi = math.Min(lo, ls.m-minScale), math.Max(hi, ls.m+minScale)
	return [2]float64{round4(math.Exp(lo)), round4(math.Exp(hi))}
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// errOf is the signed relative error (pred−meas)/meas of a log error.
func errOf(x float64) float64 { return math.Exp(-x) - 1 }

// errStats are the median signed and absolute relative errors of xs.
func errStats(xs []float64) (med, medAbs float64) {
	e, a := make([]float64, len(xs)), make([]float64, len(xs))
	for i, x := range xs {
		e[i] = errOf(x)
		a[i] = abs(e[i])
	}
	return round4(measured.Median(e)), round4(measured.Median(a))
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// dropOneSetClasses removes from byClass (the step-time classes of every
// row outside group g) the classes whose rows all come from one capture
// set: one set's rows share its host, whose speed moves a host-bound step
// by up to half (late60: six H100 rows 13-17% under on a slow host), so
// such a class's centre is that host's, not the class's. Its rows are
// scored against the class's other classes and the pooled rows instead.
func dropOneSetClasses(byClass map[string][]float64, st [][]string, grp []int, g int) {
	sets := map[string]map[int]bool{}
	for j, cs := range st {
		if grp[j] == g {
			continue
		}
		for _, c := range cs {
			if sets[c] == nil {
				sets[c] = map[int]bool{}
			}
			sets[c][grp[j]] = true
		}
	}
	for c := range byClass {
		if len(sets[c]) < 2 {
			delete(byClass, c)
		}
	}
}

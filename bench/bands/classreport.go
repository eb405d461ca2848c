package main

import (
	"fmt"
	"github.com/vramkit/vramkit/bench/measured"
	"math"
	"sort"
)

// The printed calculation: per class, its rows, coverage, width and the
// ratio of half-width to median error.

// classReport is one line of the printed calculation.
type classReport struct {
	key                string
	n, fitN, inside    int
	medErr, medAbs     float64
	band               [2]float64
	medHalf, ratio     float64
	centre, scale, pct float64
	// medOwn is the median half-width without the reach of rows'
	// variants (the class band alone); variants is how many rows have
	// one, reached how many the band's top reaches.
	medOwn            float64
	variants, reached int
	// floor is the least ratio any one band of the class could have had:
	// the half-width of the narrowest interval holding 90% of its rows'
	// errors, over their median |error| (in-sample: no derivation reaches
	// it with each row left out)
	floor float64
}

// floorRatio is classReport.floor of log errors xs.
func floorRatio(xs []float64, medAbs float64) float64 {
	if len(xs) == 0 || medAbs <= 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	k := int(math.Ceil(0.9 * float64(len(s))))
	best := math.Inf(1)
	for i := 0; i+k <= len(s); i++ {
		best = math.Min(best, (math.Exp(s[i+k-1])-math.Exp(s[i]))/2)
	}
	return best / medAbs
}

// report is the per-class calculation of a set: every class's n, median
// error, full-data band, and over its rows the leave-set-out band's
// median half-width, its ratio to the median |error|, and how many rows
// fell inside their leave-set-out band.
func report(ss []sample, f setFit, bands [][2]float64, reach []bool, step bool) []classReport {
	g := groups{}
	for i, s := range ss {
		g[""] = append(g[""], i)
		for _, c := range s.classes {
			g[c] = append(g[c], i)
		}
	}
	keys := make([]string, 0, len(g))
	for k := range g {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []classReport
	for _, k := range keys {
		cb := f.set.Pooled
		if k != "" {
			cb = f.set.Classes[k]
		}
		var xs []float64
		for _, i := range g[k] {
			xs = append(xs, ss[i].x)
		}
		r := classReport{key: k, n: len(g[k]), fitN: cb.N, band: cb.Reserved, centre: cb.Centre, scale: cb.Scale}
		r.medErr, r.medAbs = errStats(xs) // of every row of the class
		if step {
			r.band = cb.StepTime
		}
		if k == "" {
			r.key = "all rows (pooled band)"
		}
		var half, own []float64
		for _, i := range g[k] {
			b := bands[i]
			half = append(half, (b[1]-b[0])/2)
			top := b[1]
			if reach[i] {
				top /= math.Exp(ss[i].v)
				r.reached++
			}
			own = append(own, (top-b[0])/2)
			if ss[i].v > 0 {
				r.variants++
			}
			if ss[i].x >= logOf(b[0]) && ss[i].x <= logOf(b[1]) {
				r.inside++
			}
		}
		r.medHalf, r.medOwn = measured.Median(half), measured.Median(own)
		if r.medAbs > 0 {
			r.ratio = r.medHalf / r.medAbs
		}
		r.pct = float64(r.inside) / float64(r.n)
		r.floor = floorRatio(xs, r.medAbs)
		out = append(out, r)
	}
	return out
}

func printReport(title string, rs []classReport, minRows int) {
	fmt.Printf("\n%s\n", title)
	fmt.Printf("n: the class's rows; fit: the rows its centre and spread come from (technique rows count toward their technique)\n")
	fmt.Printf("var: rows with a variant (the logits-workspace split) / whose LSO band's top reaches it (LSO: its capture set left out); own half: the LSO half-width without that reach\n")
	fmt.Printf("floor: the least ratio one band could have (the narrowest interval holding 90%% of the class's errors, in-sample)\n")
	fmt.Printf("%-30s %4s %4s %8s %8s   %-17s %8s %6s %6s %7s %7s %8s  %s\n", "class", "n", "fit", "med err", "med|err|", "band (all rows)", "LSO half", "ratio", "floor", "LSO in", "var", "own half", "centre/scale")
	for _, r := range rs {
		flag := ""
		if r.fitN < minRows {
			flag = "  (too few rows alone: memory joins the pooled band widened by 10%, step time the pooled band)"
		}
		fmt.Printf("%-30s %4d %4d %+7.2f%% %7.2f%%   ×%.4f–×%.4f %7.2f%% %6.1f %6.1f %3d/%-3d %3d/%-3d %7.2f%%  %+.4f/%.4f%s\n", r.key, r.n, r.fitN, 100*r.medErr, 100*r.medAbs,
			r.band[0], r.band[1], 100*r.medHalf, r.ratio, r.floor, r.inside, r.n, r.variants, r.reached, 100*r.medOwn, r.centre, r.scale, flag)
	}
}

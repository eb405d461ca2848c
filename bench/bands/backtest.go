package main

import (
	"fmt"
	"github.com/vramkit/vramkit/bench/measured"
	"math"
	"sort"
	"strings"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// setGroup is the capture set a source directory belongs to, the unit the
// bands are derived and checked by leaving out: the directory under
// testdata (late10, heldout, captures), with a set's QLoRA/AdamW8bit
// companion folded into it (late10q into late10: captured and evaluated
// in the same session), so its families, oom, generate and timing rows
// go together.
func setGroup(dir string) string {
	parts := strings.Split(dir, "/")
	for i, p := range parts {
		if p == "testdata" && i+1 < len(parts) {
			g := parts[i+1]
			if strings.HasPrefix(g, "late") && strings.HasSuffix(g, "q") {
				g = strings.TrimSuffix(g, "q")
			}
			return g
		}
	}
	return dir
}

// allowanceOf derives the allowance of kind k (training or generate
// memory) from ss's held-out rows: at the under-estimate target, or where
// generate's cap makes it unreachable, the lowest share the capped grid
// reaches, in 5% steps.
func allowanceOf(ss []sample, k kind) (memmodel.Allowance, error) {
	held := heldObs(ss, k)
	for target := underTarget; target <= 0.6; target += 0.05 {
		if v, _, ok := deriveAllowance(held, target); ok {
			return v, nil
		}
	}
	return memmodel.Allowance{}, fmt.Errorf("no allowance on the grid keeps under-estimates at %.0f%%", 100*underTarget)
}

// leaveSetOut is each row's band when its whole capture set was left out
// of the whole computation, the allowance included: the band the table
// would have printed for it before the set was captured. bySet chooses
// the rule the table is fitted with (fitSet). The top is raised for a
// row's variant where its classes' split rate reaches it, as plan raises
// it (memmodel's bandsFrom); reach says which rows' tops were raised.
func leaveSetOut(ss []sample, k kind, minRows int, conf float64, bySet bool) (out [][2]float64, reach []bool, err error) {
	out, reach = make([][2]float64, len(ss)), make([]bool, len(ss))
	byGroup := map[string][]int{}
	for i, s := range ss {
		byGroup[s.group] = append(byGroup[s.group], i)
	}
	for g, idx := range byGroup {
		var rest []sample
		for _, s := range ss {
			if s.group != g {
				rest = append(rest, s)
			}
		}
		left := make([]sample, len(idx))
		for j, i := range idx {
			left[j] = ss[i]
		}
		if k != stepKind {
			// the allowance as the rule derives it without the set
			a, err := allowanceOf(rest, k)
			if err != nil {
				return nil, nil, fmt.Errorf("without %s: %w", g, err)
			}
			for j := range rest {
				rest[j].calibrate(a)
			}
			for j := range left {
				left[j].calibrate(a)
			}
		}
		t := &memmodel.BandTable{Confidence: conf, MinRows: minRows, Quantiles: map[string][2]float64{}}
		place(t, k, fitSet(rest, minRows, conf, bySet, k != stepKind, k == stepKind, k == memKind))
		for j, i := range idx {
			s := left[j]
			b, _ := bandOf(t, k, s)
			b[0] *= math.Exp(-s.f) // the low end from the figure without the fixed bytes
			if s.v > 0 && t.SplitReach(s.classes).Reach {
				b, reach[i] = withVariant(b, s.v), true
			}
			// as a ratio to the figure the full table's allowance gives,
			// so that the row's x (calibrated with it) compares
			shift := math.Exp(ss[i].x - s.x) // pred_without/pred_full
			out[i] = [2]float64{b[0] * shift, b[1] * shift}
		}
	}
	return out, reach, nil
}

// backtestLine is one capture set's figures in the backtest.
type backtestLine struct {
	group            string
	n, before, after int
	// of the rows with a first-sight record, how many; how many of
	// their first-sight errors fell inside each band
	nb, blindBefore, blindAfter int
	halfBefore, halfAfter       float64 // median half-width of the bands (ratio units)
	medAbs                      float64 // median |error|
	// fsRatio is the first-sight rows' median half-width (this table's
	// rule) over their median |error| at first sight
	fsRatio float64
}

// backtest is, per capture set, how many of its rows fell inside the band
// the table would have printed for them had the set not been captured,
// with the leave-one-row-out rule (before) and with the leave-one-set-out
// rule (after), and the median half-widths and |error|; the last line is
// every row.
func backtest(ss []sample, before, after [][2]float64) []backtestLine {
	by := map[string][]int{}
	for i, s := range ss {
		by[s.group] = append(by[s.group], i)
	}
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return setOrder(keys[i]) < setOrder(keys[j]) })
	all := make([]int, len(ss))
	for i := range all {
		all[i] = i
	}
	var out []backtestLine
	for _, g := range append(keys, "all") {
		idx := by[g]
		if g == "all" {
			idx = all
		}
		l := backtestLine{group: g, n: len(idx)}
		var hb, ha, ab, fh, fa []float64
		for _, i := range idx {
			x := ss[i].x
			if x >= logOf(before[i][0]) && x <= logOf(before[i][1]) {
				l.before++
			}
			if x >= logOf(after[i][0]) && x <= logOf(after[i][1]) {
				l.after++
			}
			if s := ss[i]; s.blind {
				l.nb++
				fh, fa = append(fh, (after[i][1]-after[i][0])/2), append(fa, math.Abs(errOf(s.xb)))
				if s.xb >= logOf(before[i][0]) && s.xb <= logOf(before[i][1]) {
					l.blindBefore++
				}
				if s.xb >= logOf(after[i][0]) && s.xb <= logOf(after[i][1]) {
					l.blindAfter++
				}
			}
			hb, ha = append(hb, (before[i][1]-before[i][0])/2), append(ha, (after[i][1]-after[i][0])/2)
			ab = append(ab, math.Abs(errOf(x)))
		}
		l.halfBefore, l.halfAfter, l.medAbs = measured.Median(hb), measured.Median(ha), measured.Median(ab)
		if m := measured.Median(fa); m > 0 {
			l.fsRatio = measured.Median(fh) / m
		}
		out = append(out, l)
	}
	return out
}

// capturedAfter places a set that is not a late set after the late set
// captured before it: pick3 was timed in session 9 after late12 (pick4
// in session 10 after late13, pick5 in session 11's call 39 after
// late14's call 38; pick6 in session 13's call 44 after late16's call
// 43; pick7 in session 14's call 49 after late17's calls 47-48, beside
// late18; pick8 in session 15's call 52 after late19's call 51; pick9 in
// session 20's call 78 after late35's call 77), so its
// rows are no record of what plan knew when late12 (or any
// earlier set) was first seen (markRisk). late45 likewise: its job list
// is session 23's, but no two-GPU machine ran it before session 26's call
// 93, after late50's call 103. pick10 was timed in session 27's call 110
// after late55's call 109.
var capturedAfter = map[string]string{"pick3": "late12", "pick4": "late13", "pick5": "late14", "pick6": "late16", "pick7": "late18", "pick8": "late19", "pick9": "late35", "late45": "late50", "pick10": "late55"}

// setOrder sorts capture sets: the development and held-out sets first,
// then the late sets in the order they were captured.
func setOrder(g string) string {
	if after, ok := capturedAfter[g]; ok {
		return setOrder(after) + "+" + g
	}
	n := 0
	if rest, ok := strings.CutPrefix(g, "late"); ok {
		n = 1
		if rest != "" {
			fmt.Sscan(rest, &n)
		}
		return fmt.Sprintf("1%03d", n)
	}
	return "0" + g
}

func printBacktest(title string, ls []backtestLine) {
	fmt.Printf("\nbacktest, %s: each capture set left out of the whole computation (allowance, quantiles, classes)\n", title)
	fmt.Printf("before: session 7's rule (each row left out alone, scored on its error now); after: this table's rule\n")
	fmt.Printf("inside: the error now inside the band; at first sight: the error plan printed then (rows with a record)\n")
	fmt.Printf("ratio: half aft. over med|err| (errors now); fs ratio: the same over the first-sight errors of the rows that have one\n")
	fmt.Printf("%-10s %5s %15s %15s %18s %10s %10s %9s %7s %8s\n", "set", "rows", "inside before", "inside after", "first sight b/a", "half bef.", "half aft.", "med|err|", "ratio", "fs ratio")
	for _, l := range ls {
		ratio := 0.0
		if l.medAbs > 0 {
			ratio = l.halfAfter / l.medAbs
		}
		fs := "-"
		if l.nb > 0 {
			fs = fmt.Sprintf("%d/%d of %d", l.blindBefore, l.blindAfter, l.nb)
		}
		fmt.Printf("%-10s %5d %6d (%3.0f%%) %6d (%3.0f%%) %18s %9.2f%% %9.2f%% %8.2f%% %7.1f %8.1f\n", l.group, l.n,
			l.before, 100*float64(l.before)/float64(l.n), l.after, 100*float64(l.after)/float64(l.n), fs,
			100*l.halfBefore, 100*l.halfAfter, 100*l.medAbs, ratio, l.fsRatio)
	}
}

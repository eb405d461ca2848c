package main

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// kindsOf is the record of each configuration kind (memmodel.BandKind)
// among ss: its rows, its rows with a first-sight error, and the largest
// of those errors (relative, unsigned).
func kindsOf(ss []sample) map[string]memmodel.KindRecord {
	out := map[string]memmodel.KindRecord{}
	for _, s := range ss {
		k := memmodel.BandKind(s.classes)
		r := out[k]
		r.Rows++
		if s.blind {
			r.Blind++
			r.FirstSightMiss = math.Max(r.FirstSightMiss, round4(math.Abs(errOf(s.xb))))
		}
		out[k] = r
	}
	return out
}

// riskLevels is how many risk levels memmodel's BandTable.Risk gives.
const riskLevels = 3

// markRisk sets each blind row's risk as plan would have judged it when
// the row was first seen: memmodel's BandTable.Risk on the kinds of the
// rows of the sets captured before the row's own (setOrder; the
// development sets come before every late set). A row without a
// first-sight error is scored on the error of models fitted to it, which
// is not a first sight: it is at level 0.
func markRisk(ss []sample) {
	byOrder := map[string][]sample{}
	for _, s := range ss {
		o := setOrder(s.group)
		byOrder[o] = append(byOrder[o], s)
	}
	tables := map[string]*memmodel.BandTable{}
	for i, s := range ss {
		if !s.blind {
			ss[i].risk = 0
			continue
		}
		o := setOrder(s.group)
		t, ok := tables[o]
		if !ok {
			var earlier []sample
			for eo, es := range byOrder {
				if eo < o {
					earlier = append(earlier, es...)
				}
			}
			t = &memmodel.BandTable{Kinds: kindsOf(earlier)}
			tables[o] = t
		}
		ss[i].risk, _ = t.Risk(s.classes)
	}
}

// riskLine is one risk level's first-sight figures in the backtest.
type riskLine struct {
	level, n, inside int
	// medHalf is the median half-width of the level's leave-set-out
	// bands, medAbs the median |first-sight error| (ratio units)
	medHalf, medAbs float64
	// floor is floorRatio of the first-sight errors: the least ratio any
	// band could have had on them
	floor float64
}

// riskSummary is, per risk level and for all levels together (level −1),
// how many blind rows' first-sight errors fell inside the band their
// capture set left out gave them, and the median half-width against the
// median |error|: issue 18's acceptance, per level.
func riskSummary(ss []sample, bands [][2]float64) []riskLine {
	var out []riskLine
	for l := -1; l < riskLevels; l++ {
		r := firstSight(ss, bands, func(s sample) bool { return l < 0 || s.risk == l })
		r.level = l
		out = append(out, r)
	}
	return out
}

// firstSight is, over the blind rows of ss that keep holds, how many
// first-sight errors fell inside the band their capture set left out gave
// them (bands), the median half-width and the median |first-sight error|.
func firstSight(ss []sample, bands [][2]float64, keep func(sample) bool) riskLine {
	var r riskLine
	var half, abs, xs []float64
	for i, s := range ss {
		if !s.blind || !keep(s) {
			continue
		}
		r.n++
		if s.xb >= logOf(bands[i][0]) && s.xb <= logOf(bands[i][1]) {
			r.inside++
		}
		half, abs = append(half, (bands[i][1]-bands[i][0])/2), append(abs, math.Abs(errOf(s.xb)))
		xs = append(xs, s.xb)
	}
	r.medHalf, r.medAbs = measured.Median(half), measured.Median(abs)
	r.floor = floorRatio(xs, r.medAbs)
	return r
}

// acceptanceLine is one class of issue 18's acceptance table.
type acceptanceLine struct {
	class string
	riskLine
}

// acceptance is issue 18's acceptance per class of workload, on the blind
// rows' first-sight errors against the bands their capture sets left out
// gave them: training peak reserved (every row, each risk level, QLoRA,
// LoRA on extended targets), generate's peak reserved and step time.
// bands holds each kind's leave-set-out bands (indexed like its samples).
func acceptance(mem, gen, step []sample, bands map[kind][][2]float64) []acceptanceLine {
	has := func(c string) func(sample) bool {
		return func(s sample) bool {
			for _, x := range s.classes {
				if x == c {
					return true
				}
			}
			return false
		}
	}
	all := func(sample) bool { return true }
	var out []acceptanceLine
	add := func(name string, ss []sample, k kind, keep func(sample) bool) {
		if b, ok := bands[k]; ok {
			out = append(out, acceptanceLine{name, firstSight(ss, b, keep)})
		}
	}
	add("training reserved, all", mem, memKind, all)
	for l := 0; l < riskLevels; l++ {
		add(fmt.Sprintf("training reserved, risk %d", l), mem, memKind, func(s sample) bool { return s.risk == l })
	}
	for l := 0; l < riskLevels; l++ {
		for _, ck := range []bool{true, false} {
			name := fmt.Sprintf("training reserved, risk %d, plain", l)
			if ck {
				name = fmt.Sprintf("training reserved, risk %d, checkpointed", l)
			}
			add(name, mem, memKind, func(s sample) bool { return s.risk == l && memmodel.Checkpointed(s.classes) == ck })
		}
	}
	add("training reserved, QLoRA", mem, memKind, has("lora=qlora"))
	add("training reserved, LoRA extended", mem, memKind, has("lora_targets=extended"))
	add("generate reserved", gen, genKind, all)
	add("step time", step, stepKind, all)
	// the class of the GPU: measured (the H200 the rates were
	// calibrated on) or scaled from the GPU table (every other)
	h200 := has("gpu=h200")
	add("step time, measured GPU (H200)", step, stepKind, h200)
	add("step time, scaled GPU", step, stepKind, func(s sample) bool { return !h200(s) })
	for l, name := range []string{"GPU-bound", "near host-bound", "host-bound"} {
		add("step time, "+name, step, stepKind, func(s sample) bool { return s.risk == l })
	}
	// by the classes of workload (family kind, precision,
	// checkpointing, LoRA, parallelism), those with 20 blind rows: training
	// memory, and the measured GPU's step times
	for _, c := range workloadClasses(mem, all) {
		add("training reserved, "+c, mem, memKind, has(c))
	}
	for _, c := range workloadClasses(step, h200) {
		add("step time, H200, "+c, step, stepKind, func(s sample) bool { return h200(s) && has(c)(s) })
	}
	return out
}

// workloadClasses are the classes of issue 18's dimensions that 20 or
// more blind rows of ss passing keep hold, sorted.
func workloadClasses(ss []sample, keep func(sample) bool) []string {
	n := map[string]int{}
	for _, s := range ss {
		if s.blind && keep(s) {
			for _, c := range s.classes {
				n[c]++
			}
		}
	}
	var cs []string
	for c, k := range n {
		for _, dim := range []string{"kind=", "precision=", "checkpoint=", "lora=", "parallel="} {
			if k >= 20 && strings.HasPrefix(c, dim) {
				cs = append(cs, c)
			}
		}
	}
	sort.Strings(cs)
	return cs
}

func printAcceptance(ls []acceptanceLine) {
	fmt.Printf("\nissue 18's acceptance at first sight (blind rows; each capture set left out of the whole computation)\n")
	fmt.Printf("floor: the least ratio any band could have had on these first-sight errors (the narrowest interval\n")
	fmt.Printf("holding 90%% of them, in-sample): above 3, no band of the class meets the ratio at 90%% coverage\n")
	fmt.Printf("%-44s %5s %14s %10s %10s %7s %6s\n", "class", "rows", "inside", "med half", "med|err|", "ratio", "floor")
	for _, l := range ls {
		ratio := 0.0
		if l.medAbs > 0 {
			ratio = l.medHalf / l.medAbs
		}
		fmt.Printf("%-44s %5d %6d (%3.0f%%) %9.2f%% %9.2f%% %7.1f %6.1f\n", l.class, l.n, l.inside, 100*float64(l.inside)/float64(max(l.n, 1)), 100*l.medHalf, 100*l.medAbs, ratio, l.floor)
	}
}

func printRiskSummary(ls []riskLine) {
	fmt.Printf("\nfirst sight by risk level (memmodel's BandTable.Risk as of the sets captured before each row; each set left out)\n")
	fmt.Printf("%-8s %5s %14s %10s %10s %7s\n", "level", "rows", "inside", "med half", "med|err|", "ratio")
	for _, l := range ls {
		name := fmt.Sprint(l.level)
		if l.level < 0 {
			name = "all"
		}
		ratio := 0.0
		if l.medAbs > 0 {
			ratio = l.medHalf / l.medAbs
		}
		fmt.Printf("%-8s %5d %6d (%3.0f%%) %9.2f%% %9.2f%% %7.1f\n", name, l.n, l.inside, 100*float64(l.inside)/float64(max(l.n, 1)), 100*l.medHalf, 100*l.medAbs, ratio)
	}
}

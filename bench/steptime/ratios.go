package main

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"

	"github.com/vramkit/vramkit/bench/measured"
)

// Issue 14 asks every technique ratio (checkpointing vs not, AMP vs fp32,
// LoRA vs full, accumulation vs a larger batch) within 10%. Two things
// decide whether a ratio can be: whether the walk finds both steps
// GPU-bound (their ratio is then a ratio of kernel times, which the
// calibration fixes), and how far the measured ratio itself moves when
// the same pair is timed again in another process or on another lent host.
// ratioReport prints both: the pairs by bound, and the spread of the
// measured ratio over the configurations timed more than once.

// boundOf classifies a pair by the walk's prediction of its two steps:
// "GPU-bound" when both steps' modelled GPU time is at least their host
// issue time, else "host-bound" (either step).
func boundOf(v, b measured.StepRow) string {
	if v.HostS <= v.GPUS && b.HostS <= b.GPUS {
		return "GPU-bound"
	}
	return "host-bound"
}

// procedure names how a pair's two steps were timed: "alternated" step by
// step in one process, or "in blocks" (each configuration's steps
// together, in its own process or one after another), where the host's
// drift between the blocks is part of the measured ratio.
func procedure(v, b measured.StepRow) string {
	if v.Alternated && b.Alternated {
		return "alternated"
	}
	return "in blocks"
}

// pairKey names a technique pair independent of the set it was timed in.
func pairKey(p measured.TechniquePair) string {
	return p.Kind + " " + measured.ConfigName(p.Num) + " / " + measured.ConfigName(p.Den)
}

// tally is the technique pairs of one class: how many, how many within
// 10% of the plan, and their signed ratio errors.
type tally struct {
	n, within int
	errs      []float64
}

// add counts pair p in m's class k.
func (m classTallies) add(k string, p measured.TechniquePair) {
	if m[k] == nil {
		m[k] = &tally{}
	}
	m[k].n++
	m[k].errs = append(m[k].errs, p.Err())
	if math.Abs(p.Err()) <= 0.10 {
		m[k].within++
	}
}

// printTallies prints m's classes in name order, each with its signed
// error quartiles, the names padded to width.
func printTallies(m classTallies, width int) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		t := m[k]
		sort.Float64s(t.errs)
		fmt.Printf("  %-*s %4d pairs, %4d within 10%% (%.0f%%), signed error quartiles %+.1f%% %+.1f%% %+.1f%%\n",
			width, k, t.n, t.within, pct(t.within, t.n), 100*quantile(t.errs, 0.25), 100*quantile(t.errs, 0.5), 100*quantile(t.errs, 0.75))
	}
}

// classTallies is tallies by class name ("amp, host-bound", "amp, h100").
type classTallies map[string]*tally

// tallyPairs sorts ev's technique pairs by technique and the walk's bound,
// and the host-bound ones by technique, the GPU whose host timed them and
// the procedure;
// repeats holds each configuration's measured ratios under each procedure
// and bound the bound (host-bound ones with the procedure) of its first
// timing.
func tallyPairs(ev measured.StepEval) (byBound, byGPU classTallies, repeats map[string][]float64, bound map[string]string) {
	rows := ev.RowsByName()
	byBound, byGPU = classTallies{}, classTallies{}
	repeats, bound = map[string][]float64{}, map[string]string{}
	for _, p := range ev.Pairs {
		v, okV := rows[p.Num]
		b, okB := rows[p.Den]
		if !okV || !okB {
			continue
		}
		byBound.add(p.Kind+", "+boundOf(v, b), p)
		if boundOf(v, b) == "host-bound" {
			byGPU.add(p.Kind+", "+v.GPU+", "+procedure(v, b), p)
		}
		// a configuration's repeats are compared within one procedure
		key, cls := pairKey(p)+" ("+procedure(v, b)+")", boundOf(v, b)
		if cls == "host-bound" {
			cls += ", " + procedure(v, b)
		}
		repeats[key] = append(repeats[key], p.Measured)
		if _, ok := bound[key]; !ok {
			bound[key] = cls
		}
	}
	return byBound, byGPU, repeats, bound
}

// ratioReport prints issue 14's ratio criterion per bound class and the
// measured ratios' own repeat spread.
func ratioReport(ev measured.StepEval) {
	by, byGPU, repeats, bound := tallyPairs(ev)
	fmt.Printf("technique ratios by the walk's bound (both steps GPU-bound, or either host-bound):\n")
	printTallies(by, 28)
	// the lent H100s and H200s are different machines: a host-bound
	// ratio is the host's as much as the plan's
	fmt.Printf("host-bound technique ratios by the GPU whose host timed them, alternated step by step or timed in blocks:\n")
	printTallies(byGPU, 28)
	if k := kindTallies(ev); len(k) > 0 {
		fmt.Printf("alternated technique ratios by the kind of model:\n")
		printTallies(k, 36)
	}
	// the measured ratio's own spread: each repeat against its
	// configuration's median, by the bound of its first timing
	for _, cls := range []string{"GPU-bound", "host-bound, alternated", "host-bound, in blocks"} {
		var dev []float64
		off := 0
		for key, ms := range repeats {
			if len(ms) < 2 || bound[key] != cls {
				continue
			}
			s := append([]float64(nil), ms...)
			sort.Float64s(s)
			med := s[len(s)/2]
			if len(s)%2 == 0 {
				med = (s[len(s)/2-1] + s[len(s)/2]) / 2
			}
			for _, m := range ms {
				d := m/med - 1
				dev = append(dev, d)
				if math.Abs(d) > 0.10 {
					off++
				}
			}
		}
		if len(dev) == 0 {
			continue
		}
		st := measured.Summarize(dev)
		fmt.Printf("measured %s ratios timed more than once: %d timings, |deviation| from their configuration's median: median %.1f%%, max %.1f%%, %d beyond 10%% (%.0f%%)\n",
			cls, len(dev), 100*st.MedianAbs, 100*st.MaxAbs, off, pct(off, len(dev)))
	}
}

// quantile is the q-quantile of sorted xs by linear interpolation.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	pos := q * float64(len(xs)-1)
	i := int(pos)
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[i] + (pos-float64(i))*(xs[i+1]-xs[i])
}

// kindTallies sorts ev's alternated technique pairs (both rows timed step
// by step in one process, the host's drift taken out) by technique and the
// kind of model the plan gives the variant (measured.StepRow.ModelKind):
// an error a kind of model shares, where the others are centred, is the
// kind's and not one price of the step's (session 59: the compiled ResNets
// against the EfficientNets, the checkpointed transformers against the
// CNNs). Pairs whose rows the evaluation lacks are left out.
func kindTallies(ev measured.StepEval) classTallies {
	rows := ev.RowsByName()
	out := classTallies{}
	for _, p := range ev.Pairs {
		v, okV := rows[p.Num]
		b, okB := rows[p.Den]
		if !okV || !okB || procedure(v, b) != "alternated" {
			continue
		}
		k := v.ModelKind
		if k == "" {
			k = "other"
		}
		out.add(p.Kind+", "+k, p)
	}
	return out
}

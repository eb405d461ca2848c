package main

import (
	"fmt"
	"math"

	"github.com/vramkit/vramkit/bench/measured"
)

// alternatedReport prints, for each technique pair of ev whose two rows
// alternated step by step in one process (gt_alternate.py), the measured
// ratio on the first half of the timed rounds and on the second, and how
// far the two halves disagree: the floor to which a predicted ratio can
// be checked on that pair, with the host's speed between processes
// already taken out. Sets without alternated rows print nothing; with
// perPair false only the summary line is printed.
func alternatedReport(ws []measured.Timed, ev measured.StepEval, perPair bool) {
	rows := map[string]measured.Timed{}
	for _, w := range ws {
		if len(w.Rounds) > 0 {
			rows[w.Name] = w
		}
	}
	if len(rows) == 0 {
		return
	}
	var gaps, errs []float64
	within := 0
	if perPair {
		fmt.Printf("alternated pairs (the measured ratio the median of the rounds'): the ratio on the first and second half of the rounds, and the plan's error\n")
	}
	for _, p := range ev.Pairs {
		a, okA := rows[p.Num]
		b, okB := rows[p.Den]
		if !okA || !okB {
			continue
		}
		h1, h2, err := measured.HalvesRatio(a, b)
		if err != nil {
			fmt.Printf("  %s: %v\n", p.Num, err)
			continue
		}
		gap := math.Abs(h1/h2 - 1)
		gaps, errs = append(gaps, gap), append(errs, p.Err())
		if math.Abs(p.Err()) <= 0.10 {
			within++
		}
		if !perPair {
			continue
		}
		fmt.Printf("  %-13s %-44s %.3f, halves %.3f %.3f (%4.1f%% apart)  planned %.3f (%+.1f%%)\n",
			p.Kind, p.Num, p.Measured, h1, h2, 100*gap, p.Predicted, 100*p.Err())
	}
	if len(gaps) == 0 {
		return
	}
	g, e := measured.Summarize(gaps), measured.Summarize(errs)
	fmt.Printf("alternated pairs: %d, halves apart by a median %.1f%% (max %.1f%%); plan's ratio error median |%.1f%%| (max %.1f%%), %d within 10%%\n",
		len(gaps), 100*g.MedianAbs, 100*g.MaxAbs, 100*e.MedianAbs, 100*e.MaxAbs, within)
}

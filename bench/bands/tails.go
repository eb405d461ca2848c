package main

import (
	"fmt"
	"strings"
)

// tailLine is, for the blind rows of one risk level and checkpointing
// class, on which side their first-sight errors left the band their
// capture set left out gave them: below its bottom (the model over
// predicted by more than the band allows) or above its top.
type tailLine struct {
	level       int
	class       string
	n           int
	below       int
	above       int
	belowNames  []string
	overPredict int // rows whose measured value was below the prediction
}

// tails splits each risk level's first-sight misses (and every level's,
// level −1) by side and by checkpointing: an order-statistic band at 95%
// leaves about 2.5% of rows past each end, so a class whose rows leave by
// one side far more often says that end of its band is too tight.
func tails(ss []sample, bands [][2]float64) []tailLine {
	var out []tailLine
	for l := -1; l < riskLevels; l++ {
		for _, c := range []string{"checkpoint=block", "checkpoint=none"} {
			tl := tailLine{level: l, class: c}
			for i, s := range ss {
				if !s.blind || (l >= 0 && s.risk != l) || !hasClass(s.classes, c) {
					continue
				}
				tl.n++
				if s.xb < 0 {
					tl.overPredict++
				}
				switch {
				case s.xb < logOf(bands[i][0]):
					tl.below++
					tl.belowNames = append(tl.belowNames, fmt.Sprintf("%s %+.2f%%", s.name, 100*errOf(s.xb)))
				case s.xb > logOf(bands[i][1]):
					tl.above++
				}
			}
			out = append(out, tl)
		}
	}
	return out
}

func hasClass(classes []string, c string) bool {
	for _, x := range classes {
		if x == c {
			return true
		}
	}
	return false
}

func printTails(ls []tailLine) {
	fmt.Printf("\nfirst-sight misses by side (blind rows; each set left out): below the bottom = the model over-predicted past the band\n")
	fmt.Printf("%-6s %-17s %5s %6s %13s %13s  %s\n", "level", "class", "rows", "over", "below bottom", "above top", "below")
	for _, l := range ls {
		lv := "all"
		if l.level >= 0 {
			lv = fmt.Sprint(l.level)
		}
		pct := func(k int) string { return fmt.Sprintf("%d (%4.1f%%)", k, 100*float64(k)/float64(max(l.n, 1))) }
		fmt.Printf("%-6s %-17s %5d %6d %13s %13s  %s\n", lv, l.class, l.n, l.overPredict, pct(l.below), pct(l.above), strings.Join(l.belowNames, "; "))
	}
}

package main

import (
	"math"
	"testing"
)

// TestTails counts first-sight misses by side on rows whose bands are
// ×0.98…×1.02: a checkpointed level-0 run measured 3% below its prediction
// (ln 0.97, below the bottom), one 1% below (inside), a plain level-0 run
// 3% above (above the top), a checkpointed level-1 run below; a row with
// no first-sight record is left out however far it is.
func TestTails(t *testing.T) {
	ck, no := []string{"checkpoint=block"}, []string{"checkpoint=none"}
	ss := []sample{
		{name: "a", classes: ck, blind: true, risk: 0, xb: math.Log(0.97)},
		{name: "b", classes: ck, blind: true, risk: 0, xb: math.Log(0.99)},
		{name: "c", classes: no, blind: true, risk: 0, xb: math.Log(1.03)},
		{name: "d", classes: ck, blind: true, risk: 1, xb: math.Log(0.90)},
		{name: "e", classes: ck, blind: false, risk: 0, xb: math.Log(0.50)},
	}
	bands := make([][2]float64, len(ss))
	for i := range bands {
		bands[i] = [2]float64{0.98, 1.02}
	}
	got := map[[2]any]tailLine{}
	for _, l := range tails(ss, bands) {
		got[[2]any{l.level, l.class}] = l
	}
	for _, w := range []tailLine{
		{level: -1, class: "checkpoint=block", n: 3, below: 2, overPredict: 3},
		{level: 0, class: "checkpoint=block", n: 2, below: 1, overPredict: 2},
		{level: 0, class: "checkpoint=none", n: 1, above: 1},
		{level: 1, class: "checkpoint=block", n: 1, below: 1, overPredict: 1},
		{level: 2, class: "checkpoint=block"},
	} {
		g := got[[2]any{w.level, w.class}]
		if g.n != w.n || g.below != w.below || g.above != w.above || g.overPredict != w.overPredict {
			t.Errorf("level %d %s: n %d below %d above %d over %d; want %d %d %d %d", w.level, w.class, g.n, g.below, g.above, g.overPredict, w.n, w.below, w.above, w.overPredict)
		}
	}
	if l := got[[2]any{0, "checkpoint=block"}]; len(l.belowNames) != 1 || l.belowNames[0] != "a +3.09%" {
		t.Errorf("level 0 checkpointed below: %q, want [a +3.09%%]", l.belowNames)
	}
}

// A step-time class whose rows (outside the set being scored) all come
// from one capture set is no class to score against: late60's six H100
// rows alone would set gpu=h100's centre when late61 is left out, and
// moved the shared GPU-bound quantile from -1.99 to -4.16 (session 34).
func TestDropOneSetClasses(t *testing.T) {
	st := [][]string{{"gpu=h100", "family=resnet"}, {"gpu=h100", "family=resnet"}, {"gpu=h200", "family=resnet"}, {"gpu=h100"}}
	grp := []int{0, 0, 1, 2} // rows 0 and 1 from one set; set 2 is the one scored
	byClass := map[string][]float64{"gpu=h100": {0.1, 0.2}, "gpu=h200": {0.0}, "family=resnet": {0.1, 0.2, 0.0}}
	dropOneSetClasses(byClass, st, grp, 2)
	if _, ok := byClass["gpu=h100"]; ok {
		t.Error("gpu=h100 kept: its rows outside set 2 come from set 0 alone")
	}
	if _, ok := byClass["gpu=h200"]; ok {
		t.Error("gpu=h200 kept: one row of one set")
	}
	if _, ok := byClass["family=resnet"]; !ok {
		t.Error("family=resnet dropped: its rows come from sets 0 and 1")
	}
	if n := setsOf([]int{0, 1, 2}, grp); n != 2 {
		t.Errorf("setsOf rows 0-2 = %d, want 2", n)
	}
}

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

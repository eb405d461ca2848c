package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late81Dir is the eighty-first blind set (testdata/late81/README.md):
// Falcon, captured in call166/167 on a lent H100 with dev89 and evaluated
// once with the models of dfb94da (testdata/late81/RESULTS.md).
const late81Dir = "../../testdata/late81"

// TestLate81Blind: three memory rows, at first sight allocated within
// 0.06%, reserved -0.58% to +0.55%, all inside both bands.
func TestLate81Blind(t *testing.T) {
	checkBlindSet(t, late81Dir, 3, nil,
		blindLimits{resvMedian: 0.006, resvMax: 0.0065, allocMax: 0.0007, under: 1, farUnder: 0})
}

// TestStepTimeLate81: the 1024-hidden Falcon s1024 b4 bf16 +5.6%,
// checkpointed -1.1% (the H100's host); checkpointing's ratio -6.3%.
// Since session 57's H100 host costs: +5.5%, -3.2%, the ratio -8.2%.
func TestStepTimeLate81(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late81Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 2, stepTargets{median: 0.044, max: 0.057, ratioMedian: 0.083, ratioMax: 0.083, order: 1})
}

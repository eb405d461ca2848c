package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late5Dir is the fifth blind set (testdata/late5/README.md), evaluated
// once with session 4's final models (testdata/late5/RESULTS.md).
const late5Dir = "../../testdata/late5"

// TestLate5Blind: 18 training rows. At its evaluation: peak reserved
// median 0.47%, max 18.71% (Gemma 2 pure-bf16 LoRA, the logits-workspace
// split, inside its band), 13 of 18 under (3 more than 2% low), Whisper
// fp32 +7.88% reserved above its band; allocated max 4.34%. Held there,
// except what the allowance for untraced allocations moves (bands.json,
// 26 MiB + 1% of the model's figure): 4 under (3 more than 2% low, the
// allowance is smaller than their misses), median 1.15%; Whisper fp32 is
// inside the band on the calibrated figure.
func TestLate5Blind(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 18 workloads")
	}
	checkBlindSet(t, late5Dir, 18, nil, blindLimits{resvMedian: 0.012, resvMax: 0.19, allocMax: 0.045, under: 4, farUnder: 3})
}

// TestStepTimeLate5: 13 blind step times on a slow host, at evaluation
// median 25.2%, max 43.3%, ratios 1 of 4 within 10% (max 23.5%), same-model
// order 4 of 5. Held there (issue 14's targets are NOT met on this set).
func TestStepTimeLate5(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late5Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 13, stepTargets{median: 0.26, max: 0.44, ratioMedian: 0.22, ratioMax: 0.24, order: 0.75})
}

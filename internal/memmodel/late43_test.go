package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late43Dir is the forty-third blind set (testdata/late43/README.md):
// session 23's selective checkpointing, Phi-3 and math-path changes on
// configurations no set captured (call 91), evaluated with the models of
// 9cc4fda (testdata/late43/RESULTS.md).
const late43Dir = "../../testdata/late43"

// TestLate43Blind: thirteen training rows. At first sight (9cc4fda):
// allocated within 0.21%, reserved median 0.54%, max 3.61% (T5-base s1024
// b8 fp16 checkpointed, under), all inside their bands.
func TestLate43Blind(t *testing.T) {
	checkBlindGroups(t, late43Dir, 13, nil,
		blindLimits{resvMedian: 0.0055, resvMax: 0.0362, allocMax: 0.0022, under: 1, farUnder: 1}, "families")
}

// TestStepTimeLate43: four blind step times (Llama 3.2 3B and Qwen3 1.7B,
// plain and selective). At first sight: median 2.0%, max 3.2%, all in
// band; the selective ratios +0.2% and +2.1% (no two configurations more
// than 5% apart, so no order to check).
func TestStepTimeLate43(t *testing.T) {
	// Qwen3's plain row ran after Llama's selective one in the process and
	// inherited gt_work.py's SDPA patch: left out (measured.ReadTimed)
	ev := evalTimedFile(t, filepath.Join(late43Dir, "timing", "results.jsonl"), "late43-t-qwen3-17b-s2048-b4-bf16")
	checkStepEval(t, ev, 3, stepTargets{median: 0.021, max: 0.033, ratioMedian: 0.013, ratioMax: 0.022, order: 0})
}

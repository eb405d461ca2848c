package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late72Dir is the seventy-second blind set (testdata/late72/README.md):
// XLM-RoBERTa sequence classification, whose config.json plans as
// RoBERTa since session 43, captured in call145/146 on a lent H100 and
// evaluated once with the models of 2486a8b (testdata/late72/RESULTS.md).
const late72Dir = "../../testdata/late72"

// TestLate72Blind: three memory rows (base bf16 AMP s256 b32, base fp32
// checkpointed s512 b16, large bf16 LoRA r16 s256 b16). At first sight
// allocated within 0.35%, reserved +0.67% to +1.02%, none under, all
// inside both bands.
func TestLate72Blind(t *testing.T) {
	checkBlindSet(t, late72Dir, 3, nil,
		blindLimits{resvMedian: 0.0076, resvMax: 0.0103, allocMax: 0.0036, under: 0, farUnder: 0})
}

// TestStepTimeLate72: two blind step times of XLM-RoBERTa base s256 b32
// on a fast lent H100 host: float32 (GPU-bound) -0.4%, bf16 AMP (host-bound
// in the model) +39.4%, the walk pricing the forward's host time at 19.1 ms
// where the host took 7.6 (late69's RoBERTa likewise); both inside their
// bands; AMP's ratio to float32 +40%.
func TestStepTimeLate72(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late72Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 2, stepTargets{median: 0.2, max: 0.395, ratioMedian: 0.40, ratioMax: 0.40, order: 1})
}

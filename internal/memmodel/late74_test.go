package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late74Dir is the seventy-fourth blind set (testdata/late74/README.md):
// decoders with a sequence-classification (reward-model) head, captured
// in call148 on a lent H100 with dev75 and evaluated once with the
// models of 3e1c04c (testdata/late74/RESULTS.md).
const late74Dir = "../../testdata/late74"

// TestLate74Blind: three memory rows (TinyLlama and Llama-3.2-1B s1024 b8
// bf16 AMP, Qwen3-0.6B s2048 b4 checkpointed). At first sight allocated
// within 0.005% on all three, reserved +0.67% to +1.16%, none under, all
// inside both bands.
func TestLate74Blind(t *testing.T) {
	checkBlindSet(t, late74Dir, 3, nil,
		blindLimits{resvMedian: 0.0073, resvMax: 0.0117, allocMax: 0.0001, under: 0, farUnder: 0})
}

// TestStepTimeLate74: Qwen2.5-0.5B s1024 b8 bf16 AMP with the score head
// +0.2%, as a causal LM +3.0%, both inside their bands (two classes, so
// no same-model pair for the ordering count). Since session 57's H100 host
// costs (steptime_lenthost.go): -2.6% and +0.8%.
func TestStepTimeLate74(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late74Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 2, stepTargets{median: 0.018, max: 0.031, ratioMedian: 0.05, ratioMax: 0.05, order: 0})
}

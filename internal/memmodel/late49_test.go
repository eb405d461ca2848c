package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late49Dir is the forty-ninth blind set (testdata/late49/README.md): T5,
// BERT-large, RoBERTa-large and GPT-2 workloads no set ran, captured after
// session 25's attention changes (call 100) and evaluated with the models
// of fb0fa94 (testdata/late49/RESULTS.md).
const late49Dir = "../../testdata/late49"

// TestLate49Blind: twelve training rows. At first sight: allocated within
// 0.06%, reserved median 0.57%, max -1.70% (T5-base s512 b24 bf16
// checkpointed, under), all inside their bands.
func TestLate49Blind(t *testing.T) {
	checkBlindGroups(t, late49Dir, 12, nil,
		blindLimits{resvMedian: 0.0058, resvMax: 0.0171, allocMax: 0.0007, under: 2, farUnder: 0}, "families")
}

// TestStepTimeLate49: ten blind step times in three groups. At first
// sight: median 3.1%, max 16.2% (BERT-large s384 b32 bf16 checkpointed,
// over: a host-bound prediction), all in band; ratios 5 of 5 within 10%
// (max GPT-2 large checkpointing +8.3%), same-model order 5 of 5.
func TestStepTimeLate49(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late49Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 10, stepTargets{median: 0.032, max: 0.163, ratioMedian: 0.044, ratioMax: 0.084, order: 1})
}

package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late73Dir is the seventy-third blind set (testdata/late73/README.md):
// masked-LM heads on BERT, RoBERTa and XLM-RoBERTa (spec head masked-lm),
// captured in call147 on a lent H100 with dev74 and evaluated once with
// the models of c62c726 (testdata/late73/RESULTS.md).
const late73Dir = "../../testdata/late73"

// TestLate73Blind: four memory rows (XLM-R base bf16 AMP b32 s256 at 25.9
// GiB of which the logits are most, BERT-large checkpointed, RoBERTa-base
// float32, XLM-R large LoRA). At first sight allocated within 0.10%,
// reserved +0.54% to +0.74%, none under, all inside both bands.
func TestLate73Blind(t *testing.T) {
	checkBlindSet(t, late73Dir, 4, nil,
		blindLimits{resvMedian: 0.007, resvMax: 0.0075, allocMax: 0.0011, under: 0, farUnder: 0})
}

// TestStepTimeLate73: BERT-base masked-LM s512 b8 on a fast lent H100
// host: float32 (GPU-bound) +0.1%, bf16 AMP (host-bound in the model)
// +20.1%, both inside their bands; AMP's ratio to float32 +19.9%.
func TestStepTimeLate73(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late73Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 2, stepTargets{median: 0.102, max: 0.202, ratioMedian: 0.20, ratioMax: 0.20, order: 1})
}

package memmodel_test

import (
	"path/filepath"
	"testing"
)

// TestStepTimeLate92 holds late92's timed groups, blind, timed on a lent
// H100 (one process a model, 7 steps): T5-base s512 b8 and BART-large
// s512 b8 bf16 AMP, full, LoRA r16 and LoRA r16 checkpointed, host-bound.
// At its one evaluation (9f1ac3d): median 5.5%, max +10.1% (T5-base LoRA
// checkpointed), all six inside the band; ratios 3 of 4 within 10%
// (T5's checkpointing +16.8%), same-model order 6 of 6. Since session
// 57's H100 host costs: median 2.8%, max 11.1% (T5-base LoRA, -11.1%),
// ratios median 4.1% (T5's checkpointing +15.4%), order 6 of 6. Since
// late107's H100 checkpoint region (session 62): median 4.7% (BART-large
// LoRA checkpointed -7.4%), max 11.1%, ratios median 4.7%, max 11.0%
// (T5's checkpointing, from +15.4%), order 6 of 6.
func TestStepTimeLate92(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join("../../testdata/late92", "timing", "results.jsonl"))
	checkStepEval(t, ev, 6, stepTargets{median: 0.048, max: 0.112, ratioMedian: 0.048, ratioMax: 0.12, order: 1})
	checkAllInBand(t, ev)
}

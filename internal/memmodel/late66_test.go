package memmodel_test

import (
	"path/filepath"
	"testing"
)

// TestStepTimeLate66 holds late66, the third blind set of the host model,
// on the fastest lent host timed (an H100, 5.7 us an op): Whisper-base,
// Qwen2.5-0.5B, T5-small, ResNet-18 and RoBERTa-base technique pairs. At
// its one evaluation (the committed costs of 4c5a4c5): median 47.9%, max
// 81.2% (RoBERTa-base s128 b8 checkpointed, 45.1 ms measured, 81.7
// planned), every row over, 5 of 15 in band; ratios 3 of 9 within 10%
// (median 17.2%, max 45.6%: Whisper-base's AMP 0.40x measured, 0.58x
// planned), same-model order 12 of 14. Ten rows fall outside their band,
// all over: a host this fast is outside what the lent hosts' spread put
// in the band. Since session 57's H100 host costs: median 38.7%, max
// 65.5%, ratios median 10.1%, order 12 of 14; five rows outside, all over.
func TestStepTimeLate66(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join("../../testdata/late66", "results.jsonl"))
	checkStepEval(t, ev, 15, stepTargets{median: 0.39, max: 0.66, ratioMedian: 0.11, ratioMax: 0.35, order: 0.85})
	checkAllInBand(t, ev, "late66-t-whisper-base-b8-bf16-ckpt",
		"late66-t-resnet18-b24-bf16", "late66-t-resnet18-b24-bf16-ckpt", "late66-t-roberta-base-s128-b8-bf16",
		"late66-t-roberta-base-s128-b8-bf16-ckpt")
}

package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late47Dir is the forty-seventh blind set (testdata/late47/README.md): the
// fixtures' capture-script models at shapes no set ran (call 96),
// evaluated with the models of bdc7106 (testdata/late47/RESULTS.md).
const late47Dir = "../../testdata/late47"

// TestLate47Blind: twelve training rows. At first sight: allocated within
// 0.09%, reserved median 0.73%, max -2.18% (NCHW ResNet-50 fp16 b256; bf16
// b192 -1.98%: the half-precision NCHW ResNets' fragmentation, allocated
// exact), all inside their bands. With ResNet-50's fp16 GradScaler
// stepping at the third step from batch 96 (session 24): fp16 b256
// -2.18% -> -1.80%; the max is bf16 b192's -1.98%.
func TestLate47Blind(t *testing.T) {
	checkBlindGroups(t, late47Dir, 12, nil,
		blindLimits{resvMedian: 0.0074, resvMax: 0.0199, allocMax: 0.001, under: 2, farUnder: 0}, "families")
}

// TestStepTimeLate47: twelve blind step times in three groups. At first
// sight: median 3.7%, max 16.6% (T5-small s1024 b16 checkpointed, under),
// all in band; ratios 4 of 5 within 10% (T5-small checkpointing -12.9%),
// same-model order 5 of 5.
func TestStepTimeLate47(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late47Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 12, stepTargets{median: 0.038, max: 0.167, ratioMedian: 0.077, ratioMax: 0.13, order: 1})
}

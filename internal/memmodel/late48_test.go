package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late48Dir is the forty-eighth blind set (testdata/late48/README.md): the
// fixtures' capture-script models at seven technique pairs no set ran
// (call 98), evaluated with the models of d6ef284
// (testdata/late48/RESULTS.md).
const late48Dir = "../../testdata/late48"

// TestLate48Blind: twelve training rows. At first sight: allocated within
// 0.03%, reserved median 0.61%, max -3.89% (NCHW ResNet-50 b160 bf16
// checkpointed, under: the half-precision NCHW ResNets' fragmentation,
// allocated exact; T5-small s512 b48 checkpointed -1.82%), all inside
// their bands.
func TestLate48Blind(t *testing.T) {
	checkBlindGroups(t, late48Dir, 12, nil,
		blindLimits{resvMedian: 0.0062, resvMax: 0.039, allocMax: 0.0004, under: 2, farUnder: 1}, "families")
}

// TestStepTimeLate48: fourteen blind step times in four groups. At first
// sight: median 2.7%, max 18.1% (BERT-base s256 b96 fp16 checkpointed,
// over: a host-bound prediction), all in band; ratios 5 of 7 within 10%
// (checkpointing: ConvNeXt-T b160 fp16 +17.9%, BERT-base +15.9%),
// same-model order 7 of 7.
func TestStepTimeLate48(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late48Dir, "timing", "results.jsonl"))
	// session 27: bias-gradient sums and half-precision GELU at their own kernels' rates (dev56); max 18.3% (BERT-base checkpointed, host-bound: its bias sums +0.3%); ConvNeXt-T b160 fp16 -9.1 -> -2.9%
	checkStepEval(t, ev, 14, stepTargets{median: 0.028, max: 0.184, ratioMedian: 0.037, ratioMax: 0.18, order: 1})
}

package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late37Dir is the thirty-seventh blind set (testdata/late37/README.md):
// BERT variants and channels-last CNNs, captured in session 21 (call 81)
// to test the session's BERT lifetimes and channels-last transients,
// evaluated with the models of 882b1b7 (testdata/late37/RESULTS.md).
const late37Dir = "../../testdata/late37"

// TestLate37Blind: eleven memory rows. At first sight (882b1b7): allocated
// within 0.1% on ten; EfficientNet-B3 b48 bf16 channels-last checkpointed
// -5.73% allocated and -10.44% reserved, under and outside both bands
// (known misses until a snapshot explains them); reserved median 0.71%,
// three under (BERT-base s256 b64 fp32 checkpointed -1.98%). With late37
// as band data its bands narrowed and BERT-base fp32 checkpointed's
// reserved is 0.8% above its top: the session's BERT lifetimes (BertOutput's
// dropout output alive until its LayerNorm returns, as the traces free it)
// moved float32 checkpointed BERT from +0.1% to -2.0% here and on the
// fixtures' trace, whose replay then matches PyTorch's segment growth
// through the first step and diverges in the second backward (a 192 MiB
// block taken where PyTorch took two 48 MiB ones). Session 22 resolved it
// (a linear's input gradient added after the node returns, the pooler's
// saved [CLS] view): -1.98% -> +0.85%, inside its band.
// EfficientNet-B3's miss was the squeeze-excitation's gradient on NHWC
// maps (dev40's snapshot): with its reduction staging -5.73% -> +3.34%
// allocated (over, below its narrow band's low end: the product's
// temporary and the staging are live together in the model, not on the
// GPU), -10.44% -> -1.95% reserved, inside its band.
func TestLate37Blind(t *testing.T) {
	known := map[string]bool{
		"late37-efficientnet-b3-b48-bf16-cl-ckpt allocated": true,
	}
	checkBlindGroups(t, late37Dir, 11, known,
		blindLimits{resvMedian: 0.0072, resvMax: 0.0402, allocMax: 0.0335, under: 3, farUnder: 0}, "families")
}

// TestStepTimeLate37: nine blind step times. At first sight (882b1b7):
// median 11.8%, max 40.5% (ResNet-34 b128 fp16 channels-last, a host-bound
// prediction on a fast process), all inside their bands; checkpointing
// ratios +4.8% (RoBERTa) and -18.3% (ResNet-34 channels-last).
// Session 25 (attention dropout inside the fused kernels and the math path's _safe_softmax passes priced: dev50's calibration, dev49's and dev15's profiles): RoBERTa's plain
// step +6.4 -> +6.0%, its checkpointing ratio +5.2 -> +5.3%.
func TestStepTimeLate37(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late37Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 9, stepTargets{median: 0.119, max: 0.406, ratioMedian: 0.12, ratioMax: 0.184, order: 1})
}

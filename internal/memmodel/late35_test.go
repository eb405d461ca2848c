package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late35Dir is the thirty-fifth blind set (testdata/late35/README.md):
// channels-last steps, float32 among them, captured in session 20 (call
// 77) with dev37, kept outside the repository until it was evaluated with
// the models of 0840771 (testdata/late35/RESULTS.md).
const late35Dir = "../../testdata/late35"

// TestLate35Blind: four channels-last memory rows. At first sight
// (0840771): allocated within 0.08%, reserved +0.45..+5.93%
// (EfficientNet-B4 b32 bf16, over, above its band's top; inside since
// late35 is band data), none under. Session 21 (dev39's snapshot of the
// B4 row: the squeeze-excitation's NHWC pooling buffer, the batch's
// channels-last copy, ResNet-34's first downsampling conv's workspace):
// EfficientNet-B4 +5.93 -> +2.52%, ResNet-34 +2.70 -> +0.76%, median
// 0.68%; with the reductions' staging exact (biasGradScratch, dev40)
// EfficientNet-B4 +1.34%.
func TestLate35Blind(t *testing.T) {
	checkBlindGroups(t, late35Dir, 4, map[string]bool{},
		blindLimits{resvMedian: 0.0069, resvMax: 0.0135, allocMax: 0.0011, under: 0, farUnder: 0}, "families")
}

// TestStepTimeLate35: eight blind step times. At first sight (0840771):
// median 7.1%, max 66.7% (ResNet-152 b128 fp16 channels-last, host-bound
// prediction on a fast host, outside its band), 7 of 8 inside; the
// float32 channels-last steps within 10%; EfficientNet-B1 b96 fp32
// channels-last/NCHW -8.4%.
func TestStepTimeLate35(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late35Dir, "timing", "results.jsonl"))
	// session 27: bias-gradient sums and half-precision GELU at their own kernels' rates (dev56); median 7.3% (ConvNeXt-B b64 fp16 channels-last +9.7 -> +13.9%)
	// session 27: ConvNeXt's profiled convolutions as channels-last kernel rows, their bias sums taken off (dev57): ResNet-152 b128 fp16 channels-last +66.7 -> +66.9%
	checkStepEval(t, ev, 8, stepTargets{median: 0.074, max: 0.670, ratioMedian: 0.085, ratioMax: 0.085, order: 1})
}

package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late33Dir is the thirty-third blind set (testdata/late33/README.md):
// eager channels-last CNNs and their NCHW twins, captured in session 20
// (call 75) with dev35, kept outside the repository until it was
// evaluated with the models of 9efb315, the commit that added
// plan --channels-last (testdata/late33/RESULTS.md).
const late33Dir = "../../testdata/late33"

// TestLate33Blind: seven channels-last memory rows (ResNet-152, ResNet-34
// fp16, EfficientNet-B1 fp16 and B2, ConvNeXt-S, ConvNeXt-B checkpointed,
// ResNet-50 fp32). At first sight (9efb315): reserved -3.42..+2.50%,
// median 0.78%; allocated within 0.3% but ResNet-34 fp16, -3.67% (its
// GradScaler skipped no step, as dev35's ResNet-18: plan's first steps
// leave Adam's state out).
func TestLate33Blind(t *testing.T) {
	checkBlindGroups(t, late33Dir, 7, map[string]bool{},
		blindLimits{resvMedian: 0.0079, resvMax: 0.035, allocMax: 0.037, under: 3, farUnder: 2}, "families")
}

// TestStepTimeLate33: twelve blind step times, five NCHW/channels-last or
// checkpointing pairs. At first sight (9efb315): median 15.9%, max 29.1%
// (ConvNeXt-S b64, host-bound, over in both formats), 12 of 12 inside the
// band; channels-last ratios: ResNet-152 b64 -19.7% (channels-last ran
// slower than NCHW, host-bound), ResNet-34 b256 fp16 +28.5%,
// EfficientNet-B2 b64 -6.6%, ConvNeXt-S +0.1%.
func TestStepTimeLate33(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late33Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 12, stepTargets{median: 0.16, max: 0.292, ratioMedian: 0.114, ratioMax: 0.286, order: 0.75})
	checkAllInBand(t, ev)
}

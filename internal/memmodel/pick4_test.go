package memmodel_test

import (
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestFitPicksPick4 is issue 14's `plan --fit` check on three models no
// set had timed (testdata/pick4/README.md): each model's top three
// candidates, ranked by session 10's final step-time model, timed alone on
// the H200 afterwards. For all three the candidate ranked first ran
// fastest (EfficientNet-B3 300 px fp16 b256 296 ms, Qwen3-0.6B s1024 bf16
// b16x2 736 ms, ResNet-152 fp16 b256 169 ms), every model's three in the
// ranked order; step times median 5.2%, max 11.0% (ResNet-152 fp16
// b128x2, over).
// Round 21: plans assume the median lent H200 host (DefaultHostCosts, the
// calibration machine's host costs x1.2, lentHostScale). The
// accumulation candidates' micro-steps are host-bound in the walk and their
// single-batch baselines are not: ResNet-152 fp16 b128x2 +11.0% -> +15.9%,
// the accumulation ratios +3.6% -> +5.4% (EfficientNet-B3 b64x4) and
// +2.2% -> +6.2% (ResNet-152 b128x2); ranking unchanged.
//
// Session 18 (convolutions priced from their kernels' times, testdata/dev29): ResNet-152 fp16 b128x2 +15.9 ->
// +17.9%, its ratio to b256x1 +9%; the ranking holds.
func TestFitPicksPick4(t *testing.T) {
	checkPickFile(t, "../../testdata/pick4/results.jsonl", memmodel.DefaultHostCosts(), 9,
		stepTargets{median: 0.064, max: 0.18, ratioMedian: 0.055, ratioMax: 0.10, order: 0.95}, 3)
}

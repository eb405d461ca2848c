package memmodel_test

import (
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestFitPicksPick3 is issue 14's `plan --fit` check on three more models
// (testdata/pick3/README.md): each model's top three candidates, computed
// with session 9's final step-time model, timed alone on the H200
// afterwards (plus ResNet-101's bf16 b512, which the plan puts 18% behind
// fp16: measured 298 vs 253 ms). For all three the candidate ranked first
// ran fastest (ViT-L/16 bf16 b256 324 ms, Qwen2.5-1.5B s1024 bf16 b16x4
// 1796 ms, ResNet-101 fp16 b512 253 ms); step times within 5.0%.
// Round 18 (half-precision GEMMs at the burst clock the timing probes
// measure, x1.20 over gt_calib.py's throttled table; the optimizer's
// per-parameter slope from its GPU-bound steps, +10%): both justified by
// the kernel profiles (transformer GEMMs +14..29% long -> -5..+8%,
// optimizer kernels 7-13% short -> -5..+2%). They had hidden GPU time the
// model still misses (ViT copies and pointwise, T5's float32 GEMMs) and
// host time (steps longer than the GPU's busy time on every profile).
// Here: ViT-L/16 b256 -2.6% -> -10.2% (max 10.3%; median 4.9%), the
// GPU-bound ViT's copies and pointwise kernels; ranking unchanged.
// Round 21: plans assume the median lent H200 host (DefaultHostCosts, the
// calibration machine's host costs x1.2, lentHostScale). Median 4.9% ->
// 5.1%; ranking unchanged.
//
// Session 18 (convolutions priced from their kernels' times, testdata/dev29): ResNet-101 fp16 b128x4 +5.2 ->
// +6.6%, its ratio to b512x1 +6%; the ranking holds.
func TestFitPicksPick3(t *testing.T) {
	checkPickFile(t, "../../testdata/pick3/results.jsonl", memmodel.DefaultHostCosts(), 10,
		stepTargets{median: 0.055, max: 0.105, ratioMedian: 0.05, ratioMax: 0.07, order: 0.95}, 3)
}

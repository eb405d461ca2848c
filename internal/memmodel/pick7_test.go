package memmodel_test

import (
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestFitPicksPick7 is issue 14's `plan --fit` check on three more models
// no set had timed at these sizes (testdata/pick7/README.md), the first a
// mixture-of-experts LoRA fine-tune: each model's top three candidates,
// ranked by session 14's step-time model (c003192, the MoE pricing in),
// timed alone on the H200. For all three the candidate ranked first ran
// fastest (Qwen1.5-MoE-A2.7B LoRA s1024 bf16 b8x2 2139.7 ms, its three
// within 0.2%; Qwen3-1.7B s2048 bf16 b8x2 1207.5 ms; ConvNeXt-B bf16 b256
// 181.4 ms); step times median 2.1%, max 4.9% (ConvNeXt-B b128x2, under),
// the selective-checkpointing ratio +1.4% and ConvNeXt-B's accumulation
// ratio -3.5%. Held there. Session 17: dev28's channels-last calibration
// (ResNet-50's shapes) joins ConvNeXt-B's downsampling convolutions'
// neighbours: median 2.4%, max 5.7% (ConvNeXt-B b128x2, under).
//
// Session 18 (convolutions priced from their kernels' times, testdata/dev29): ConvNeXt-B b128x2 -5.7 ->
// -7.4%. Session 19 (channels-last depthwise convolutions priced also
// from the per-shape kernel times of whole compiled steps, testdata/dev33):
// b256 -4.1 -> -1.4%, b128x2 -7.4 -> -6.1%; the accumulation ratio moves
// -3.5 -> -4.8% (the b128 steps' depthwise calls lie between dev29's
// 64-image rows and dev33's 128-image ones, b256's beyond both).
func TestFitPicksPick7(t *testing.T) {
	checkPickFile(t, "../../testdata/pick7/results.jsonl", memmodel.DefaultHostCosts(), 9,
		stepTargets{median: 0.032, max: 0.076, ratioMedian: 0.032, ratioMax: 0.05, order: 1}, 3)
}

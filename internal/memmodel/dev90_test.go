package memmodel_test

import "testing"

// TestDev90DINOv2 holds transformers' Dinov2ForImageClassification (family
// dinov2, the hf-vit layers with layer scale) to dev90's traces
// (testdata/dev90, development: DINOv2-B/14 at 224 pixels b64 bf16 AMP,
// checkpointed, b32 float32, with snapshots). As first written within
// 0.50% under, a constant ~11 MB: the position table is DINOv2's 518-pixel
// grid (1370 rows, interpolated each forward), not this image's 257; with
// it +0.01% to -0.01% allocated, reserved +0.66%, +0.98% and -3.58%
// (checkpointed).
func TestDev90DINOv2(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev90", 3, nil,
		blindLimits{resvMedian: 0.0105, resvMax: 0.037, allocMax: 0.0002, under: 2, farUnder: 1}, "families")
}

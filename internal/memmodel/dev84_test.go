package memmodel_test

import "testing"

// TestDev84HFViT holds transformers' ViTForImageClassification (family
// hf-vit) to dev84's traces (testdata/dev84, development, not blind:
// ViT-B/16 at 224 pixels b64 bf16 AMP, checkpointed, b32 float32, with
// snapshots). At first sight, the family written from those traces'
// forward order: allocated within 0.04%, reserved +0.72% to +1.04%.
func TestDev84HFViT(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev84", 3, nil,
		blindLimits{resvMedian: 0.008, resvMax: 0.0105, allocMax: 0.0005, under: 3, farUnder: 0}, "families")
}

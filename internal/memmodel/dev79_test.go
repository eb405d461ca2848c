package memmodel_test

import "testing"

// TestDev79StarCoder2 holds the StarCoder2 family to dev79
// (testdata/dev79, development, not blind: a 1024-hidden 12-layer
// StarCoder2 at s2048 b4 bf16 AMP, s1024 b4 float32 and s5000 b1 bf16
// (past its 4096-token window: the sliding mask), starcoder2-3b s1024 b2
// LoRA r16, with snapshots). At first sight, the family as written from
// transformers' source: allocated within 0.12% (the LoRA row; the first
// layer's norm saves, see noGradSaves), reserved +0.22% to +0.66%.
func TestDev79StarCoder2(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev79", 4, nil,
		blindLimits{resvMedian: 0.006, resvMax: 0.007, allocMax: 0.0013, under: 1, farUnder: 0}, "families")
}

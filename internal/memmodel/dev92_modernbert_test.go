package memmodel_test

import "testing"

// TestDev92ModernBERT holds the ModernBERT family to dev92's traces
// (testdata/dev92/mbert, development, not blind: ModernBERT-base's sizes
// at s512 b16 bf16 AMP, masked LM s1024 b8 bf16, checkpointed s1024 b8,
// LoRA r16 on Wqkv, and a 512-wide 8-layer one at s512 b8 float32, with
// snapshots). First sight (family_modernbert.go as first written from the
// traces' forward order): allocated -0.04% to +0.03%, reserved -1.26% to
// +2.40%; with the fused projection's q/k/v and the MLP's halves as
// pieces one stack or cat joins in backward (unbind, chunk) rather than
// slices each scattered into zeros: allocated -0.04% to +0.04%, reserved
// +0.50% to +1.35%.
func TestDev92ModernBERT(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev92/mbert", 5, nil,
		blindLimits{resvMedian: 0.008, resvMax: 0.015, allocMax: 0.0006, under: 2, farUnder: 0}, "families")
}

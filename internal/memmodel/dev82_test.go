package memmodel_test

import "testing"

// TestDev82OPTDistilBERT holds the OPT and DistilBERT families to dev82
// (testdata/dev82, development, not blind, with snapshots): OPT-125m s2048
// b8 bf16 AMP and s1024 b8 float32, OPT-350m (post-add LayerNorms, its
// 512-wide embedding projected in and out) s1024 b8 bf16, OPT-1.3b s1024 b4
// LoRA r16 and s2048 b4 checkpointed; DistilBERT sequence classification
// s512 b64 bf16, checkpointed, s256 b32 float32, and its QA head s384 b32.
// At first sight, the families as written from the traces' forward
// order: allocated within 0.20% (the OPT LoRA row over), reserved +0.58%
// to +0.89% and the checkpointed OPT-1.3b +3.18%.
func TestDev82OPTDistilBERT(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev82", 9, nil,
		blindLimits{resvMedian: 0.009, resvMax: 0.033, allocMax: 0.0021, under: 5, farUnder: 0}, "families")
}

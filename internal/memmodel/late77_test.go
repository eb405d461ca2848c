package memmodel_test

import "testing"

// TestLate77Blind: the seventy-seventh blind set (testdata/late77):
// RoBERTa-large token classification s512 b16 bf16 AMP, BERT-large QA
// s384 b24 float32 checkpointed, XLM-R base token classification s256 b32
// float32, captured in call156 with dev81 and evaluated once at 0ac2575:
// allocated within 0.03%, reserved +0.60% to +1.23%, all inside both
// bands.
func TestLate77Blind(t *testing.T) {
	checkBlindSet(t, "../../testdata/late77", 3, nil,
		blindLimits{resvMedian: 0.0066, resvMax: 0.0124, allocMax: 0.0004, under: 3, farUnder: 0})
}

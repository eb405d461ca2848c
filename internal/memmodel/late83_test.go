package memmodel_test

import "testing"

// TestLate83Blind holds the eighty-third blind set (testdata/late83: GPT-J
// small fp16 checkpointed, wide bf16, 6B LoRA, evaluated once at ee0825c):
// allocated -0.88% to +1.68%, reserved +1.62% to +15.67%, all inside both
// bands. dev92's traces of its two smaller shapes (captured after the
// evaluation) showed the rotary tables in the query's dtype and the
// checkpointed layers holding the eager mask: allocated -0.05% to -0.02%;
// the checkpointed fp16 row's reserved is +16.58%, what replaying its
// request stream gives too (TestDev92GPTJ).
func TestLate83Blind(t *testing.T) {
	checkBlindSet(t, "../../testdata/late83", 3, map[string]bool{
		"late83-gptj-small-s2048-b4-fp16-ckpt reserved": true},
		blindLimits{resvMedian: 0.005, resvMax: 0.166, allocMax: 0.001, under: 3, farUnder: 0})
}

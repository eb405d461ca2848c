package memmodel_test

import "testing"

// TestDev92GPTJ holds the GPT-J family to dev92's traces of late83's two
// smaller shapes (testdata/dev92/gptj, development data captured after
// late83's evaluation: a 1024-hidden 8-layer GPT-J at s2048 b4 fp16 AMP
// checkpointed, a 2048-hidden 12-layer one at s1024 b4 bf16 AMP, with
// snapshots). Before them: allocated -0.88% and +1.68%. The traces showed
// GPT-J's rotary tables cast to the query's dtype (the rotated keys and
// the cache filled from them in bf16, not float32: RopeQDtype) and its
// eager float mask held by every checkpointed layer: -0.05% both.
// Reserved of the checkpointed row stays +16.6% over: replaying the
// trace's own request stream (vramkit simulate --capacity) gives the same
// 9.08 GiB, a placement the driver's addresses decide.
func TestDev92GPTJ(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev92/gptj", 2,
		map[string]bool{"dev92-gptj-small-s2048-b4-fp16-ckpt reserved": true},
		blindLimits{resvMedian: 0.085, resvMax: 0.17, allocMax: 0.001, under: 2, farUnder: 0}, "families")
}

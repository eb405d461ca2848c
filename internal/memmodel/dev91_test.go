package memmodel_test

import "testing"

// TestDev91GPTJ holds the GPT-J family to dev91's traces (testdata/dev91,
// development, not blind: a 1024-hidden 8-layer GPT-J of gpt-j-6b's
// architecture, 256-wide heads with 64 rotary dimensions, at s1024 b4
// bf16 AMP, LoRA r16, checkpointed, and s512 b4 float32, with
// snapshots). At first sight, the family written from those traces'
// forward order (its own float32 attention, EagerF32): allocated -0.39% to
// +0.01%, reserved -1.39% to +2.71%.
func TestDev91GPTJ(t *testing.T) {
	// dev92's traces (TestDev92GPTJ) brought the checkpointed row's eager
	// mask: -0.39% -> -0.07% allocated
	checkBlindGroups(t, "../../testdata/dev91", 4, nil,
		blindLimits{resvMedian: 0.021, resvMax: 0.028, allocMax: 0.0015, under: 3, farUnder: 0}, "families")
}

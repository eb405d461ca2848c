package memmodel_test

import "testing"

// TestDev89Falcon holds the Falcon family to dev89's traces
// (testdata/dev89, development, not blind: a 1024-hidden 12-layer Falcon
// of falcon-7b's architecture at s1024 b4 bf16 AMP, LoRA r16 on
// query_key_value, checkpointed, and s512 b4 float32, with snapshots).
// Written as GPT-NeoX-like quirks, bf16 was -33% (planned with flash
// attention); Falcon's grouped heads reach SDPA with a causal mask, so the
// math kernel runs in every precision (DecoderQuirks.MathAttn): allocated
// within 0.03%, reserved -1.60% to +3.50%.
func TestDev89Falcon(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev89", 4, nil,
		blindLimits{resvMedian: 0.0135, resvMax: 0.036, allocMax: 0.0004, under: 1, farUnder: 0}, "families")
}

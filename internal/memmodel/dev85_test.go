package memmodel_test

import "testing"

// TestDev85BART holds BartForConditionalGeneration (family bart) to dev85's
// traces (testdata/dev85, development, not blind: bart-base s512 b16 bf16
// AMP, b8 float32, LoRA r16; bart-large s512 b8 bf16 checkpointed; with
// snapshots). At first sight, the family written from those traces'
// forward order: allocated within 0.02% but the LoRA row +0.72% (the
// frozen embeddings' and first layers' saves, dropped after: +0.00%),
// reserved +0.41% to +1.00%.
func TestDev85BART(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev85", 4, nil,
		blindLimits{resvMedian: 0.0067, resvMax: 0.0075, allocMax: 0.0003, under: 1, farUnder: 0}, "families")
}

package memmodel_test

import "testing"

// TestDev87BLOOM holds the BLOOM family to dev87's traces (testdata/dev87,
// development, not blind: bloom-560m s1024 b4 bf16 AMP, LoRA r16 on
// query_key_value, checkpointed, and s512 b4 float32, with snapshots). At
// first sight, the family written from those traces' forward order:
// allocated +0.00% on all four, reserved -0.03% to +0.49%.
func TestDev87BLOOM(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev87", 4, nil,
		blindLimits{resvMedian: 0.0045, resvMax: 0.0055, allocMax: 0.0002, under: 2, farUnder: 0}, "families")
}

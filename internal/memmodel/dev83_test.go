package memmodel_test

import "testing"

// TestDev83LoRAEncoders holds the BERT-like encoders under LoRA to dev83
// (testdata/dev83, development: DistilBERT and BERT-base sequence
// classification s512 b32 bf16 AMP, LoRA r16 on the query and value
// projections, with snapshots). DistilBERT was +5.72% allocated before
// the two fixes these traces showed (noGradSaves over the encoder's ops,
// +3.52% with it; DistilBERT's GELU output dying at a frozen lin2); now
// both rows -0.00%, reserved +0.99% and +0.76%.
func TestDev83LoRAEncoders(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev83", 2, nil,
		blindLimits{resvMedian: 0.009, resvMax: 0.011, allocMax: 0.0003, under: 2, farUnder: 0}, "families")
}

package memmodel_test

import "testing"

// TestDev95ELECTRA holds the ELECTRA family to dev95's traces
// (testdata/dev95/electra, development data: ElectraForSequenceClassification
// of electra-small-discriminator's sizes at s512 b32 bf16 AMP, whose
// 128-wide embeddings a Linear projects to 256, and
// ElectraForTokenClassification of the base sizes at s256 b16 float32,
// with snapshots). The family was written from modeling_electra's
// structure on BERT's builder before the traces came; at first sight it
// planned allocated -0.00/+0.00% and reserved +1.05/+0.84% (with the
// untraced allowance), unchanged since.
func TestDev95ELECTRA(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev95/electra", 2, nil,
		blindLimits{resvMedian: 0.011, resvMax: 0.012, allocMax: 0.0005, under: 0, farUnder: 0}, "families")
}

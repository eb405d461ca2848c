package memmodel_test

import "testing"

// TestDev92DeBERTa holds the DeBERTa-v2 family to dev92's traces
// (testdata/dev92/debv3, development data: DebertaV2ForSequenceClassification
// of microsoft/deberta-v3-base's sizes at s512 b8 bf16 AMP, plain,
// checkpointed and LoRA r16 on query_proj/value_proj, and a 6-layer one at
// s256 b8 float32, with snapshots). At first sight, the family written
// from those traces' forward: allocated +0.00/-0.09/+0.03/+0.18%, reserved
// -0.49/+0.73/+0.77/-1.08% (the bf16, fp32, checkpointed and LoRA rows).
// The LoRA row's first layer saves no query for keys that need no
// gradient; the backward's order (BmmBackward0's, the permuted gradients'
// copies, softmax's temporary, the shared weight casts' sums) brought the
// modelled reserved to the measured peak on three rows and to the
// replay of its own request stream on the checkpointed one: allocated
// +0.00/-0.11/+0.10/-0.03%, reserved with the untraced allowance
// +0.67/+0.82/+0.34/+0.73%.
func TestDev92DeBERTa(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev92/debv3", 4, nil,
		blindLimits{resvMedian: 0.009, resvMax: 0.01, allocMax: 0.0015, under: 0, farUnder: 0}, "families")
}

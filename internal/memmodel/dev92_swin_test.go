package memmodel_test

import "testing"

// TestDev92Swin holds the Swin family (transformers' SwinForImageClassification,
// model_type swin, refused before) to dev92's traces of swin-tiny at 224
// pixels (testdata/dev92/swin, development, not blind: b32 bf16 AMP, b16
// float32, b32 bf16 checkpointed, b32 bf16 LoRA r16 on q_proj/v_proj,
// with snapshots). When the family first planned, allocated -3.73%,
// -2.72%, +21.05% and -5.05%, reserved -2.44%, -3.02%, +14.85% and +3.48%.
// The traces then showed the embeddings' LayerNorm saving its float32
// cast, the shifted layers' mask broadcast to every head, cuDNN attention
// for LoRA's constant mask, the embedding output held by SwinModel.forward,
// the nested stage/layer checkpoints (nested.go) and the backward copies of
// the window partition, patch merging and residual sums: allocated +0.02%,
// +0.01%, -0.02%, -0.14%; reserved +1.07%, +1.92%, +2.80%, -2.82% (the
// LoRA row's by the order in which autograd sums the residual stream's
// gradients; each trace's own request stream replays to its reserved
// peak within 0.8%).
func TestDev92Swin(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev92/swin", 4, nil,
		blindLimits{resvMedian: 0.025, resvMax: 0.03, allocMax: 0.002, under: 1, farUnder: 1}, "families")
}

package memmodel_test

import "testing"

// TestDev75SeqCls holds a decoder's sequence-classification head to dev75
// (testdata/dev75, development, not blind: Qwen2.5-0.5B s1024 b8 bf16
// AMP, Llama-3.2-1B s512 b4 float32, with snapshots). At first sight, with
// the head as written from transformers' source: allocated within 0.01%
// on both; reserved -0.07% (Qwen) and +4.48% (Llama float32, whose trunk
// runs grouped-query attention through SDPA's math path: the replay's
// per-layer copies there differ from the trace's, a trunk matter the
// causal-LM plan shares and its logits hide).
func TestDev75SeqCls(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev75", 2, nil,
		blindLimits{resvMedian: 0.023, resvMax: 0.045, allocMax: 0.0002, under: 1, farUnder: 0}, ".")
}

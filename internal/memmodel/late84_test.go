package memmodel_test

import "testing"

// TestLate84Blind holds the eighty-fourth blind set (testdata/late84,
// evaluated once per family, see its RESULTS.md): ModernBERT-large bf16,
// base token classification fp16 checkpointed, base masked LM float32,
// large LoRA (at 3f10dc3: allocated -0.13% to +0.04%, reserved +0.62% to
// +1.82%, all inside both bands); DeBERTa-v3 large bf16, base token
// classification fp16 checkpointed, base QA LoRA (at bf5eb64: allocated
// -0.05% to +0.00%, reserved +0.12% to +0.60%, all inside).
func TestLate84Blind(t *testing.T) {
	checkBlindSet(t, "../../testdata/late84", 7, nil,
		blindLimits{resvMedian: 0.008, resvMax: 0.019, allocMax: 0.0014, under: 3, farUnder: 0})
}

package memmodel_test

import "testing"

// TestDev96Marian holds the MarianMT family to dev96's traces
// (testdata/dev96/marian, development data: MarianMTModel of
// Helsinki-NLP/opus-mt-en-de's sizes at s128 b32 bf16 AMP, s256 b16
// float32 and s256 b16 bf16 checkpointed, with snapshots). Written on
// BART's builder from the traces' forward order (sinusoids looked up
// once per sequence under no_grad, no embedding LayerNorm, SiLU), it
// planned at first sight allocated +0.00% on every row (|err| < 0.005%)
// and reserved +0.70% to +0.78%; unchanged since.
func TestDev96Marian(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev96/marian", 3, nil,
		blindLimits{resvMedian: 0.009, resvMax: 0.01, allocMax: 0.0003, under: 0, farUnder: 0}, "families")
}

// TestDev96MBART holds the mBART family to dev96's traces
// (testdata/dev96/mbart: MBartForConditionalGeneration of
// facebook/mbart-large-50's sizes at s256 b8 bf16 AMP and s512 b4 bf16
// LoRA r16 on q_proj/v_proj, a 512-wide 6+6-layer one at s128 b8
// float32, with snapshots). BART's builder with pre-norm sublayers (each
// LayerNorm's output bound until its attention module or the MLP's
// activation returns) and a final LayerNorm per stack planned at first
// sight allocated +0.00% on every row (|err| < 0.005%) and reserved
// +0.58% to +1.09%; unchanged since.
func TestDev96MBART(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev96/mbart", 3, nil,
		blindLimits{resvMedian: 0.008, resvMax: 0.012, allocMax: 0.0003, under: 0, farUnder: 0}, "families")
}

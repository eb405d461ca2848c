package memmodel_test

import "testing"

// TestLate88Blind holds late88's blind MarianMT and mBART training rows,
// evaluated once after both families were final (fam-mbart merged at
// 36253d6): the wide Marian s256 b32 fp16 checkpointed, opus-mt-en-de s128
// b64 bf16 LoRA, a small mBART s256 b16 bf16 and mbart-large-50 s512 b4
// checkpointed, allocated +0.00% each, reserved +0.34%, +0.43%, +0.41%
// and +0.58%, all inside both bands.
func TestLate88Blind(t *testing.T) {
	checkBlindGroups(t, "../../testdata/late88", 4, nil,
		blindLimits{resvMedian: 0.005, resvMax: 0.0065, allocMax: 0.0005, under: 0, farUnder: 0}, "families")
}

// TestLate89Blind holds late89's blind rows of the session's new
// families, evaluated once at 7802d5d: CLIP B/32 b256 float32 LoRA +0.00%
// allocated -0.12% reserved, Wav2Vec2 large 6 s b8 float32 -0.01% and
// +0.94%, ELECTRA base s256 b32 fp16 -0.00% and +0.78%, Marian s256 b32
// float32 checkpointed +0.00% and +0.47%, a small mBART s512 b8 bf16 LoRA
// +0.00% and +0.73%; all inside both bands.
func TestLate89Blind(t *testing.T) {
	checkBlindGroups(t, "../../testdata/late89", 5, nil,
		blindLimits{resvMedian: 0.008, resvMax: 0.0095, allocMax: 0.0005, under: 1, farUnder: 0}, "families")
}

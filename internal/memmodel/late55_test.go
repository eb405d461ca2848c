package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late55Dir is the fifty-fifth blind set (testdata/late55/README.md): step
// times of ResNet-18/34 and BERT-family encoders at shapes no set ran
// (call 109), evaluated with the models of e632319
// (testdata/late55/RESULTS.md).
const late55Dir = "../../testdata/late55"

// TestStepTimeLate55: seven blind step times in two groups. At first
// sight: median 7.9%, max +24.4% (RoBERTa-base s384 b32, over: the
// encoders' host cost), all in band, same-model order 2 of 2.
func TestStepTimeLate55(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late55Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 7, stepTargets{median: 0.080, max: 0.245, ratioMedian: 0, ratioMax: 0, order: 1})
}

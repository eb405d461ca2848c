package memmodel_test

import (
	"path/filepath"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestFitPicksPick9 is issue 14's `plan --fit` check on the choice session
// 20 added: channels-last beside NCHW (testdata/pick9). Each CNN's top
// three candidates, ranked by 05cccd2, and its best NCHW candidate, timed
// alone on the H200. ResNet-50 (global batch 256): the first pick, fp16
// channels-last b256, ran fastest, 46.0 ms against 87.0 for the best NCHW
// one (1.89x; 1.73x predicted). ConvNeXt-T (256): the first pick, bf16
// channels-last, ran fastest (86.5 ms, the NCHW twin 88.6). EfficientNet-B2
// (128): the first pick, bf16 channels-last (66.5 ms predicted, 66.2
// measured), ran 10.7% behind the second, fp16 channels-last (66.9
// predicted, 59.8 measured): the two were predicted within 0.6% of each
// other, the fp16 one host-bound on the median host's 53.5 ms of issue,
// and ran GPU-bound beyond it; the criterion's 5% is missed. Step times
// median 4.8%, max 17.3% (ResNet-50 fp16 channels-last b128x2, host-bound,
// over); 11 of 11 inside their bands.
func TestFitPicksPick9(t *testing.T) {
	ws, skipped, err := measured.ReadTimed(filepath.Join("../../testdata/pick9", "results.jsonl"))
	if err != nil || len(skipped) > 0 || len(ws) != 11 {
		t.Fatalf("%d rows, skipped %v, %v", len(ws), skipped, err)
	}
	ev, err := measured.EvalStepTimeWith(ws, memmodel.DefaultHostCosts())
	if err != nil {
		t.Fatal(err)
	}
	checkStepEval(t, ev, 11, stepTargets{median: 0.049, max: 0.174, ratioMedian: 0.095, ratioMax: 0.223, order: 0.91})
	checkAllInBand(t, ev)
	checkFirstPicks(t, ev, 3, map[string]bool{"pick9-efficientnet-b2": true})
}

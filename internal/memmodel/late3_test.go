package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late3Dir is the third blind set (testdata/late3/README.md): captured
// after every memory model of session 3 was final and evaluated once
// (testdata/late3/RESULTS.md).
const late3Dir = "../../testdata/late3"

// TestLate3Blind: 11 training rows. At its evaluation: peak reserved
// median 0.37%, max 11.52% (ViT-B/16 fp16 ckpt, over; ResNet-50 b160 fp32
// ckpt −9.21%), 9 of 11 under (3 more than 2% low); allocated max 2.22%;
// every row inside both bands. Held there.
func TestLate3Blind(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 11 workloads")
	}
	checkBlindSet(t, late3Dir, 11, nil, blindLimits{resvMedian: 0.005, resvMax: 0.12, allocMax: 0.025, under: 9, farUnder: 3})
}

// TestStepTimeLate3: 10 blind step times, at evaluation median 5.0%, max
// 28.1% (ConvNeXt-S bf16, predicted too fast), Qwen3 ckpt/plain ratio off
// by 19%; same-model order 3/3. Held there, but for the median: pricing
// GPT-2's odd-vocabulary GEMMs from measurements (linearGEMM) moved GPT-2
// medium fp16 from -6.6% to +1.7% and exposed its checkpointed twin's
// recompute drain (+1.9% -> +8.6%, testdata/profile README round 8), so
// the median is 6.8%.
func TestStepTimeLate3(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late3Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 10, stepTargets{median: 0.07, max: 0.29, ratioMedian: 0.10, ratioMax: 0.25, order: 0.95})
}

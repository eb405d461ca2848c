package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late80Dir is the eightieth blind set (testdata/late80/README.md): BLOOM
// and transformers' ConvNeXt, captured in call164/165 on a lent H100 with
// dev87/dev88 and evaluated once with the models of 0499245
// (testdata/late80/RESULTS.md).
const late80Dir = "../../testdata/late80"

// TestLate80Blind: five memory rows, at first sight allocated within
// 0.02%, reserved +0.10% to +1.00%, all inside both bands.
func TestLate80Blind(t *testing.T) {
	checkBlindSet(t, late80Dir, 5, nil,
		blindLimits{resvMedian: 0.007, resvMax: 0.0105, allocMax: 0.0003, under: 1, farUnder: 0})
}

// TestStepTimeLate80: bloom-560m s1024 b4 bf16 -12.3%, checkpointed -9.4%;
// ConvNeXt-T b64 bf16 -5.2%, float32 -7.0% (the H100's host); the
// checkpointing and AMP ratios within 3.3%. Since session 57's H100 host
// costs (cheaper casts and checkpoint regions): -13.6%, -11.5%, -9.6%,
// -7.0%; ratios within 2.8%. This host ran the H100 hosts' usual casts
// dearer.
func TestStepTimeLate80(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late80Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 4, stepTargets{median: 0.106, max: 0.137, ratioMedian: 0.027, ratioMax: 0.034, order: 1})
}

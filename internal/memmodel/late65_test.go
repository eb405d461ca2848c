package memmodel_test

import (
	"path/filepath"
	"testing"
)

// TestStepTimeLate65 holds late65, the second blind set timed to test the
// phase-aware host fit, on a fast lent H100 host (7.4 us an op): BERT-base,
// ConvNeXt-T, GPT-2 medium LoRA and EfficientNet-B0 technique pairs. At
// its one evaluation (e1bb40b): median 16.7%, max 50.4% (GPT-2 medium s256
// b1, 48.8 ms measured, 73.3 planned, the one row outside its band), every
// row over; ratios 4 of 8 within 10% (median 10.8%, max 25.7%: GPT-2
// medium LoRA 1.11x measured, 0.82x planned), same-model order 13 of 15.
// Since session 57's H100 host costs (cheaper casts and checkpoint
// regions, steptime_lenthost.go): median 11.5%, max 41.8%, ratios median
// 9.7%, order 14 of 15, all 13 in band.
func TestStepTimeLate65(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join("../../testdata/late65", "results.jsonl"))
	checkStepEval(t, ev, 13, stepTargets{median: 0.12, max: 0.42, ratioMedian: 0.10, ratioMax: 0.26, order: 0.93})
	checkAllInBand(t, ev)
}

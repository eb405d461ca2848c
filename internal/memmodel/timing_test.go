package memmodel_test

import (
	"math"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
)

// TestStepTimeRatios holds the step-time acceptance criterion: within a
// family, the predicted ratio of AMP to fp32, checkpointing to none and
// accumulation to one large batch is within 25% of the ratio measured on
// the H200 (testdata/timing.jsonl, copied from shared/fixtures/h200).
func TestStepTimeRatios(t *testing.T) {
	rows := readRows(t, "testdata/timing.jsonl")
	pairs, err := measured.StepTimeRatios(rows)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, p := range pairs {
		kinds[p.Kind]++
		t.Logf("%-12s %-30s / %-24s measured %.2f predicted %.2f (%+.0f%%)", p.Kind, p.Num, p.Den, p.Measured, p.Predicted, 100*p.Err())
		if math.Abs(p.Err()) > 0.25 {
			t.Errorf("%s/%s: predicted ratio %.2f, measured %.2f (%+.0f%%, limit ±25%%)", p.Num, p.Den, p.Predicted, p.Measured, 100*p.Err())
		}
	}
	if kinds["amp"] < 5 || kinds["checkpoint"] < 5 || kinds["accumulation"] < 2 {
		t.Errorf("too few pairs compared: %v", kinds)
	}
}

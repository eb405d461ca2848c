package memmodel_test

import "testing"

// TestStepTimeLate18: the eighteenth blind set, nine mixture-of-experts
// steps on shapes no set had timed, captured after session 14's MoE
// pricing to test it (testdata/late18/RESULTS.md): median 6.2%, max 22.2%
// (Qwen2-MoE (h), 60 experts at hidden 1024, LoRA, under: the per-expert
// dispatch of the fallback undercounted at small width), 9 of 9 inside
// the band, the three ratios within 3.4%. Held there.
func TestStepTimeLate18(t *testing.T) {
	ev := evalTimedFile(t, "../../testdata/late18/timing/results.jsonl")
	checkStepEval(t, ev, 9, stepTargets{median: 0.063, max: 0.223, ratioMedian: 0.023, ratioMax: 0.035, order: 0.95})
}

package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late53Dir is the fifty-third blind set (testdata/late53/README.md): step
// times of GELU- and bias-heavy models (ViT, ConvNeXt, BERT, Whisper, GPT-2
// medium) at shapes no set ran, captured with dev56's kernel timings
// (call 107) and evaluated with the models of 63a8a65, which price bias
// gradients and half-precision GELU from them (testdata/late53/RESULTS.md).
const late53Dir = "../../testdata/late53"

// TestStepTimeLate53: eleven blind step times in three groups. At first
// sight: median 6.3%, max +14.4% (ConvNeXt-S b80 bf16, host-bound), all in
// band, same-model order 2 of 2; the models before 63a8a65 had median
// 3.3%, max 9.9% on them (RESULTS.md: the near-host-bound steps were
// already over and took the repriced kernels' time).
func TestStepTimeLate53(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late53Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 11, stepTargets{median: 0.064, max: 0.145, ratioMedian: 0, ratioMax: 0, order: 1})
}

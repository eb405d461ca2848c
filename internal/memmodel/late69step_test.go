package memmodel_test

import (
	"path/filepath"
	"testing"
)

// TestStepTimeLate69 holds late69, the sixth blind set of the host model,
// asked for on an H200 and timed on a lent H100 (9.1 us an op): Qwen3-0.6B,
// Gemma 3 1B, OLMo 2 1B, Granite-2B-like, ViT-B/16, ConvNeXt-T, T5-base
// and RoBERTa-base technique pairs at GPU-bound to balanced shapes. At its
// one evaluation (the committed costs of session 41's start): median 6.8%,
// max 39.4% (RoBERTa-base s256 b16x2 fp16, 53.5 ms measured, 74.6
// planned), all 17 inside the band; the GPU-bound rows within
// -6.8..+1.0%; ratios 4 of 8 within 10% (median 15.2%, max 26.7%: T5's
// bf16/fp32), same-model order 10 of 10.
func TestStepTimeLate69(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join("../../testdata/late69", "results.jsonl"))
	checkStepEval(t, ev, 17, stepTargets{median: 0.07, max: 0.40, ratioMedian: 0.16, ratioMax: 0.27, order: 1})
	checkAllInBand(t, ev)
}

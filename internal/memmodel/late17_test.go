package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late17Dir is the seventeenth blind set (testdata/late17/README.md):
// captured at the start of session 14 (calls 47 and 48) before any model
// of the session changed, kept outside the repository until it was
// evaluated with the session-start models (testdata/late17/RESULTS.md).
const late17Dir = "../../testdata/late17"

// TestLate17Blind: 21 training rows, real-size configurations no set had
// captured (7-9B LoRA fine-tunes of Llama 3.1, Qwen3, Mistral and Gemma 2,
// Phi-3 mini, Qwen1.5-MoE-A2.7B, T5-3B, Whisper large-v3, ViT-H/14 fp16,
// EfficientNet-B7 and B5 float32 ...). Reserved median 0.54%, max 4.41%
// (EfficientNet-B7 b32, over), 1 under (ResNet-152 b256 checkpointed,
// -2.99%, inside its band); allocated max 3.02% (EfficientNet-B7, over,
// outside its band); Mixtral (g)'s reserved +3.25% was above its band. The
// memory models did not change in session 14: held there.
func TestLate17Blind(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 21 workloads")
	}
	// EfficientNet-B7's allocated (+3.02%, over) stays below its band with
	// late17 as band rows (bands17); Mixtral (g)'s reserved (+3.25%,
	// over), above its band at first sight, is inside it since
	known := map[string]bool{"late17-efficientnet-b7-b32-bf16 allocated": true}
	checkBlindSet(t, late17Dir, 21, known, blindLimits{resvMedian: 0.0055, resvMax: 0.0445, allocMax: 0.031, under: 1, farUnder: 1})
}

// TestLate17Compiled: one blind compiled step (SmolLM2-1.7B s1024 b4 bf16
// AMP): allocated -0.17%, reserved -5.95% (33.65 GiB predicted against
// 35.78 measured: under, inside the compiled band, the largest compiled
// reserved miss of any set). Held there.
func TestLate17Compiled(t *testing.T) {
	checkCompiledRow(t, late17Dir, 0.002, 0.060)
}

// TestStepTimeLate17: 32 blind step times on the slowest host of any set
// (10.4 us per issued op at the probe). With the session-start models:
// median 5.2%, max 27.3% (Llama 3.1 8B LoRA checkpointed, under: host-bound
// there), 29 of 32 inside the band (the three outside were MoE steps over
// by 14-21%), ratios 13 of 17 within 10%, same-model order 20 of 20. With
// session 14's MoE pricing (dev20, dev21; these rows took no part in it):
// median 3.2%, the six MoE steps within 4.2% (were +1.2..+21.4%), 32 of 32
// inside the band; the ratios unchanged (13 of 17, max 23.9%: the Llama
// 8B LoRA checkpointing pair, 1.80 measured, 1.37 predicted). Held there.
// Session 19's GEMM traffic floor (gemmTraffic: the rank-16 adapters'
// products move more bytes than their FLOPs take) adds 0.4 ms to the plain
// LoRA step and none to the host-bound checkpointed one: that pair's ratio
// error 23.9 -> 24.1%.
func TestStepTimeLate17(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late17Dir, "timing", "results.jsonl"))
	// session 27: bias-gradient sums and half-precision GELU at their own kernels' rates (dev56); median 3.3% (ConvNeXt-S b128 -1.7 -> +3.5%, ViT-B/16 b256 -0.6 -> +2.2%)
	checkStepEval(t, ev, 32, stepTargets{median: 0.034, max: 0.274, ratioMedian: 0.061, ratioMax: 0.245, order: 0.95})
}

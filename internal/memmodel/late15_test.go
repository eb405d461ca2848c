package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late15Dir is the fifteenth blind set (testdata/late15/README.md):
// captured at the start of session 12 (call 41) before any model of the
// session changed, kept outside the repository and every helper's view
// until the first round was merged, and evaluated with the session-start
// models and once with the final ones (testdata/late15/RESULTS.md).
const late15Dir = "../../testdata/late15"

// TestLate15Blind: 23 training rows (EfficientNet-B2 checkpointed failed
// in the harness). Final: reserved median 0.56%, max 5.25% (ResNet-18 b512
// bf16, over, above its band), 4 under, one more than 2% low (Granite (f)
// fp32 s2048, -2.82%, inside its band); allocated median 0.03%, max 4.82%
// (Phi-3 (f) fp32 checkpointed, under, outside the allocated band). The
// two band misses are known; held there. With late15 as band rows
// (bands15) ResNet-18 b512's reserved (10.093 GiB predicted, 9.590
// measured, +5.25%) is inside the band its own rows widen (family=resnet,
// kind=cnn: 8.54-11.00 GiB, was 9.71-10.68); the Phi-3 allocated miss
// stays. Session 16's held image batch (heldInputs) leaves Whisper small
// fp32 0.41% low: 5 under.
func TestLate15Blind(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 23 workloads")
	}
	// Session 22 (a linear's input gradient added after the node returns):
	// Granite (f) float32 -2.82% -> -1.72% reserved, now nearer the point
	// than the logits-split variant (+4.4% over the point), so bench/bands
	// no longer counts it as a split the GPU took, the Granite family has
	// none, and the band's top (x1.011) no longer reaches the variant: the
	// row is 0.55% above its top. Recorded, not hidden.
	// Session 23: Phi-3 (f) fp32 checkpointed allocated -4.82% -> -0.02%
	// (the math-path softmax's gradient copy), inside. The narrower pooled
	// allocated band leaves T5-large bf16, 0.10% low, above its top.
	// Session 26: the pooled band's top moved with late45/late50/late51/
	// late52 joining the band data and the float32 ResNet rows tightening;
	// it holds Granite (f) at the session's end.
	known := map[string]bool{
		"late15-t5-large-s512-b8-bf16 allocated": true,
		// session 44's narrower allocated band: SD 1.5 fp16, 0.01% low,
		// above its top
		"late15-sd15-unet-b8-fp16 allocated": true,
	}
	checkBlindSet(t, late15Dir, 23, known, blindLimits{resvMedian: 0.0057, resvMax: 0.053, allocMax: 0.049, under: 5, farUnder: 1})
}

// TestLate15Compiled: one blind compiled step (GPT-2 medium s1024 b8 bf16):
// allocated -0.83%, reserved +0.87%, inside the compiled band; -3.73%
// since session 16's float32 parameter gradients (see TestCompiledRows).
// Held at 0.9% and 3.8%.
func TestLate15Compiled(t *testing.T) {
	checkCompiledRow(t, late15Dir, 0.009, 0.038)
}

// TestStepTimeLate15: 29 blind step times on a slow lent host (9.58 us per
// issued op; late14's host 6.96). Start and final: median 8.6%, max 60.5%
// (ConvNeXt-B b64 checkpointed, over, host-bound), 66% under, ratios 8 of
// 14 within 10% (median 6.6%, max 46.0%: the ConvNeXt-B checkpointing
// ratio; the SD 1.5 UNet LoRA ratio +45.7% rests on a plain step that took
// 227.5 ms here against 158.0 and 149.2 ms on two earlier hosts), same-model
// order 13 of 13, 25 of 29 inside the band. steptime27b moved only the
// fp32 rows (Whisper small fp32 -3.9% -> -1.3%). Held there.
func TestStepTimeLate15(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late15Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 29, stepTargets{median: 0.087, max: 0.606, ratioMedian: 0.067, ratioMax: 0.461, order: 0.95})
}

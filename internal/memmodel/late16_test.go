package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late16Dir is the sixteenth blind set (testdata/late16/README.md):
// captured at the start of session 13 (call 43) before any model of the
// session changed, kept outside the repository and every helper's view
// until the session's model work was done, and evaluated with the
// session-start models (testdata/late16/RESULTS.md).
const late16Dir = "../../testdata/late16"

// TestLate16Blind: 22 training rows, real-size configurations no set had
// captured (Llama 3.2 3B, Qwen3-4B LoRA, Gemma 3 4B LoRA, GPT-2 XL, Whisper
// medium, ConvNeXt-L, ViT-L/16 fp16, EfficientNet-B4 and ResNet-50 fp32
// checkpointed, DiT-XL/2, the SD 1.5 UNet) and new mixes on the reduced
// families. Reserved median 0.57%, max 4.45% (EfficientNet-B4 b64
// checkpointed, 2.085 GiB predicted against 2.182 measured, under, inside
// its band), 2 under, one of them more than 2% low; allocated max 0.88%
// (Gemma 3 4B LoRA, under); every row inside both printed bands. Held
// there. Session 21 (late36 joined the band data, BERT's lifetimes
// changed the band rows): Gemma 3 4B LoRA's allocated (-0.88%, the
// model unchanged) 0.14% above its narrowed band's top; recorded, and
// this entry fails once the row is inside again.
func TestLate16Blind(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 22 workloads")
	}
	// Session 23 (Phi-3's attention-output copy and the math-path softmax's
	// gradient copy, T5's encoder tail outside the checkpoint: Phi-3 and T5
	// allocated exact) narrowed the pooled allocated band; Granite LoRA
	// checkpointed (0.06% low) is above its top. Phi-3 (f) s2048 b2 bf16
	// checkpointed: allocated exact, reserved +0.93% -> -2.68% (a 250 MiB
	// logits block the replay finds room for in step 1 where PyTorch makes a
	// segment; dev45 has its snapshot), below its band.
	// (Gemma 3 4B LoRA at s1024, its window, inside since session 44's
	// sliding mask at seq == window)
	known := map[string]bool{"late16-granite-f-s1024-b4-bf16-lora16-ckpt allocated": true, "late16-phi3-f-s2048-b2-bf16-ckpt reserved": true}
	// Session 22 (a linear's input gradient added into its residual after
	// the node returns): OLMo 2 float32 checkpointed +0.55% -> +0.71%
	// reserved, which moves the median from 0.55% to 0.58%; the cuBLAS
	// workspace after the first linear's output (as every trace has it)
	// moves Whisper medium checkpointed +0.51% -> +0.66% and ViT-L/16 fp16
	// +0.40% -> +0.59%: 0.59%.
	// Session 26 (float32 1×1 expansions of 4 MiB or more keep no split-K
	// partials, read off the fixtures' ResNet-50 b64 trace): ResNet-50
	// b256 float32 checkpointed +0.57% -> -0.40%, a fourth row under.
	checkBlindSet(t, late16Dir, 22, known, blindLimits{resvMedian: 0.0060, resvMax: 0.0455, allocMax: 0.009, under: 4, farUnder: 2})
}

// TestLate16Compiled: one blind compiled step (Qwen2.5-0.5B s1024 b8 bf16
// AMP): allocated -2.76%, reserved -2.71% (21.732 and 22.964 GiB predicted
// against 22.349 and 23.604 measured), both under and inside the compiled
// band. Held at 2.8% and 2.8%.
func TestLate16Compiled(t *testing.T) {
	checkCompiledRow(t, late16Dir, 0.028, 0.028)
}

// TestStepTimeLate16: 30 blind step times (7.18 us per issued op at the
// probe). Median 3.6%, max 24.4% (EfficientNet-B4 b64 checkpointed, over,
// host-bound), 57% under, 30 of 30 inside the band, ratios 14 of 17 within
// 10% (median 4.8%, max 23.8%: EfficientNet-B4's checkpointing; Whisper
// medium's +17.4%, Mixtral (f) LoRA -18.0%), same-model order 18 of 18.
// testdata/dev19 timed the two checkpointing pairs again in three processes
// on another host: their checkpointed steps took 1.12-1.37x as long there.
// Held there.
func TestStepTimeLate16(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late16Dir, "timing", "results.jsonl"))
	// session 27: bias-gradient sums and half-precision GELU at their own kernels' rates (dev56); ratios' median 4.9 -> 6.5% (ConvNeXt-L b64 +3.2 -> +7.3%, ViT-L +0.8%; the GPU-bound ConvNeXt/ViT steps are priced higher, their host-bound twins not)
	checkStepEval(t, ev, 30, stepTargets{median: 0.037, max: 0.245, ratioMedian: 0.066, ratioMax: 0.239, order: 0.95})
}

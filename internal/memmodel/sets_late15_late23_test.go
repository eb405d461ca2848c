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

// late19Dir is the nineteenth blind set (testdata/late19/README.md):
// captured at the start of session 15 (call 51) before any model of the
// session changed, kept outside the repository until it was evaluated
// with the session-start models (testdata/late19/RESULTS.md).
const late19Dir = "../../testdata/late19"

// TestLate19Blind: 16 training rows on shapes no set had captured (LoRA on
// bf16-loaded Llama 3.2 3B, Qwen3-4B, Gemma 2 2B, Phi-3 mini and a Qwen3-MoE;
// Qwen2.5-3B full AMP, SmolLM2-360M, Whisper medium, T5-large s1024, ViT-L/16
// fp16, ConvNeXt-L, EfficientNet-B6, ResNet-34 fp16, DiT-B/2, the SD 1.5
// UNet). With the session-start models: reserved median 0.53%, max 8.94%
// (ViT-L/16 fp16 b128 checkpointed, under, outside its band), 3 under (2
// more than 2% low: that and ResNet-34 fp16 b512, -2.40%); allocated max
// 1.93% (ResNet-34, under). With the ViT patch conv's half-precision
// workspaces read off dev23's snapshot of the ViT-L/16 row (vitStemWorkspace)
// that row is -4.52%, inside its band. Since ResNet-34's fp16 first steps
// keep Adam's state (session 20: basic-block ResNets do not overflow
// GradScaler, Arch.scalerOverflows) its allocated figure is inside its
// band.
func TestLate19Blind(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 16 workloads")
	}
	known := map[string]bool{
		"late19-sd15-unet-b16-bf16w-lora16-ckpt allocated": true,
	}
	checkBlindSet(t, late19Dir, 16, known, blindLimits{resvMedian: 0.0055, resvMax: 0.046, allocMax: 0.020, under: 3, farUnder: 2})
}

// TestLate19Compiled: one blind compiled step (Llama 3.2 1B s1024 b4 bf16
// AMP): allocated -1.71%, reserved -8.75% (24.92 GiB predicted against
// 27.31 measured: under, below the compiled band).
func TestLate19Compiled(t *testing.T) {
	checkCompiledRow(t, late19Dir, 0.018, 0.088)
}

// TestStepTimeLate19: 24 blind step times (6.6 us per issued op at the
// probe), half of the LoRA rows on a base loaded in bf16, the choice plan
// --fit makes for LoRA since session 14. With the session-start models:
// median 3.7%, max 19.5% (ConvNeXt-L b32 x 2, under: host-bound micro-
// batches), 24 of 24 inside the band, ratios 6 of 9 within 10% (the two
// accumulation pairs -14.0% and -22.7%, Whisper medium's checkpointing
// +17.2%), same-model order 11 of 11.
//
// Session 18 (convolutions priced from their kernels' times, testdata/dev29): max 19.7 -> 21.1% (ConvNeXt-L
// b32x2 -19.7 -> -21.1%), ratios median 4.7%.
func TestStepTimeLate19(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late19Dir, "timing", "results.jsonl"))
	// session 17: ConvNeXt-L b32 x 2 19.5% -> 19.7% (dev28's channels-last
	// ResNet shapes among its downsampling convolutions' neighbours)
	// session 27: bias-gradient sums and half-precision GELU at their own kernels' rates (dev56); median 4.0%; ConvNeXt-L's accumulation pair -22.7 -> -24.6% (b64 +2.5 -> +6.6%, the host-bound b32x2 unchanged)
	checkStepEval(t, ev, 24, stepTargets{median: 0.041, max: 0.212, ratioMedian: 0.048, ratioMax: 0.25, order: 0.95})
}

// TestLate20Blind: five ViT rows on shapes no set had captured (ViT-B/16
// fp16 b256 and ViT-L/16 fp16 b160 checkpointed, ViT-H/14 bf16 b48 and
// ViT-L/16 bf16 b96 checkpointed, ViT-B/16 bf16 b192), captured after
// session 15's ViT patch-conv workspaces (c3d823d) to test them
// (testdata/late20). With that model: reserved median 1.00%, max 4.30%
// (ViT-L/16 fp16 b160 checkpointed, under, inside its band), 2 under (1
// more than 2% low), all inside their bands; allocated within 0.21%.
// Without the change the same rows were median 0.88%, max 4.00%.
// Session 16 holds the image batch to the step's end (heldInputs, read
// off dev23's ViT-L/16 b128 fp16 trace, which it moved from -4.52% to
// +0.70%): here median 1.00%, max 6.26% (ViT-L/16 fp16 b160
// checkpointed, under, now outside its band: the cache's growth in the
// second forward, dev23's open gap, moved to this shape), 1 under.
// Session 21's bands (late36, late37 joined) hold it again.
func TestLate20Blind(t *testing.T) {
	checkBlindSet(t, "../../testdata/late20", 5, map[string]bool{}, blindLimits{resvMedian: 0.0101, resvMax: 0.0627, allocMax: 0.0022, under: 2, farUnder: 1})
}

// TestLate21Compiled: a blind compiled Qwen3-0.6B step (s1024 b8 bf16 AMP,
// testdata/late21), the first compiled Qwen3: allocated -8.11%, reserved
// -7.78% (26.05 GiB predicted against 28.24 measured), inside the band
// widened by 10% for compiled steps (below the 6% one it replaced):
// Inductor keeps more for backward on the wide-vocabulary decoders than
// the replay (dev23's Llama 3.2 1B snapshot: 2.3 GiB more live at the
// logits), not modelled. Session 16 (dev25's snapshot of this step):
// under compile SDPA's decomposition repeats grouped k and v to the query
// heads and the backward keeps those copies, and the q/k norms' saved
// inputs (q_proj's and k_proj's outputs) outlive their last read:
// allocated -0.19%; reserved +8.39% (over: the replay needs a sixth
// 2374 MiB logits segment in step 2 where the GPU reuses a cached one, not
// found). Held at 0.3% and 8.5%.
func TestLate21Compiled(t *testing.T) {
	checkCompiledRow(t, "../../testdata/late21", 0.003, 0.085)
}

// late22Dir is the twenty-second blind set (testdata/late22/README.md):
// captured at the start of session 16 (call 55) before any model of the
// session changed, kept outside the repository until it was evaluated
// with the session-start models (testdata/late22/RESULTS.md).
const late22Dir = "../../testdata/late22"

// TestLate22Blind: 16 training rows on new shapes of most families. With the
// session-start models and the final ones alike (only Whisper medium moves,
// +0.43% -> +0.52%): reserved median 0.54%, max 3.14% (ViT-B/16 b256 bf16,
// over, above its band), 4 under (none more than 2% low); allocated max
// 1.49% (the SD 1.5 UNet LoRA, over, above its band). With late22 as
// band rows (session 16's bands) ViT-B/16's reserved is inside its band.
func TestLate22Blind(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 16 workloads")
	}
	known := map[string]bool{
		"late22-sd15-unet-b8-bf16-lora16 allocated": true,
	}
	// Session 22 (the cuBLAS workspace after the first linear's output,
	// as the traces have it): Whisper medium checkpointed +0.52% -> +1.76%,
	// ViT-B/16 b256 bf16 +3.14% -> +2.33%; the median 0.55% -> 0.58%.
	checkBlindSet(t, late22Dir, 16, known, blindLimits{resvMedian: 0.0059, resvMax: 0.032, allocMax: 0.015, under: 4, farUnder: 0})
}

// TestLate22Compiled: two blind compiled decoders (TinyLlama s1024 b4,
// SmolLM2-360M s1024 b8, bf16 AMP). Session start: allocated -3.05% and
// -4.55%, reserved -10.37% and -12.95%, both below the compiled band. With
// session 16's three compile mechanisms (float32 parameter gradients,
// SDPA's repeated grouped k/v, the q/k norms' saved projections; read off
// dev23's and dev25's snapshots after these rows were seen): allocated
// -0.11% and -0.38%, reserved -0.57% and -1.38%. Held at 0.5% and 1.5%.
func TestLate22Compiled(t *testing.T) {
	checkCompiledSet(t, late22Dir, 2, 0.005, 0.015, 0)
}

// TestStepTimeLate22: 23 blind step times (the DiT-L/2 LoRA row failed to
// run). Session start and final: median 3.2%, max 21.6% (ConvNeXt-B b128
// checkpointed, over: host-bound), 23 of 23 inside the band, ratios 10 of
// 12 within 10% (ConvNeXt-B's checkpointing +27.9%, the SD 1.5 UNet's
// +18.2%: both host-bound pairs), same-model order 13 of 13. Session 17
// (a torchvision CNN block's checkpoint region costs ckptRegionCNN of the
// pooled one): ConvNeXt-B checkpointed +21.6% -> +9.9%, its ratio +27.9%
// -> +16%; max 21.4% (the SD 1.5 UNet b8, under), ratios max 18.2%.
// Session 23 (T5's encoder final norm outside the last block's checkpoint,
// so not recomputed): T5-base checkpointed -4.2% -> -4.4%, its ratio a
// little further under (-3%), the ratios' median 2.5% -> 2.6%.
func TestStepTimeLate22(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late22Dir, "timing", "results.jsonl"), "late22-t-dit-l-2-b64-bf16-lora16")
	checkStepEval(t, ev, 23, stepTargets{median: 0.033, max: 0.215, ratioMedian: 0.027, ratioMax: 0.19, order: 0.95})
}

// TestLate23Compiled: seven blind compiled steps (testdata/late23), captured
// to test the compiled parameter gradients' dtype (503de60): Qwen2.5-1.5B
// b4, SmolLM2-1.7B b8, Qwen3-0.6B s2048 b4, GPT-2 large b4, TinyLlama fp16
// AMP, and the first compiled vision steps, ViT-B/16 b128 and ResNet-50
// b128. With 503de60: reserved median 3.49%, max 7.86% (Qwen3, under), 2
// more than 2% low, all inside the band. With the final models (SDPA's
// repeated grouped k/v and the q/k norms' saved projections, from dev25's
// Qwen3 snapshot, after these were seen): reserved -1.42%..+8.30%
// (Qwen3, over; ResNet-50 +6.13%, its convolutions' compiled kernels not
// modelled), median 0.87%, none more than 2% low; allocated -0.24%..+3.48%
// (ResNet-50). Held there. Session 26's large-batch fp16/bf16 split-K
// partials (dev54, conv_workspace.go) move the compiled ResNet-50 b128 bf16
// from +6.13% to +8.42% reserved, over: its eager convolutions' workspaces
// are dev54's, the compiled step's are not traced (allocated +3.49%).
func TestLate23Compiled(t *testing.T) {
	checkCompiledSet(t, "../../testdata/late23", 7, 0.035, 0.085, 0)
}

package memmodel_test

import (
	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
	"path/filepath"
	"testing"
)

// TestFitPicksPick3 is issue 14's `plan --fit` check on three more models
// (testdata/pick3/README.md): each model's top three candidates, computed
// with session 9's final step-time model, timed alone on the H200
// afterwards (plus ResNet-101's bf16 b512, which the plan puts 18% behind
// fp16: measured 298 vs 253 ms). For all three the candidate ranked first
// ran fastest (ViT-L/16 bf16 b256 324 ms, Qwen2.5-1.5B s1024 bf16 b16x4
// 1796 ms, ResNet-101 fp16 b512 253 ms); step times within 5.0%.
// Round 18 (half-precision GEMMs at the burst clock the timing probes
// measure, x1.20 over gt_calib.py's throttled table; the optimizer's
// per-parameter slope from its GPU-bound steps, +10%): both justified by
// the kernel profiles (transformer GEMMs +14..29% long -> -5..+8%,
// optimizer kernels 7-13% short -> -5..+2%). They had hidden GPU time the
// model still misses (ViT copies and pointwise, T5's float32 GEMMs) and
// host time (steps longer than the GPU's busy time on every profile).
// Here: ViT-L/16 b256 -2.6% -> -10.2% (max 10.3%; median 4.9%), the
// GPU-bound ViT's copies and pointwise kernels; ranking unchanged.
// Round 21: plans assume the median lent H200 host (DefaultHostCosts, the
// calibration machine's host costs x1.2, lentHostScale). Median 4.9% ->
// 5.1%; ranking unchanged.
//
// Session 18 (convolutions priced from their kernels' times, testdata/dev29): ResNet-101 fp16 b128x4 +5.2 ->
// +6.6%, its ratio to b512x1 +6%; the ranking holds.
func TestFitPicksPick3(t *testing.T) {
	checkPickFile(t, "../../testdata/pick3/results.jsonl", memmodel.DefaultHostCosts(), 10,
		stepTargets{median: 0.055, max: 0.105, ratioMedian: 0.05, ratioMax: 0.07, order: 0.95}, 3)
}

// TestFitPicksPick4 is issue 14's `plan --fit` check on three models no
// set had timed (testdata/pick4/README.md): each model's top three
// candidates, ranked by session 10's final step-time model, timed alone on
// the H200 afterwards. For all three the candidate ranked first ran
// fastest (EfficientNet-B3 300 px fp16 b256 296 ms, Qwen3-0.6B s1024 bf16
// b16x2 736 ms, ResNet-152 fp16 b256 169 ms), every model's three in the
// ranked order; step times median 5.2%, max 11.0% (ResNet-152 fp16
// b128x2, over).
// Round 21: plans assume the median lent H200 host (DefaultHostCosts, the
// calibration machine's host costs x1.2, lentHostScale). The
// accumulation candidates' micro-steps are host-bound in the walk and their
// single-batch baselines are not: ResNet-152 fp16 b128x2 +11.0% -> +15.9%,
// the accumulation ratios +3.6% -> +5.4% (EfficientNet-B3 b64x4) and
// +2.2% -> +6.2% (ResNet-152 b128x2); ranking unchanged.
//
// Session 18 (convolutions priced from their kernels' times, testdata/dev29): ResNet-152 fp16 b128x2 +15.9 ->
// +17.9%, its ratio to b256x1 +9%; the ranking holds.
func TestFitPicksPick4(t *testing.T) {
	checkPickFile(t, "../../testdata/pick4/results.jsonl", memmodel.DefaultHostCosts(), 9,
		stepTargets{median: 0.064, max: 0.18, ratioMedian: 0.055, ratioMax: 0.10, order: 0.95}, 3)
}

// TestFitPicksPick5 is issue 14's `plan --fit` check on three more models
// no set had timed (testdata/pick5/README.md): each model's top three
// candidates, ranked by session 11's final step-time model (b2448a6), timed
// alone on the H200 afterwards. For all three the candidate ranked first
// ran fastest (OLMo 2 1B s1024 bf16 b16x2 826.5 ms, T5-base s512 bf16 b64
// 479.5 ms, ConvNeXt-S bf16 b256 142.9 ms), every model's three in the
// ranked order; step times median 1.1%, max 10.8% (ConvNeXt-S fp16 b256,
// under); accumulation ratios -2.9% (T5-base) and +1.9% (ConvNeXt-S).
// Held there.
//
// Session 18 (convolutions priced from their kernels' times, testdata/dev29): ConvNeXt-S fp16 b256 -10.8 ->
// -11.9%.
// Session 25 (attention dropout inside the fused kernels and the math path's _safe_softmax passes priced: dev50's calibration, dev49's and dev15's profiles): T5-base s512
// bf16 b64 -0.2 -> +3.3% and b32x2 -3.0 -> +0.2% (the cross-attention on
// cuDNN with its bias and dropout, the self-attention's safe-softmax
// passes), their accumulation ratio -3.0%; median 1.7 -> 3.3%.
func TestFitPicksPick5(t *testing.T) {
	checkPickFile(t, "../../testdata/pick5/results.jsonl", memmodel.DefaultHostCosts(), 9,
		stepTargets{median: 0.034, max: 0.12, ratioMedian: 0.025, ratioMax: 0.031, order: 1}, 3)
}

// TestFitPicksPick6 is issue 14's `plan --fit` check on three more models
// no set had timed at these sizes (testdata/pick6/README.md): each model's
// top three candidates, ranked by session 12's final step-time model
// (9929335), timed alone on the H200 at session 13's start. For all three
// the candidate ranked first ran fastest (Llama 3.2 3B s1024 bf16 b8x4
// 1746.3 ms, ViT-L/16 bf16 b256 316.8 ms, DiT-XL/2 bf16 b64 188.6 ms);
// step times median 0.9%, max 6.1% (Llama fp16 b8x4, under); the selective
// checkpointing ratios +3.3% (Llama) and +1.9% (DiT), ViT-L's accumulation
// ratio +0.1%. Held there, with room for a tenth of a step's change.
func TestFitPicksPick6(t *testing.T) {
	checkPickFile(t, "../../testdata/pick6/results.jsonl", memmodel.DefaultHostCosts(), 9,
		// session 27: bias-gradient sums and half-precision GELU at their
		// own kernels' rates (dev56); median 1.5 -> 3.2% (ViT-L b256
		// +0.5 -> +2.9%, DiT-XL -2.7 -> -1.1%)
		stepTargets{median: 0.033, max: 0.075, ratioMedian: 0.025, ratioMax: 0.04, order: 1}, 3)
}

// TestFitPicksPick7 is issue 14's `plan --fit` check on three more models
// no set had timed at these sizes (testdata/pick7/README.md), the first a
// mixture-of-experts LoRA fine-tune: each model's top three candidates,
// ranked by session 14's step-time model (c003192, the MoE pricing in),
// timed alone on the H200. For all three the candidate ranked first ran
// fastest (Qwen1.5-MoE-A2.7B LoRA s1024 bf16 b8x2 2139.7 ms, its three
// within 0.2%; Qwen3-1.7B s2048 bf16 b8x2 1207.5 ms; ConvNeXt-B bf16 b256
// 181.4 ms); step times median 2.1%, max 4.9% (ConvNeXt-B b128x2, under),
// the selective-checkpointing ratio +1.4% and ConvNeXt-B's accumulation
// ratio -3.5%. Held there. Session 17: dev28's channels-last calibration
// (ResNet-50's shapes) joins ConvNeXt-B's downsampling convolutions'
// neighbours: median 2.4%, max 5.7% (ConvNeXt-B b128x2, under).
//
// Session 18 (convolutions priced from their kernels' times, testdata/dev29): ConvNeXt-B b128x2 -5.7 ->
// -7.4%. Session 19 (channels-last depthwise convolutions priced also
// from the per-shape kernel times of whole compiled steps, testdata/dev33):
// b256 -4.1 -> -1.4%, b128x2 -7.4 -> -6.1%; the accumulation ratio moves
// -3.5 -> -4.8% (the b128 steps' depthwise calls lie between dev29's
// 64-image rows and dev33's 128-image ones, b256's beyond both).
func TestFitPicksPick7(t *testing.T) {
	checkPickFile(t, "../../testdata/pick7/results.jsonl", memmodel.DefaultHostCosts(), 9,
		stepTargets{median: 0.032, max: 0.076, ratioMedian: 0.032, ratioMax: 0.05, order: 1}, 3)
}

// TestFitPicksPick8 is issue 14's `plan --fit` check on the choice session
// 14 added to it: LoRA on a base loaded in bfloat16 (testdata/pick8). Each
// model's top three candidates, ranked by the session-start models
// (b1cef9b), and beside them each dense model's best bf16-AMP candidate,
// timed alone on the H200. The candidate ranked first ran fastest for
// Qwen1.5-MoE-A2.7B (bf16 b16, 653.7 ms: 3.3x faster than pick7's
// measured bf16-AMP b8x2, 2139.7 ms) and Llama 3.2 3B (bf16 b8x2 1290.8
// ms, its AMP twin 1364.3); for Phi-3 mini the AMP candidate, ranked
// third, ran 2.5% faster than the first (1709.5 against 1753.9 ms: inside
// the 5% the criterion allows; PEFT's float32 adapters on the fused
// 9216-wide qkv_proj cost the bf16 base more than the walk prices).
// Step times median 3.4%, max 12.6% (Qwen1.5-MoE selective, over); ratios
// within 4.6%; 2 of 3 pairs differing by more than 5% ordered (the Phi-3
// pair is the miss). Held there.
// Session 19's GEMM traffic floor (gemmTraffic) moves the Qwen1.5-MoE
// selective-checkpointing candidate +12.6 -> +12.8% (its router and adapter
// products are memory-bound).
// Session 23: the Llama 3.2 3B bf16-AMP twin ran after a selective row in
// its process and inherited gt_work.py's SDPA patch (selective too): left
// out (measured.ReadTimed), nine rows: median 3.8%, 2 of 2 pairs ordered.
func TestFitPicksPick8(t *testing.T) {
	checkPickFile(t, "../../testdata/pick8/results.jsonl", memmodel.DefaultHostCosts(), 9,
		stepTargets{median: 0.039, max: 0.129, ratioMedian: 0.023, ratioMax: 0.047, order: 1}, 3,
		"pick8-llama32-3b-lora16-s2048-bf16-b8x2")
}

// TestFitPicksPick9 is issue 14's `plan --fit` check on the choice session
// 20 added: channels-last beside NCHW (testdata/pick9). Each CNN's top
// three candidates, ranked by 05cccd2, and its best NCHW candidate, timed
// alone on the H200. ResNet-50 (global batch 256): the first pick, fp16
// channels-last b256, ran fastest, 46.0 ms against 87.0 for the best NCHW
// one (1.89x; 1.73x predicted). ConvNeXt-T (256): the first pick, bf16
// channels-last, ran fastest (86.5 ms, the NCHW twin 88.6). EfficientNet-B2
// (128): the first pick, bf16 channels-last (66.5 ms predicted, 66.2
// measured), ran 10.7% behind the second, fp16 channels-last (66.9
// predicted, 59.8 measured): the two were predicted within 0.6% of each
// other, the fp16 one host-bound on the median host's 53.5 ms of issue,
// and ran GPU-bound beyond it; the criterion's 5% is missed. Step times
// median 4.8%, max 17.3% (ResNet-50 fp16 channels-last b128x2, host-bound,
// over); 11 of 11 inside their bands.
func TestFitPicksPick9(t *testing.T) {
	ws, skipped, err := measured.ReadTimed(filepath.Join("../../testdata/pick9", "results.jsonl"))
	if err != nil || len(skipped) > 0 || len(ws) != 11 {
		t.Fatalf("%d rows, skipped %v, %v", len(ws), skipped, err)
	}
	ev, err := measured.EvalStepTimeWith(ws, memmodel.DefaultHostCosts())
	if err != nil {
		t.Fatal(err)
	}
	checkStepEval(t, ev, 11, stepTargets{median: 0.049, max: 0.174, ratioMedian: 0.095, ratioMax: 0.223, order: 0.91})
	checkAllInBand(t, ev)
	checkFirstPicks(t, ev, 3, map[string]bool{"pick9-efficientnet-b2": true})
}

// TestFitPicksPick10 is issue 14's `plan --fit` check under a memory
// budget (testdata/pick10): BERT-large s512 (global batch 64, 25.2 GiB),
// ConvNeXt-B (256, 28.0 GiB) and ViT-L/16 (128, 21.0 GiB), each model's top
// three candidates and its fifth, ranked by 5b57fe3 and timed alone on the
// H200. Each first pick ran fastest (BERT-large bf16 block-checkpointed
// b64: 258.1 ms; ConvNeXt-B bf16 channels-last b128 x 2: 192.7; ViT-L/16
// bf16 b64 x 2: 174.2). Step times median 1.1%, max 13.5% (BERT-large
// b32 x 2 checkpointed, host-bound, over), 11 of 11 in band. ViT-L/16's
// fifth ran after the selective candidate in its process and is skipped.
func TestFitPicksPick10(t *testing.T) {
	ev := checkPickFile(t, "../../testdata/pick10/results.jsonl", memmodel.DefaultHostCosts(), 11,
		stepTargets{median: 0.012, max: 0.136, ratioMedian: 0.027, ratioMax: 0.113, order: 0.88}, 3, "pick10-vitl16-bf16-b32x4")
	checkAllInBand(t, ev)
}

// TestPick10Memory: the three first picks' peak memory, each in its own
// process. At first sight allocated exact, reserved +0.58% to +0.65%, all
// inside their bands: each "fits with 95% confidence" verdict held.
func TestPick10Memory(t *testing.T) {
	checkBlindSet(t, "../../testdata/pick10", 3, nil,
		blindLimits{resvMedian: 0.0059, resvMax: 0.0066, allocMax: 0.0001, under: 0, farUnder: 0})
}

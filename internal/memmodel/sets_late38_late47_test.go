package memmodel_test

import (
	"github.com/vramkit/vramkit/bench/measured"
	"path/filepath"
	"testing"
)

// late38Dir is the thirty-eighth blind set (testdata/late38/README.md):
// channels-last CNNs and AMP BERTs, captured in session 21 (call 83) to
// test the session's final memory model, evaluated with the models of
// 874aa6a (testdata/late38/RESULTS.md).
const late38Dir = "../../testdata/late38"

// TestLate38Blind: ten memory rows. At first sight (874aa6a): allocated
// within 0.04% on eight, the checkpointed channels-last EfficientNet-B1
// and B2 +3.4% and +3.3% (over, above their narrow bands); reserved
// median 1.01%, ResNet-18 b128 bf16 channels-last +11.03% (over, outside
// its band; +5.3% before the session's channels-last transients), two
// under (none more than 0.2% low). With late38 as band data the
// ResNet-18 row is inside its band; the EfficientNet rows' allocated stay
// above theirs. Session 26: dev54/dev55 made the NCHW half-precision ResNet
// rows tight (the ResNet family's spread 1.17% -> 0.20%), so its band
// narrowed and ResNet-18 b128 bf16 channels-last, still +11.0% over (its
// second step's extra max_pool2d segment, testdata/dev41), is below the
// bottom again: recorded, not hidden.
func TestLate38Blind(t *testing.T) {
	known := map[string]bool{
		"late38-resnet18-b128-bf16-cl reserved":             true,
		"late38-efficientnet-b1-b96-bf16-cl-ckpt allocated": true,
		"late38-efficientnet-b2-b96-bf16-cl-ckpt allocated": true,
	}
	checkBlindGroups(t, late38Dir, 10, known,
		blindLimits{resvMedian: 0.0102, resvMax: 0.1104, allocMax: 0.0343, under: 2, farUnder: 0}, "families")
}

// late39Dir is the thirty-ninth blind set (testdata/late39/README.md):
// float32 transformer steps, captured in session 22 (call 85) to test the
// session's linear-gradient deferral and BERT's [CLS] view, evaluated with
// the models of ba72579 (testdata/late39/RESULTS.md).
const late39Dir = "../../testdata/late39"

// TestLate39Blind: eleven memory rows. At first sight (ba72579):
// allocated within 0.10% on ten, T5-small s512 b16 checkpointed -0.98%
// (under, below its narrow allocated band); reserved median 0.72%, max
// 1.06%, two under (BERT-base s512 b16 checkpointed -0.68%, T5-small
// -0.84%), all inside their bands. The float32 patch-conv workspace
// (dev43, after late40) moves ViT-B/16 b96 fp32 checkpointed +0.31% ->
// +0.93% reserved and the median to 0.77%; GPT-2's Python locals move
// GPT-2 s1024 b4 fp32 checkpointed +0.29% -> +0.78%, GPT-2 medium +0.29%
// -> +0.49% (the model's own figures exact, the allowance on top): 0.78%.
// T5's encoder final norm and dropout outside the last encoder block's
// checkpoint (dev44, session 23) make T5-small's allocated exact (-0.98%
// -> +0.00%) and its reserved -0.84% -> -0.23%.
func TestLate39Blind(t *testing.T) {
	checkBlindGroups(t, late39Dir, 11, nil,
		blindLimits{resvMedian: 0.0080, resvMax: 0.0107, allocMax: 0.0011, under: 2, farUnder: 0}, "families")
}

// TestStepTimeLate39: four blind float32 step times. At first sight
// (ba72579): median 1.6%, max 3.9%, all GPU-bound and inside their bands;
// checkpointing ratios -1.4% (BERT-base) and -2.5% (GPT-2).
func TestStepTimeLate39(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late39Dir, "timing", "results.jsonl"))
	// session 27: bias-gradient sums and half-precision GELU at their own kernels' rates (dev56); max 4.0 -> 4.1%
	checkStepEval(t, ev, 4, stepTargets{median: 0.017, max: 0.042, ratioMedian: 0.021, ratioMax: 0.026, order: 1})
}

// late40Dir is the fortieth blind set (testdata/late40/README.md):
// torchvision ViTs and Whisper small, captured in session 22 (call 86) to
// test the session's ViT replay, evaluated with the models of a0afabb
// (testdata/late40/RESULTS.md).
const late40Dir = "../../testdata/late40"

// TestLate40Blind: eleven memory rows. At first sight (a0afabb):
// allocated within 0.05% on all; reserved +0.08..+1.09% on ten, ViT-B/16
// b160 float32 checkpointed -7.47% (under, below its band: the patch
// conv's float32 workspace the model lacked, dev43; +0.79% since).
// Whisper's encoder locals (inputs_embeds alive through the encoder, the
// position lookup's copy; dev8's trace) then move both Whisper small rows
// to -1.05% (from +0.08% and +0.91%), inside their bands.
func TestLate40Blind(t *testing.T) {
	checkBlindGroups(t, late40Dir, 11, map[string]bool{},
		blindLimits{resvMedian: 0.0080, resvMax: 0.0110, allocMax: 0.0006, under: 2, farUnder: 0}, "families")
}

// TestStepTimeLate40: four blind ViT step times. At first sight
// (a0afabb): median 2.9%, max 5.7%, all inside their bands;
// checkpointing ratios within 8.1%.
func TestStepTimeLate40(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late40Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 4, stepTargets{median: 0.030, max: 0.058, ratioMedian: 0.044, ratioMax: 0.082, order: 1})
}

// late41Dir is the forty-first blind set (testdata/late41/README.md):
// float32 ViTs, Whisper and the capture script's models, captured in
// session 22 (call 88) to test the session's last memory changes,
// evaluated with the models of b2a0eb0 (testdata/late41/RESULTS.md).
const late41Dir = "../../testdata/late41"

// TestLate41Blind: twelve memory rows. At first sight (b2a0eb0): all
// inside their bands; allocated within 0.34% (the small Llama
// checkpointed), reserved median 0.67%, max 1.43%, one under (ResNet-50
// b96 fp16 -1.43%).
func TestLate41Blind(t *testing.T) {
	// Session 24 (ResNet-50 fp16 from batch 96: GradScaler steps at the
	// third step, its Adam state after that step's peak): b96 fp16 -1.43% ->
	// -0.47%, the max 1.43% -> 0.91%.
	// Session 25's bands (late48 and late49 as band rows) put the small
	// Llama checkpointed's allocated (-0.34%, under) 0.004% above its
	// narrow allocated band's top, still 0.02% above it with session 26's.
	checkBlindGroups(t, late41Dir, 12, map[string]bool{"late41-llama-small-s2048-b4-bf16-ckpt allocated": true},
		blindLimits{resvMedian: 0.0068, resvMax: 0.0092, allocMax: 0.0035, under: 1, farUnder: 0}, "families")
}

// late42Dir is the forty-second blind set (testdata/late42/README.md):
// decoders after session 22's autograd-order changes, T5 checkpointed after
// session 23's fix, world-size-1 FSDP2 and DDP, captured in session 23
// (call 90) and evaluated with the models of 105d802
// (testdata/late42/RESULTS.md).
const late42Dir = "../../testdata/late42"

// TestLate42Blind: 13 training rows and 2 world-size-1 rows. At first
// sight (105d802): allocated within 0.39% on 14, OLMo 2 1B selective
// checkpointing -6.14% (under, below its band); reserved median 0.53%,
// OLMo 2 selective -3.57%, DDP checkpointed on TinyLlama +16.09% (over,
// above its band; dev30's known over-estimate), 3 under. The DDP row is
// inside its band since late42 became band data. Selective checkpointing
// as recomputing the attention call alone (the q/k norms and rotary keep
// what they save): OLMo 2 selective +0.00% allocated, +0.40% reserved.
// Session 24, DDP's rebuilt buckets at their own sizes (ddpBuckets) and
// its construction-time buffer kept through the second step at world size
// 1 too (the safe side, generateSchedule): the DDP row +16.09% -> +5.47%,
// allocated +0.91%.
func TestLate42Blind(t *testing.T) {
	checkBlindGroups(t, late42Dir, 15, nil,
		blindLimits{resvMedian: 0.0054, resvMax: 0.055, allocMax: 0.0092, under: 2, farUnder: 0}, "families", "sharded")
}

// TestStepTimeLate42: ten blind step times. At first sight (105d802):
// median 4.2%, max 21.5% (T5-large bf16, under, and its checkpointed twin
// -21.1%: both outside their bands); technique ratios 6 of 6 within 10%
// (median 4.1%, max 6.2%), same-model order 7 of 7. The two T5-large rows
// ran after OLMo 2's selective row in one process and inherited
// gt_work.py's SDPA patch (every attention call checkpointed; dev46's
// profile of the same step alone: 355.9 ms measured, 347.1 predicted,
// -2%): left out (measured.ReadTimed), eight rows.
// Session 25 (attention dropout inside the fused kernels and the math path's _safe_softmax passes priced: dev50's calibration, dev49's and dev15's profiles): Llama 3.2 1B
// s2048 b4 fp32 (grouped queries in float32: the math path) +4.3 -> +7.0%
// and its AMP ratio -8.4%; ratios max 6.2 -> 8.4%.
func TestStepTimeLate42(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late42Dir, "timing", "results.jsonl"),
		"late42-t-t5-large-s512-b16-bf16", "late42-t-t5-large-s512-b16-bf16-ckpt")
	checkStepEval(t, ev, 8, stepTargets{median: 0.043, max: 0.216, ratioMedian: 0.042, ratioMax: 0.085, order: 1})
}

// late43Dir is the forty-third blind set (testdata/late43/README.md):
// session 23's selective checkpointing, Phi-3 and math-path changes on
// configurations no set captured (call 91), evaluated with the models of
// 9cc4fda (testdata/late43/RESULTS.md).
const late43Dir = "../../testdata/late43"

// TestLate43Blind: thirteen training rows. At first sight (9cc4fda):
// allocated within 0.21%, reserved median 0.54%, max 3.61% (T5-base s1024
// b8 fp16 checkpointed, under), all inside their bands.
func TestLate43Blind(t *testing.T) {
	checkBlindGroups(t, late43Dir, 13, nil,
		blindLimits{resvMedian: 0.0055, resvMax: 0.0362, allocMax: 0.0022, under: 1, farUnder: 1}, "families")
}

// TestStepTimeLate43: four blind step times (Llama 3.2 3B and Qwen3 1.7B,
// plain and selective). At first sight: median 2.0%, max 3.2%, all in
// band; the selective ratios +0.2% and +2.1% (no two configurations more
// than 5% apart, so no order to check).
func TestStepTimeLate43(t *testing.T) {
	// Qwen3's plain row ran after Llama's selective one in the process and
	// inherited gt_work.py's SDPA patch: left out (measured.ReadTimed)
	ev := evalTimedFile(t, filepath.Join(late43Dir, "timing", "results.jsonl"), "late43-t-qwen3-17b-s2048-b4-bf16")
	checkStepEval(t, ev, 3, stepTargets{median: 0.021, max: 0.033, ratioMedian: 0.013, ratioMax: 0.022, order: 0})
}

// late44Dir is the forty-fourth blind set (testdata/late44/README.md): the
// first sharded runs on two H200s (call 92), one row and one snapshot per
// rank, evaluated with the models of e458df8 (testdata/late44/RESULTS.md).
const late44Dir = "../../testdata/late44"

// TestLate44TwoGPUs: 12 runs × 2 ranks (DDP, FSDP2 ±checkpointing ±reshard
// and ZeRO-1 on GPT-2 medium; DDP and FSDP2 ±checkpointing, TP
// ±checkpointing and ZeRO-1 on TinyLlama). At first sight (e458df8):
// reserved median 3.94%, max 18.06%, 12 of 24 under (every FSDP2 row, to
// -12.07%). With FSDP2's sharded gradients on the reduce-scatter stream and
// the all-gather buffers per gather (read off these snapshots, so no
// longer blind): FSDP2 within -1.68..+1.65% reserved and 0.13% allocated;
// reserved median 1.53%, max 18.06% (DDP on TinyLlama, over: the
// construction-time buckets freed before the rebuilt ones, which the model
// keeps together), 10 under, none more than 2% low. Loading the whole model
// before fully_shard shards it unit by unit (the whole parameters' segments
// stay cached): FSDP2 +0.40..+0.59% but TinyLlama checkpointed -2.16%;
// reserved median 0.78%, 4 under (the TinyLlama checkpointed ranks more
// than 2% low). Session 24, DDP's rebuilt buckets at their own sizes
// (ddpBuckets: 250 MiB then 44/44/44/36 MiB a layer, into the blocks
// zero_grad freed, where one 4 GiB buffer took a segment of its own):
// TinyLlama DDP checkpointed +12.55/+18.06% -> +0.55/+5.47% (rank 1 let
// the construction-time buffer go earlier), plain +15.93% -> +13.72%
// (both ranks let it go before the rebuild; allocated +14.15%); reserved
// median 0.59%, max 13.72%. With the release figures as the bands' low
// ends (Result.ReleaseReserved) the DDP ranks are inside their allocated
// bands too.
func TestLate44TwoGPUs(t *testing.T) {
	known := map[string]bool{
		// TP checkpointed: allocated 0.56% low (rank 0 and 1 alike)
		"late44-ws2-tp-tinyllama-s1024-b4-ckpt-rank0 allocated": true,
		"late44-ws2-tp-tinyllama-s1024-b4-ckpt-rank1 allocated": true,
	}
	checkBlindGroups(t, late44Dir, 24, known,
		blindLimits{resvMedian: 0.0060, resvMax: 0.138, allocMax: 0.142, under: 4, farUnder: 2}, "sharded")
}

// TestLate44ProcessMemory: the process memory plan prints (peak reserved,
// the CUDA context and NCCL's buffers) against every rank's NVML reading on
// two GPUs. With NCCL's two-GPU figures (846 MiB a rank, 1224 under TP):
// median 0.58%; +0.25..+2.23% on the FSDP2, ZeRO-1, TP and GPT-2 DDP ranks
// but TinyLlama FSDP2 checkpointed -1.89% and TP checkpointed rank 1 -1.62%
// (their reserved, under); DDP on TinyLlama +11.9..+17.0% (its buckets, see
// above; +13.0% plain, +0.5/+5.2% checkpointed since session 24). Never
// more than 2% low.
func TestLate44ProcessMemory(t *testing.T) {
	checkProcessMemory(t, late44Dir, 24, -0.02, 0.006)
}

// checkProcessMemory holds the process memory plan prints (peak reserved,
// the CUDA context and NCCL's buffers) against every rank's NVML reading
// of the set in dir: n ranks, none lower than low (a fraction, negative),
// the median |error| at most median.
func checkProcessMemory(t *testing.T, dir string, n int, low, median float64) {
	t.Helper()
	rows, err := measured.ReadGTRows(filepath.Join(dir, "sharded", "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var errs []float64
	for _, m := range rows {
		if m.NVMLUsed <= 0 {
			t.Fatalf("%s: no NVML reading", m.Name)
		}
		r := planRow(t, m)
		e := measured.Rel(r.Process, m.NVMLUsed)
		t.Logf("%-50s process %+.2f%%", m.Name, 100*e)
		if e < low {
			t.Errorf("%s: process memory %.2f%% low", m.Name, 100*e)
		}
		errs = append(errs, e)
	}
	if s := measured.Summarize(errs); s.MedianAbs > median || len(errs) != n {
		t.Errorf("process memory over %d ranks: median |err| %.2f%% (want ≤%.2f%%)", len(errs), 100*s.MedianAbs, 100*median)
	}
}

// late45Dir is the forty-fifth blind set (testdata/late45/README.md): two-GPU
// runs on models and shapes no two-GPU run used (GPT-2 large, Qwen2.5-0.5B,
// the small Llama), one row per rank. Its job list was committed in session
// 23 (call 93); no two-GPU machine was lent again until session 26, which ran
// it and evaluated it with the models of 6971daa (testdata/late45/RESULTS.md).
const late45Dir = "../../testdata/late45"

// TestLate45TwoGPUs: 10 runs × 2 ranks. At first sight: allocated median
// 0.06%, reserved median 0.94%, every rank inside its printed bands. Over:
// DDP on GPT-2 large (+9.42% allocated, +9.76% reserved, both ranks) and on
// the small Llama checkpointed, rank 0 (+14.23% allocated, +8.59%
// reserved; rank 1 -0.76%): the construction-time bucket buffer went before
// the rebuild, which the model keeps when the second forward is predicted
// shorter than the NCCL watchdog's 100 ms poll (ddpRelease: the safe side of
// a coin toss; the ranks of one run disagree). Under: TP on the small Llama
// checkpointed, -4.48% reserved (allocated -0.29%), both ranks.
func TestLate45TwoGPUs(t *testing.T) {
	// session 44's narrower allocated band: the TP rank 0 checkpointed row,
	// 40 KB low, above its top
	checkBlindGroups(t, late45Dir, 20, map[string]bool{"late45-ws2-tp-llama-small-s2048-b4-ckpt-rank0 allocated": true},
		blindLimits{resvMedian: 0.0095, resvMax: 0.0977, allocMax: 0.143, under: 3, farUnder: 2}, "sharded")
}

// TestLate45ProcessMemory: the process memory plan prints (peak reserved,
// the CUDA context and NCCL's buffers) against every rank's NVML reading. At
// first sight: median 0.93%; the DDP ranks over as their reserved (+9.31%,
// +7.58%), TP on the small Llama checkpointed under (-1.09%, -3.58%: its
// reserved), the rest within -0.7..+2.8%.
func TestLate45ProcessMemory(t *testing.T) {
	checkProcessMemory(t, late45Dir, 20, -0.036, 0.0095)
}

// late46Dir is the forty-sixth blind set (testdata/late46/README.md):
// world-size-1 DDP across session 24's release rule and families at sizes
// no set captured (call 95), evaluated with the models of 6b942b2
// (testdata/late46/RESULTS.md).
const late46Dir = "../../testdata/late46"

// TestLate46Blind: ten training rows, four world-size-1 DDP rows and six
// rows that repeat earlier sets' configurations (repeats/, to the byte).
// At first sight: reserved median 0.57%, max 5.27% (DDP on Llama 3.2 1B,
// over: the run let the construction-time buffer go at the rebuild, where
// the model keeps it for a short forward), none under, all inside their
// bands; allocated exact on sixteen, T5-large -0.49% (below its narrow
// allocated band), DDP +9.51% (Llama 3.2 1B) and +3.36% (SmolLM2). The
// two DDP rows with forwards past NCCL's watchdog period came out exact.
// With the release figures as the bands' low ends (the same session's
// next commit) the DDP rows are inside their allocated bands.
func TestLate46Blind(t *testing.T) {
	known := map[string]bool{
		"late46-t5-large-s512-b8-bf16 allocated": true,
		// session 44's narrower allocated band: GPT-2 large checkpointed,
		// 266 KB low, above its top
		"late46-gpt2-large-s1024-b8-bf16-ckpt allocated": true,
	}
	checkBlindGroups(t, late46Dir, 20, known,
		blindLimits{resvMedian: 0.0058, resvMax: 0.053, allocMax: 0.096, under: 0, farUnder: 0}, "families", "sharded", "repeats")
}

// TestStepTimeLate46: eight step times, two groups each alone on the GPU
// (GPT-2 large plain and checkpointed, Llama 3.2 1B plain and LoRA;
// ViT-L/16 bf16 and fp32, ConvNeXt-S channels-last and NCHW); five repeat
// earlier sets' timed configurations (bench/gpu/gt/repeats.py), so only
// the checkpointed, LoRA and channels-last ones were new. As first read:
// median 2.7%, max 10.4% (ConvNeXt-S NCHW, under), all in band; ratios 4
// of 4 within 10% (checkpointing -6.7%), same-model order 3/3.
// Session 25 (attention dropout inside the fused kernels and the math path's _safe_softmax passes priced: dev50's calibration, dev49's and dev15's profiles): GPT-2 large
// -3.2 -> -0.2% and checkpointed -9.7 -> -7.5%, their ratio -7.3%.
func TestStepTimeLate46(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late46Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 8, stepTargets{median: 0.028, max: 0.105, ratioMedian: 0.025, ratioMax: 0.075, order: 1})
}

// late47Dir is the forty-seventh blind set (testdata/late47/README.md): the
// fixtures' capture-script models at shapes no set ran (call 96),
// evaluated with the models of bdc7106 (testdata/late47/RESULTS.md).
const late47Dir = "../../testdata/late47"

// TestLate47Blind: twelve training rows. At first sight: allocated within
// 0.09%, reserved median 0.73%, max -2.18% (NCHW ResNet-50 fp16 b256; bf16
// b192 -1.98%: the half-precision NCHW ResNets' fragmentation, allocated
// exact), all inside their bands. With ResNet-50's fp16 GradScaler
// stepping at the third step from batch 96 (session 24): fp16 b256
// -2.18% -> -1.80%; the max is bf16 b192's -1.98%.
func TestLate47Blind(t *testing.T) {
	checkBlindGroups(t, late47Dir, 12, nil,
		blindLimits{resvMedian: 0.0074, resvMax: 0.0199, allocMax: 0.001, under: 2, farUnder: 0}, "families")
}

// TestStepTimeLate47: twelve blind step times in three groups. At first
// sight: median 3.7%, max 16.6% (T5-small s1024 b16 checkpointed, under),
// all in band; ratios 4 of 5 within 10% (T5-small checkpointing -12.9%),
// same-model order 5 of 5.
func TestStepTimeLate47(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late47Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 12, stepTargets{median: 0.038, max: 0.167, ratioMedian: 0.077, ratioMax: 0.13, order: 1})
}

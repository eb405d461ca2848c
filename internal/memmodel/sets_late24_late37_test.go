package memmodel_test

import (
	"github.com/vramkit/vramkit/bench/measured"
	"path/filepath"
	"testing"
)

// TestStepTimeLate24: four compiled steps against their eager twins
// (testdata/late24), the first held-out compiled step times. With the
// models they were captured to test (b2c5957): eager within 4.0%, compiled
// -12.3% (Qwen2.5-0.5B), -9.3% (TinyLlama), +15.7% (ViT-B/16) and +90.1%
// (ResNet-50: the walk predicts no gain from compiling a CNN, the GPU
// halved the step); 6 of 8 inside the band. Not modelled yet; the compiled
// band now holds all eight (compile_step.go), which this pins. Session 17
// (Inductor's channels-last convolutions and fused batch norm priced,
// compiledConv and compiledBatchNorm): ResNet-50 compiled +90.1% -> -32.2%,
// its compile ratio -31% (predicted 0.36, measured 0.52).
//
// Session 18 (convolutions priced from their kernels' times, testdata/dev29): ResNet-50 compiled -32.2 ->
// -36.1%.
func TestStepTimeLate24(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join("../../testdata/late24", "timing", "results.jsonl"))
	checkStepEval(t, ev, 8, stepTargets{median: 0.068, max: 0.362, ratioMedian: 0.14, ratioMax: 0.36, order: 0.95})
	checkAllInBand(t, ev)
}

// TestStepTimeLate25: five more compiled steps against their eager twins
// (testdata/late25), captured to test the compiled band TestStepTimeLate24
// first pinned (0.80-1.25x, 0.45-1.25x for CNNs): it held 7 of 10; BERT-base
// compiled ran 1.71x the prediction (slower than eager), ConvNeXt-T 1.28x,
// EfficientNet-B0 0.34x. With the compiled padding mask (dev26) BERT's is
// 1.39x; the band, refitted to late24 and late25 together (compile_step.go),
// holds all ten. Eager steps within 9.1%. Session 17 (compiled CNNs
// priced as Inductor runs them): EfficientNet-B0 compiled +193% -> -43.1%
// (its depthwise convolutions priced from ConvNeXt's 7x7 channels-last
// rows), ConvNeXt-T -22.4% -> -23.6%; ratios median 15.3%, max 40.5%.
//
// Session 18 (convolutions priced from their kernels' times, testdata/dev29): EfficientNet-B0 compiled -43.1 -> -46.8%, its compile ratio predicted 0.18 against 0.32 measured.
func TestStepTimeLate25(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join("../../testdata/late25", "timing", "results.jsonl"))
	checkStepEval(t, ev, 10, stepTargets{median: 0.086, max: 0.47, ratioMedian: 0.169, ratioMax: 0.46, order: 0.75})
	checkAllInBand(t, ev)
}

// checkAllInBand fails for each timed step outside its printed band but
// the known misses named, and for each known miss that is inside now.
func checkAllInBand(t *testing.T, ev measured.StepEval, known ...string) {
	t.Helper()
	k := map[string]bool{}
	for _, n := range known {
		k[n] = true
	}
	for _, r := range ev.Rows {
		switch {
		case !r.InBand && !k[r.Name]:
			t.Errorf("%s: measured %.1f ms outside the printed band", r.Name, 1e3*r.Measured)
		case r.InBand && k[r.Name]:
			t.Errorf("%s: inside its band now: drop it from the known misses", r.Name)
		}
	}
}

// late26Dir is the twenty-sixth blind set (testdata/late26/README.md):
// captured at the start of session 17 (call 60) before any model of the
// session changed, kept outside the repository until it was evaluated
// with the session-start models (testdata/late26/RESULTS.md). Its rows are
// the band table's kinds that had no blind row.
const late26Dir = "../../testdata/late26"

// TestLate26Blind: 12 training rows (Qwen3 and OLMo 2 under fp16/bf16 AMP,
// pure-bf16 Phi-3, fp32 ConvNeXt-S, Adafactor, SGD, selective
// checkpointing, a bf16-loaded Gemma 3 LoRA) and 4 world-size-1 parallel
// rows (FSDP2, ZeRO-1, TP, DDP on decoders they were not built on). At
// session start: reserved median 0.54%, max 3.89% (TP on Llama 3.2 1B,
// over), 4 under, the worst FSDP2 TinyLlama checkpointed at -1.77%
// (outside the session-start band 21.03-22.67 GiB, measured 22.80);
// allocated max 1.68% (selective checkpointing on Llama 3.2 1B, under:
// inside its band). Session 18 (TP's optimizer steps one tensor at a
// time): TP on Llama 3.2 1B +3.89% over -> 0.22% under, 5 under.
func TestLate26Blind(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 16 workloads")
	}
	// Session 23 (Phi-3's attention-output copy and the math-path softmax's
	// gradient copy, T5's encoder tail outside the checkpoint: Phi-3 and T5
	// allocated exact) narrowed the pooled allocated band; Llama 3.2 1B
	// selective, 0.17% low, is above its top.
	// (inside again with late42's OLMo 2 selective row as band data)
	// Session 24: DDP keeps its construction-time gradient buffer through
	// the second step at world size 1 too (the safe side of NCCL's
	// release, generateSchedule; the DDP row let it go at the rebuild).
	checkBlindGroups(t, late26Dir, 16, map[string]bool{},
		blindLimits{resvMedian: 0.0055, resvMax: 0.039, allocMax: 0.054, under: 5, farUnder: 0}, "families", "sharded")
}

// TestLate26Compiled: the first compiled model with sliding-window layers
// (Gemma 3 1B s1024 b4 bf16 AMP). At session start: allocated +7.81%,
// reserved +5.36% (over, inside the compiled band 27.77-35.35 GiB).
func TestLate26Compiled(t *testing.T) {
	checkCompiledSet(t, late26Dir, 1, 0.079, 0.054, 0)
}

// TestStepTimeLate26: 17 blind step times. At session start: median 2.1%,
// max 25.9% (ResNet-152 b128 checkpointed, over: the walk's host, 211.5 ms,
// bounds it), 17 of 17 inside the band; ratios 7 of 9 within 10%
// (ResNet-152's checkpointing +23.1%, host-bound; EfficientNet-B2's bf16
// AMP against fp32 +10.8%: measured AMP 5% slower than fp32, predicted
// 16%), same-model order 9 of 9. Session 17 (a torchvision CNN block's
// checkpoint region costs ckptRegionCNN of the pooled one, from dev7's
// ConvNeXt-S pair; this set's ResNet-152 is one of the ten blind rows that
// showed the pooled cost too high): ResNet-152 checkpointed +25.9% ->
// +14.4%, its ratio +23.1% -> +11.9%; max 14.4%.
//
// Session 18 (convolutions priced from their kernels' times, testdata/dev29): median 2.1 -> 2.8%,
// EfficientNet-B2 b128 bf16 +1.5 -> +4.2%.
// Session 25 (attention dropout inside the fused kernels and the math path's _safe_softmax passes priced: dev50's calibration, dev49's and dev15's profiles): Llama 3.2 1B
// s1024 b8 fp32 (grouped queries in float32 take the math path) +4.0 ->
// +5.4%, its AMP ratio with it; ratios median 3.8 -> 4.7%.
func TestStepTimeLate26(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late26Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 17, stepTargets{median: 0.029, max: 0.146, ratioMedian: 0.048, ratioMax: 0.13, order: 0.95})
}

// TestStepTimeLate27: the twenty-seventh blind set (testdata/late27), 16
// step times captured to test two things on steps they were not built on.
// The compiled band holds its three compiled steps (measured/walk: Qwen2.5
// 1.19, ViT-L/16 0.91, ResNet-101 0.56: the walk still prices no gain from
// compiling a CNN). The CNN checkpoint region (ckptRegionCNN) centres the
// five host-bound checkpointed CNN steps (signed median +8.2% with the
// pooled cost, -1.7% with it) but does not improve their ratios to the
// plain twins, which move with the host too (2 of 5 within 10%, was 3).
// At first sight: median 8.3%, max 77.7% (the compiled ResNet-101), 15 of
// 16 inside the band (EfficientNet-B1 b64 plain +34.5%: the walk's GPU
// time alone is above the measured step); same-model order 11 of 12.
// Session 17, after it (compiled CNNs priced as Inductor runs them, read
// off dev27's profile of this set's compiled ResNet-101 and dev28's
// channels-last calibration): ResNet-101 compiled +77.7% -> -33.1%; max
// 34.5% (EfficientNet-B1 b64 eager).
//
// Session 18 (convolutions priced from their kernels' times, testdata/dev29): EfficientNet-B1 b64 +34.5 ->
// +25.6%, ResNet-101 compiled -33.1 -> -37.2%.
//
// Session 40 (the step band between host levels, StepBand): EfficientNet-B1
// b64 (+25.6%, near host-bound at the top of its level) now inside.
func TestStepTimeLate27(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join("../../testdata/late27", "timing", "results.jsonl"))
	checkStepEval(t, ev, 16, stepTargets{median: 0.082, max: 0.373, ratioMedian: 0.133, ratioMax: 0.38, order: 0.9})
	checkAllInBand(t, ev)
}

// TestStepTimeLate28: the first held-out test of compiled CNN pricing
// (testdata/late28, captured after it): ResNet-34 and ResNet-18 b256 bf16,
// eager and compiled. At first sight: compiled -15.8% and -17.2% (with the
// eager pricing of compiled CNNs before: +156% and +166%), eager -5.0% and
// -8.3%, compile ratios -11.4% and -9.7%; all four inside their bands.
//
// Session 18 (convolutions priced from their kernels' times, testdata/dev29): ResNet-34/18 compiled -15.8/-17.2 -> -16.9/-18.1%.
func TestStepTimeLate28(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join("../../testdata/late28", "timing", "results.jsonl"))
	checkStepEval(t, ev, 4, stepTargets{median: 0.129, max: 0.182, ratioMedian: 0.113, ratioMax: 0.125, order: 1})
	checkAllInBand(t, ev)
}

// TestStepTimeLate29: small-batch CNN steps (testdata/late29), captured to
// test convolutions priced from their kernels' times (58c85e4, dev29). At
// first sight: median 12.7%, max 23.3% (EfficientNet-B3 b48, +30.5% with
// the eager-timed rows before), 12 of 12 inside their bands; ratios 1 of 3
// within 10% (ResNet-50 b32 checkpointed -15.8%). Session 40 (the step
// band between host levels, StepBand): ResNet-34 b128 fp16 (-15.1%, just
// into the near level, whose band's top now starts at the GPU-bound one's)
// outside, above the top.
func TestStepTimeLate29(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join("../../testdata/late29", "timing", "results.jsonl"))
	checkStepEval(t, ev, 12, stepTargets{median: 0.128, max: 0.234, ratioMedian: 0.12, ratioMax: 0.159, order: 1})
	checkAllInBand(t, ev, "late29-t-resnet34-b128-fp16")
}

// late33Dir is the thirty-third blind set (testdata/late33/README.md):
// eager channels-last CNNs and their NCHW twins, captured in session 20
// (call 75) with dev35, kept outside the repository until it was
// evaluated with the models of 9efb315, the commit that added
// plan --channels-last (testdata/late33/RESULTS.md).
const late33Dir = "../../testdata/late33"

// TestLate33Blind: seven channels-last memory rows (ResNet-152, ResNet-34
// fp16, EfficientNet-B1 fp16 and B2, ConvNeXt-S, ConvNeXt-B checkpointed,
// ResNet-50 fp32). At first sight (9efb315): reserved -3.42..+2.50%,
// median 0.78%; allocated within 0.3% but ResNet-34 fp16, -3.67% (its
// GradScaler skipped no step, as dev35's ResNet-18: plan's first steps
// left Adam's state out). Since Arch.scalerOverflows is the bottleneck
// ResNets' alone, allocated within 0.3% (ResNet-34 +0.06%, reserved
// +2.80%). With dev35's float32 channels-last stem workspace, ResNet-50
// b96 fp32 -3.42 -> +0.50%: reserved within 2.8%, one under
// (EfficientNet-B2, -0.69%).
func TestLate33Blind(t *testing.T) {
	checkBlindGroups(t, late33Dir, 7, map[string]bool{},
		blindLimits{resvMedian: 0.0077, resvMax: 0.029, allocMax: 0.003, under: 1, farUnder: 0}, "families")
}

// TestStepTimeLate33: twelve blind step times, five NCHW/channels-last or
// checkpointing pairs. At first sight (9efb315): median 15.9%, max 29.1%
// (ConvNeXt-S b64, host-bound, over in both formats), 12 of 12 inside the
// band; channels-last ratios: ResNet-152 b64 -19.7% (channels-last ran
// slower than NCHW, host-bound), ResNet-34 b256 fp16 +28.5%,
// EfficientNet-B2 b64 -6.6%, ConvNeXt-S +0.1%. With the batch norms and
// convolutions of dev33's and dev36's profiled channels-last steps in the
// calibration (dev36 profiled ResNet-34 b256 fp16 and EfficientNet-B1
// b128 fp16 channels-last: this set's shapes, seen): median 12.4%, max
// 29.3%; ResNet-34 fp16 channels-last +22.1 -> +10.0% (its batch norms,
// cuDNN's NHWC kernels, 8.0 -> 4.7 ms against 4.4 profiled),
// EfficientNet-B1 -21.9 -> -20.7% (host-bound: its host was the slow one,
// dev36/README.md).
func TestStepTimeLate33(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late33Dir, "timing", "results.jsonl"))
	// session 27: bias-gradient sums and half-precision GELU at their own kernels' rates (dev56); median 12.4%, max 29.3 -> 31.5% (ConvNeXt-S b64 channels-last, host-bound, +1.7%)
	checkStepEval(t, ev, 12, stepTargets{median: 0.126, max: 0.316, ratioMedian: 0.114, ratioMax: 0.198, order: 0.75})
	checkAllInBand(t, ev)
}

// late34Dir is the thirty-fourth blind set (testdata/late34/README.md):
// channels-last CNNs, NCHW twins and memory rows, captured in session 20
// (call 76) with dev36, kept outside the repository until it was
// evaluated with the models of 6934c31 (testdata/late34/RESULTS.md).
const late34Dir = "../../testdata/late34"

// TestLate34Blind: five channels-last memory rows (ResNet-101 fp16,
// ConvNeXt-T fp16, EfficientNet-B3, ResNet-18 b512 checkpointed,
// EfficientNet-B0 b192 fp32). At first sight (6934c31): allocated within
// 0.09%, reserved +0.07..+0.80% on three, ResNet-18 checkpointed +6.73%
// and EfficientNet-B0 fp32 +54.38% (outside its band: float32
// channels-last depthwise workspaces, RESULTS.md). With the float32 7×7
// rule kept to 7×7 (channelsLastConvWorkspace, after dev37's snapshots):
// EfficientNet-B0 fp32 +0.61%, inside its band; reserved median 0.64%,
// max 6.73% (ResNet-18 b512 checkpointed, over). Session 21 (dev39's
// snapshot of that row: the batch's channels-last copy, the stem's padded
// image and the first downsampling conv's workspace, transients that
// shape the cache): ResNet-18 +6.73 -> +5.42%, median 0.66%; with the
// squeeze-excitation's NHWC pooling buffer EfficientNet-B3 +0.10 ->
// -0.23% (under).
func TestLate34Blind(t *testing.T) {
	checkBlindGroups(t, late34Dir, 5, map[string]bool{},
		blindLimits{resvMedian: 0.0067, resvMax: 0.055, allocMax: 0.001, under: 1, farUnder: 0}, "families")
}

// TestStepTimeLate34: eleven blind step times. At first sight (6934c31):
// median 16.8%, max 35.6% (EfficientNet-B3 b64 channels-last, host-bound,
// over), 10 of 11 inside the band (EfficientNet-B0 b192 fp32
// channels-last +27.1% outside); channels-last ratios +11.9% (ResNet-101
// fp16), +13.3% (EfficientNet-B3), +6.3% (ConvNeXt-T fp16). With dev37's
// float32 channels-last depthwise rows and profiled float32 batch norms
// (EfficientNet-B0 b128, the same network at another batch: seen):
// EfficientNet-B0 b192 fp32 channels-last -3.3%, inside its band, its
// fp16/fp32 ratio -26.3 -> -3.1%; median 15.0%, max 35.6% (the fast host's
// host-bound steps). Session 40 (the step band between host levels,
// StepBand): ResNet-101 b128 fp16 (+20.4%, just past level 1's lower edge,
// where the band now starts at the GPU-bound one's) outside, below the low
// end.
func TestStepTimeLate34(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late34Dir, "timing", "results.jsonl"))
	// session 27: bias-gradient sums and half-precision GELU at their own kernels' rates (dev56); median 15.2% (ConvNeXt-L b32 channels-last +15.0 -> +18.1%; ConvNeXt-T b128 fp16 -13.1 -> -7.7%)
	checkStepEval(t, ev, 11, stepTargets{median: 0.153, max: 0.357, ratioMedian: 0.091, ratioMax: 0.134, order: 1})
	checkAllInBand(t, ev, "late34-t-resnet101-b128-fp16")
}

// late35Dir is the thirty-fifth blind set (testdata/late35/README.md):
// channels-last steps, float32 among them, captured in session 20 (call
// 77) with dev37, kept outside the repository until it was evaluated with
// the models of 0840771 (testdata/late35/RESULTS.md).
const late35Dir = "../../testdata/late35"

// TestLate35Blind: four channels-last memory rows. At first sight
// (0840771): allocated within 0.08%, reserved +0.45..+5.93%
// (EfficientNet-B4 b32 bf16, over, above its band's top; inside since
// late35 is band data), none under. Session 21 (dev39's snapshot of the
// B4 row: the squeeze-excitation's NHWC pooling buffer, the batch's
// channels-last copy, ResNet-34's first downsampling conv's workspace):
// EfficientNet-B4 +5.93 -> +2.52%, ResNet-34 +2.70 -> +0.76%, median
// 0.68%; with the reductions' staging exact (biasGradScratch, dev40)
// EfficientNet-B4 +1.34%.
func TestLate35Blind(t *testing.T) {
	checkBlindGroups(t, late35Dir, 4, map[string]bool{},
		blindLimits{resvMedian: 0.0069, resvMax: 0.0135, allocMax: 0.0011, under: 0, farUnder: 0}, "families")
}

// TestStepTimeLate35: eight blind step times. At first sight (0840771):
// median 7.1%, max 66.7% (ResNet-152 b128 fp16 channels-last, host-bound
// prediction on a fast host, outside its band), 7 of 8 inside; the
// float32 channels-last steps within 10%; EfficientNet-B1 b96 fp32
// channels-last/NCHW -8.4%.
func TestStepTimeLate35(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late35Dir, "timing", "results.jsonl"))
	// session 27: bias-gradient sums and half-precision GELU at their own kernels' rates (dev56); median 7.3% (ConvNeXt-B b64 fp16 channels-last +9.7 -> +13.9%)
	// session 27: ConvNeXt's profiled convolutions as channels-last kernel rows, their bias sums taken off (dev57): ResNet-152 b128 fp16 channels-last +66.7 -> +66.9%
	checkStepEval(t, ev, 8, stepTargets{median: 0.074, max: 0.670, ratioMedian: 0.085, ratioMax: 0.085, order: 1})
}

// late36Dir is the thirty-sixth blind set (testdata/late36/README.md): the
// models of the fixtures' capture script in configurations no set had,
// captured in session 21 (call 80) with dev39, kept outside the repository
// until it was evaluated with the models of 5842a75
// (testdata/late36/RESULTS.md).
const late36Dir = "../../testdata/late36"

// TestLate36Blind: ten memory rows. At first sight (5842a75): allocated
// within 0.85%, reserved median 0.98%, max +4.74% (ResNet-50 b48 x 2
// fp16, over), two under (ViT-B/16 b128 fp16 checkpointed -2.66%,
// BERT-tiny s512 b128 fp16 -1.33%), all inside their bands.
func TestLate36Blind(t *testing.T) {
	checkBlindGroups(t, late36Dir, 10, map[string]bool{},
		blindLimits{resvMedian: 0.0099, resvMax: 0.0475, allocMax: 0.0086, under: 2, farUnder: 1}, "families")
}

// TestStepTimeLate36: 21 blind step times. At first sight (5842a75):
// median 5.0%, max 42.0% (ResNet-50 fp16 b48 x 2, a host-bound prediction
// on a process whose host ran faster), all inside their bands; technique
// ratios median 7.9%, max 34.6% (BERT-base s128 checkpointed/plain); same
// model order 12 of 12.
func TestStepTimeLate36(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late36Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 21, stepTargets{median: 0.051, max: 0.421, ratioMedian: 0.08, ratioMax: 0.347, order: 1})
}

// late37Dir is the thirty-seventh blind set (testdata/late37/README.md):
// BERT variants and channels-last CNNs, captured in session 21 (call 81)
// to test the session's BERT lifetimes and channels-last transients,
// evaluated with the models of 882b1b7 (testdata/late37/RESULTS.md).
const late37Dir = "../../testdata/late37"

// TestLate37Blind: eleven memory rows. At first sight (882b1b7): allocated
// within 0.1% on ten; EfficientNet-B3 b48 bf16 channels-last checkpointed
// -5.73% allocated and -10.44% reserved, under and outside both bands
// (known misses until a snapshot explains them); reserved median 0.71%,
// three under (BERT-base s256 b64 fp32 checkpointed -1.98%). With late37
// as band data its bands narrowed and BERT-base fp32 checkpointed's
// reserved is 0.8% above its top: the session's BERT lifetimes (BertOutput's
// dropout output alive until its LayerNorm returns, as the traces free it)
// moved float32 checkpointed BERT from +0.1% to -2.0% here and on the
// fixtures' trace, whose replay then matches PyTorch's segment growth
// through the first step and diverges in the second backward (a 192 MiB
// block taken where PyTorch took two 48 MiB ones). Session 22 resolved it
// (a linear's input gradient added after the node returns, the pooler's
// saved [CLS] view): -1.98% -> +0.85%, inside its band.
// EfficientNet-B3's miss was the squeeze-excitation's gradient on NHWC
// maps (dev40's snapshot): with its reduction staging -5.73% -> +3.34%
// allocated (over, below its narrow band's low end: the product's
// temporary and the staging are live together in the model, not on the
// GPU), -10.44% -> -1.95% reserved, inside its band.
func TestLate37Blind(t *testing.T) {
	known := map[string]bool{
		"late37-efficientnet-b3-b48-bf16-cl-ckpt allocated": true,
	}
	checkBlindGroups(t, late37Dir, 11, known,
		blindLimits{resvMedian: 0.0072, resvMax: 0.0402, allocMax: 0.0335, under: 3, farUnder: 0}, "families")
}

// TestStepTimeLate37: nine blind step times. At first sight (882b1b7):
// median 11.8%, max 40.5% (ResNet-34 b128 fp16 channels-last, a host-bound
// prediction on a fast process), all inside their bands; checkpointing
// ratios +4.8% (RoBERTa) and -18.3% (ResNet-34 channels-last).
// Session 25 (attention dropout inside the fused kernels and the math path's _safe_softmax passes priced: dev50's calibration, dev49's and dev15's profiles): RoBERTa's plain
// step +6.4 -> +6.0%, its checkpointing ratio +5.2 -> +5.3%.
func TestStepTimeLate37(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late37Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 9, stepTargets{median: 0.119, max: 0.406, ratioMedian: 0.12, ratioMax: 0.184, order: 1})
}

package memmodel_test

import (
	"context"
	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// late74Dir is the seventy-fourth blind set (testdata/late74/README.md):
// decoders with a sequence-classification (reward-model) head, captured
// in call148 on a lent H100 with dev75 and evaluated once with the
// models of 3e1c04c (testdata/late74/RESULTS.md).
const late74Dir = "../../testdata/late74"

// TestLate74Blind: three memory rows (TinyLlama and Llama-3.2-1B s1024 b8
// bf16 AMP, Qwen3-0.6B s2048 b4 checkpointed). At first sight allocated
// within 0.005% on all three, reserved +0.67% to +1.16%, none under, all
// inside both bands.
func TestLate74Blind(t *testing.T) {
	checkBlindSet(t, late74Dir, 3, nil,
		blindLimits{resvMedian: 0.0073, resvMax: 0.0117, allocMax: 0.0001, under: 0, farUnder: 0})
}

// TestStepTimeLate74: Qwen2.5-0.5B s1024 b8 bf16 AMP with the score head
// +0.2%, as a causal LM +3.0%, both inside their bands (two classes, so
// no same-model pair for the ordering count). Since session 57's H100 host
// costs (steptime_lenthost.go): -2.6% and +0.8%.
func TestStepTimeLate74(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late74Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 2, stepTargets{median: 0.018, max: 0.031, ratioMedian: 0.05, ratioMax: 0.05, order: 0})
}

// late75Dir is the seventy-fifth blind set (testdata/late75/README.md):
// GPT-NeoX (Pythia) and Phi, captured in call150/151 on a lent H100 with
// dev77 and evaluated once with the models of 7bc1ffd
// (testdata/late75/RESULTS.md).
const late75Dir = "../../testdata/late75"

// TestLate75Blind: five memory rows (Pythia-1b checkpointed, Pythia-160m
// float32, Pythia-2.8b LoRA, phi-1.5 checkpointed, phi-2 bf16 AMP). At
// first sight allocated within 0.19%, reserved +0.30% to +1.48% and phi-2
// -1.22%, all inside both bands; after dev77/dev78's LoRA fixes
// (RESULTS.md's last section) allocated within 0.004%, the LoRA row's
// reserved +1.21%.
func TestLate75Blind(t *testing.T) {
	checkBlindSet(t, late75Dir, 5, nil,
		blindLimits{resvMedian: 0.0065, resvMax: 0.0125, allocMax: 0.0005, under: 1, farUnder: 0})
}

// TestStepTimeLate75: Pythia-410m bf16 AMP +12.6%, float32 +9.1%,
// checkpointed +23.7% (host-bound on the H100's faster host), phi-1.5
// +8.7% and with LoRA +11.6%; the three technique ratios within 10%, every
// pair ordered.
func TestStepTimeLate75(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late75Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 5, stepTargets{median: 0.117, max: 0.238, ratioMedian: 0.033, ratioMax: 0.10, order: 1})
}

// late76Dir is the seventy-sixth blind set (testdata/late76/README.md):
// StarCoder2, captured in call153/154 on a lent H100 with dev79 and
// evaluated once with the models of 32ee144 (testdata/late76/RESULTS.md).
const late76Dir = "../../testdata/late76"

// TestLate76Blind: four memory rows. At first sight allocated within
// 0.40% but the small one at its 4096 window -10.46% (reserved -9.43%,
// outside its allocated band): the sliding mask that masking_utils makes
// once the keys reach the window; with it (after the evaluation) +0.00%
// and +0.46%, the others unchanged (3b checkpointed +3.19% reserved).
func TestLate76Blind(t *testing.T) {
	// 3b LoRA checkpointed past its window (-0.40% allocated) is above
	// the allocated band's top once late76 is band data
	checkBlindSet(t, late76Dir, 4, map[string]bool{"late76-sc2-3b-s6000-b1-bf16-lora16-ckpt allocated": true},
		blindLimits{resvMedian: 0.005, resvMax: 0.032, allocMax: 0.0041, under: 1, farUnder: 0})
}

// TestStepTimeLate76: the small StarCoder2 s2048 b4 bf16 AMP +13.8%,
// float32 +12.7%, checkpointed +28.3% (host-bound on the H100's faster
// host, issue 14); AMP's ratio within 1%, checkpointing's 12.8% over.
func TestStepTimeLate76(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late76Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 3, stepTargets{median: 0.139, max: 0.284, ratioMedian: 0.07, ratioMax: 0.13, order: 1})
}

// TestLate77Blind: the seventy-seventh blind set (testdata/late77):
// RoBERTa-large token classification s512 b16 bf16 AMP, BERT-large QA
// s384 b24 float32 checkpointed, XLM-R base token classification s256 b32
// float32, captured in call156 with dev81 and evaluated once at 0ac2575:
// allocated within 0.03%, reserved +0.60% to +1.23%, all inside both
// bands.
func TestLate77Blind(t *testing.T) {
	checkBlindSet(t, "../../testdata/late77", 3, nil,
		blindLimits{resvMedian: 0.0066, resvMax: 0.0124, allocMax: 0.0004, under: 3, farUnder: 0})
}

// late78Dir is the seventy-eighth blind set (testdata/late78/README.md):
// OPT and DistilBERT, captured in call157/158 on a lent H100 with dev82 and
// evaluated once with the models of 9140a1d (testdata/late78/RESULTS.md).
const late78Dir = "../../testdata/late78"

// TestLate78Blind: eight memory rows. At first sight allocated within
// 0.08% but DistilBERT LoRA +5.72%, reserved +0.57% to +1.34% and that row
// +5.64%. After the evaluation (dev83's snapshot of the same row) the
// frozen first layer saves nothing and ff_chunk's GELU output dies at a
// frozen lin2: -0.00% allocated, +0.99% reserved.
func TestLate78Blind(t *testing.T) {
	checkBlindSet(t, late78Dir, 8, nil,
		blindLimits{resvMedian: 0.0085, resvMax: 0.014, allocMax: 0.0009, under: 4, farUnder: 0})
}

// TestStepTimeLate78: OPT-125m s2048 b8 bf16 AMP +10.5%, float32 +10.8%,
// checkpointed +20.7%; DistilBERT s512 b32 bf16 +13.2%, checkpointed
// +34.1% (host-bound on the H100's faster host, issue 14); AMP's ratio
// within 1%, checkpointing's +9.2% (OPT) and +18.4% (DistilBERT).
func TestStepTimeLate78(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late78Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 5, stepTargets{median: 0.133, max: 0.342, ratioMedian: 0.093, ratioMax: 0.185, order: 1})
}

// late79Dir is the seventy-ninth blind set (testdata/late79/README.md):
// transformers' ViT and BART, captured in call160-162 on a lent H100 with
// dev84/dev85 and evaluated once with the models of eb0fb6e
// (testdata/late79/RESULTS.md).
const late79Dir = "../../testdata/late79"

// TestLate79Blind: six memory rows. At first sight allocated within 0.45%
// (bart-base fp16 checkpointed -0.45%) but ViT LoRA +0.98%, reserved -0.22%
// to +1.78%; after the evaluation ViT LoRA's frozen first layer saves
// nothing: +0.02% allocated, +0.84% reserved.
func TestLate79Blind(t *testing.T) {
	checkBlindSet(t, late79Dir, 6, nil,
		blindLimits{resvMedian: 0.0054, resvMax: 0.0085, allocMax: 0.0046, under: 3, farUnder: 0})
}

// TestStepTimeLate79: ViT-B/16 b64 bf16 -1.7%, checkpointed +26.0%
// (host-bound on the H100's faster host, issue 14); bart-base s512 b16 bf16
// +17.0%, float32 +3.1%; checkpointing's ratio +28.2%, AMP's +13.4%.
func TestStepTimeLate79(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late79Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 4, stepTargets{median: 0.101, max: 0.261, ratioMedian: 0.209, ratioMax: 0.283, order: 1})
}

// late80Dir is the eightieth blind set (testdata/late80/README.md): BLOOM
// and transformers' ConvNeXt, captured in call164/165 on a lent H100 with
// dev87/dev88 and evaluated once with the models of 0499245
// (testdata/late80/RESULTS.md).
const late80Dir = "../../testdata/late80"

// TestLate80Blind: five memory rows, at first sight allocated within
// 0.02%, reserved +0.10% to +1.00%, all inside both bands.
func TestLate80Blind(t *testing.T) {
	checkBlindSet(t, late80Dir, 5, nil,
		blindLimits{resvMedian: 0.007, resvMax: 0.0105, allocMax: 0.0003, under: 1, farUnder: 0})
}

// TestStepTimeLate80: bloom-560m s1024 b4 bf16 -12.3%, checkpointed -9.4%;
// ConvNeXt-T b64 bf16 -5.2%, float32 -7.0% (the H100's host); the
// checkpointing and AMP ratios within 3.3%. Since session 57's H100 host
// costs (cheaper casts and checkpoint regions): -13.6%, -11.5%, -9.6%,
// -7.0%; ratios within 2.8%. This host ran the H100 hosts' usual casts
// dearer. Since late107's H100 checkpoint region (session 62): the
// checkpointed bloom step -13.0%, median 11.3%.
func TestStepTimeLate80(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late80Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 4, stepTargets{median: 0.114, max: 0.137, ratioMedian: 0.027, ratioMax: 0.034, order: 1})
}

// late81Dir is the eighty-first blind set (testdata/late81/README.md):
// Falcon, captured in call166/167 on a lent H100 with dev89 and evaluated
// once with the models of dfb94da (testdata/late81/RESULTS.md).
const late81Dir = "../../testdata/late81"

// TestLate81Blind: three memory rows, at first sight allocated within
// 0.06%, reserved -0.58% to +0.55%, all inside both bands.
func TestLate81Blind(t *testing.T) {
	checkBlindSet(t, late81Dir, 3, nil,
		blindLimits{resvMedian: 0.006, resvMax: 0.0065, allocMax: 0.0007, under: 1, farUnder: 0})
}

// TestStepTimeLate81: the 1024-hidden Falcon s1024 b4 bf16 +5.6%,
// checkpointed -1.1% (the H100's host); checkpointing's ratio -6.3%.
// Since session 57's H100 host costs: +5.5%, -3.2%, the ratio -8.2%.
// Since late107's H100 checkpoint region (session 62): +5.5%, -4.5%, the
// ratio -9.5% (measured 1.40, planned 1.27).
func TestStepTimeLate81(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late81Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 2, stepTargets{median: 0.051, max: 0.057, ratioMedian: 0.096, ratioMax: 0.096, order: 1})
}

// TestLate82Blind holds the eighty-second blind set (testdata/late82:
// DINOv2-L bf16, DINOv2-S fp16, DINOv2-B bf16 checkpointed, evaluated once
// at c197ba3; two rows' measured peaks were seen before the model was
// final, as RESULTS.md says): allocated within 0.04%, reserved -2.47%
// (checkpointed, under) to +0.46%.
func TestLate82Blind(t *testing.T) {
	// the checkpointed row is below the reserved band the set itself made
	// (see TestDev90DINOv2: the request-stream replay of dev90's
	// checkpointed trace is -5.4% too)
	checkBlindSet(t, "../../testdata/late82", 3, map[string]bool{"late82-dinov2-b-b96-bf16-ckpt reserved": true},
		blindLimits{resvMedian: 0.005, resvMax: 0.025, allocMax: 0.0005, under: 2, farUnder: 1})
}

// TestLate83Blind holds the eighty-third blind set (testdata/late83: GPT-J
// small fp16 checkpointed, wide bf16, 6B LoRA, evaluated once at ee0825c):
// allocated -0.88% to +1.68%, reserved +1.62% to +15.67%, all inside both
// bands. dev92's traces of its two smaller shapes (captured after the
// evaluation) showed the rotary tables in the query's dtype and the
// checkpointed layers holding the eager mask: allocated -0.05% to -0.02%;
// the checkpointed fp16 row's reserved is +16.58%, what replaying its
// request stream gives too (TestDev92GPTJ).
func TestLate83Blind(t *testing.T) {
	checkBlindSet(t, "../../testdata/late83", 3, map[string]bool{
		"late83-gptj-small-s2048-b4-fp16-ckpt reserved": true},
		blindLimits{resvMedian: 0.005, resvMax: 0.166, allocMax: 0.001, under: 3, farUnder: 0})
}

// TestLate84Blind holds the eighty-fourth blind set (testdata/late84,
// evaluated once per family, see its RESULTS.md): ModernBERT-large bf16,
// base token classification fp16 checkpointed, base masked LM float32,
// large LoRA (at 3f10dc3: allocated -0.13% to +0.04%, reserved +0.62% to
// +1.82%, all inside both bands); DeBERTa-v3 large bf16, base token
// classification fp16 checkpointed, base QA LoRA (at bf5eb64: allocated
// -0.05% to +0.00%, reserved +0.12% to +0.60%, all inside); Swin base
// bf16, small fp16 checkpointed, tiny float32 LoRA (at 91310f8: allocated
// -0.17% to +0.00%, reserved -1.11% to +10.02%, the checkpointed row over,
// all inside).
func TestLate84Blind(t *testing.T) {
	// once band data, the swin class's band (its rows' reserved spread
	// -2.8% to +2.8% besides this one) no longer holds the checkpointed
	// fp16 row's +10.02%: a known miss
	checkBlindSet(t, "../../testdata/late84", 10, map[string]bool{"late84-swin-small-b64-fp16-ckpt reserved": true},
		blindLimits{resvMedian: 0.008, resvMax: 0.101, allocMax: 0.0018, under: 6, farUnder: 0})
}

// TestLate87Families holds late87's blind training rows, each family's
// evaluated once: ELECTRA at e09d7f0 (electra-small QA s384 b32 float32,
// electra-large s512 b8 bf16 checkpointed: allocated -0.00% both,
// reserved +0.97% and +0.41%); CLIP at d35021a (ViT-L/14 b32 bf16 -0.00%
// and +0.58%, ViT-B/16 b128 fp16 checkpointed -0.00% and +0.79%, ViT-L/14
// b64 bf16 LoRA checkpointed -2.84% and -1.32%: under, inside both bands);
// Wav2Vec2 at 0dba189 (large CTC 15 s checkpointed +0.00% and +0.47%, base
// classification 8 s +0.09% and +6.90%, base CTC 20 s fp16 +29.39% and
// +57.67%, outside both bands: GradScaler skipped that run's first two
// optimizer steps, so its peaks never held AdamW's state, which plan's
// steady state does; RESULTS.md).
func TestLate87Families(t *testing.T) {
	// the L/14 LoRA row, after dev97's fixes -0.65% allocated (+0.80%
	// reserved), and -0.00% (+0.80%) with the text tower's hooked
	// embedding output and its .grad held to the end of backward (session
	// 48, Graph.leafHeld)
	known := map[string]bool{"late87-w2v-base-ctc-20s-b4-fp16-freeze allocated": true,
		"late87-w2v-base-ctc-20s-b4-fp16-freeze reserved": true}
	checkBlindGroups(t, "../../testdata/late87", 8, known,
		blindLimits{resvMedian: 0.009, resvMax: 0.58, allocMax: 0.30, under: 0, farUnder: 0}, "families")
}

// TestStepTimeLate87 holds late87's blind step times on the lent H100,
// evaluated once as each family became final: CLIP ViT-B/16 b64 bf16
// +38.6% and checkpointed +70.3% (checkpointing's ratio +22.9%), Wav2Vec2
// base CTC 10 s b8 bf16 +0.8%, ELECTRA base s512 b16 bf16 +40.6%. The
// host's own phase timings (gt_work's phase_s: forward, backward and
// optimizer issue) sum to 45, 85 and 23 ms for the CLIP, checkpointed CLIP
// and ELECTRA steps, where the walk prices 66, 148 and 35 ms: this H100's
// host issued 1.5x faster than the median lent H200 host plan assumes,
// and checkpointing's recompute (+82 ms priced, +40 ms issued) twice as
// fast (issue 14).
func TestStepTimeLate87(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join("..", "..", "testdata", "late87", "timing", "results.jsonl"))
	checkStepEval(t, ev, 4, stepTargets{median: 0.40, max: 0.71, ratioMedian: 0.23, ratioMax: 0.23, order: 1})
}

// TestLate88Blind holds late88's blind MarianMT and mBART training rows,
// evaluated once after both families were final (fam-mbart merged at
// 36253d6): the wide Marian s256 b32 fp16 checkpointed, opus-mt-en-de s128
// b64 bf16 LoRA, a small mBART s256 b16 bf16 and mbart-large-50 s512 b4
// checkpointed, allocated +0.00% each, reserved +0.34%, +0.43%, +0.41%
// and +0.58%, all inside both bands.
func TestLate88Blind(t *testing.T) {
	checkBlindGroups(t, "../../testdata/late88", 4, nil,
		blindLimits{resvMedian: 0.005, resvMax: 0.0065, allocMax: 0.0005, under: 0, farUnder: 0}, "families")
}

// TestLate89Blind holds late89's blind rows of the session's new
// families, evaluated once at 7802d5d: CLIP B/32 b256 float32 LoRA +0.00%
// allocated -0.12% reserved, Wav2Vec2 large 6 s b8 float32 -0.01% and
// +0.94%, ELECTRA base s256 b32 fp16 -0.00% and +0.78%, Marian s256 b32
// float32 checkpointed +0.00% and +0.47%, a small mBART s512 b8 bf16 LoRA
// +0.00% and +0.73%; all inside both bands.
func TestLate89Blind(t *testing.T) {
	checkBlindGroups(t, "../../testdata/late89", 5, nil,
		blindLimits{resvMedian: 0.008, resvMax: 0.0095, allocMax: 0.0005, under: 1, farUnder: 0}, "families")
}

// TestLate92EncDecLoRA holds late92's blind training rows (encoder-decoders
// under LoRA: T5-large, Flan-T5 fp16, Whisper-medium fp16, BART-large,
// Marian, mBART-50 and Pegasus checkpointed; Whisper-base and T5-small
// float32 without; distill-Pegasus bf16), evaluated once at 9f1ac3d:
// allocated within 0.04% on eight rows, Whisper-base +3.57% and T5-small
// +0.92% (its reserved -10.05%, under and outside its band). Both lacked
// noGradSaves under LoRA (the frozen front-end and first layers saved
// what autograd does not); with it -0.04% and +0.41% (reserved -0.62%,
// +0.66%). T5-small's allocated stays above its band, a known miss.
func TestLate92EncDecLoRA(t *testing.T) {
	known := map[string]bool{"late92-t5-small-s256-b32-fp32-lora8 allocated": true}
	checkBlindSet(t, "../../testdata/late92", 10, known,
		blindLimits{resvMedian: 0.008, resvMax: 0.012, allocMax: 0.005, under: 3, farUnder: 0})
}

// TestLate100HostScaleBlind: the blind test of --host-scale written before
// capture (bench/gpu/gt/late100_predictions.md). Five models the eleven
// calibration sets did not time, one process each on one lent host; the
// first workload of each model calibrates F = measured/planned, the other
// five are planned with host_scale F. Pass, fixed before capture: over the
// 25, the median |error| at most 10% and lower than unscaled, the 90th
// percentile lower than unscaled; on each model's largest batch (near or
// past the crossover) the scaled |error| within 10 points of the
// unscaled one's. The one evaluation (session 55, an H100 host, F
// 0.94-1.27): median 10.8% -> 7.8%, 90th percentile 20.9% -> 18.6%, max
// 35.7% -> 21.8%, no crossover point worse by more than 2.4 points
// (testdata/late100/RESULTS.md).
func TestLate100HostScaleBlind(t *testing.T) {
	ws := readTimedFile(t, "late100/timing/results.jsonl")
	groups := map[string][]measured.Timed{}
	var order []string
	for _, w := range ws {
		m := strings.SplitN(strings.TrimPrefix(w.Name, "late100-t-"), "-", 2)[0]
		if groups[m] == nil {
			order = append(order, m)
		}
		groups[m] = append(groups[m], w)
	}
	var before, after, solved, all0 []float64
	for _, m := range order {
		g := groups[m]
		if len(g) != 6 {
			t.Fatalf("%s: %d workloads, want 6", m, len(g))
		}
		cal := planStep(t, g[0].Spec, 0)
		f := g[0].StepS / cal.StepTime
		c, err := memmodel.CalibrateHost(context.Background(), g[0].Spec, g[0].StepS)
		if err != nil {
			t.Fatal(err)
		}
		all0 = append(all0, math.Abs(1/f-1))
		t.Logf("%s: F = %.1f ms / %.1f ms = %.2f (solved %.2f)", g[0].Name, 1e3*g[0].StepS, 1e3*cal.StepTime, f, c.HostScale)
		for i, w := range g[1:] {
			p0, p1 := planStep(t, w.Spec, 0).StepTime, planStep(t, w.Spec, f).StepTime
			e0, e1 := math.Abs(p0/w.StepS-1), math.Abs(p1/w.StepS-1)
			before, after = append(before, e0), append(after, e1)
			all0 = append(all0, e0)
			solved = append(solved, math.Abs(planStep(t, w.Spec, c.HostScale).StepTime/w.StepS-1))
			t.Logf("  %s: %.1f ms measured, planned %.1f (%+.1f%%), with host_scale %.1f (%+.1f%%)",
				w.Name, 1e3*w.StepS, 1e3*p0, 100*(p0/w.StepS-1), 1e3*p1, 100*(p1/w.StepS-1))
			if i == len(g)-2 && e1 > e0+0.10 {
				t.Errorf("%s (the crossover point): host_scale took |error| %.1f%% to %.1f%%", w.Name, 100*e0, 100*e1)
			}
		}
	}
	for _, e := range [][]float64{before, after, solved, all0} {
		sort.Float64s(e)
	}
	n := len(after)
	t.Logf("all %d steps unscaled (issue 14's first sight): median |error| %.1f%%, max %.1f%%; solved factor (--measured-step) on the 25: median %.1f%%, 90th percentile %.1f%%, max %.1f%%",
		len(all0), 100*all0[len(all0)/2], 100*all0[len(all0)-1], 100*solved[n/2], 100*solved[n*9/10], 100*solved[n-1])
	t.Logf("%d predictions: median |error| %.1f%% -> %.1f%%, 90th percentile %.1f%% -> %.1f%%, max %.1f%% -> %.1f%%",
		n, 100*before[n/2], 100*after[n/2], 100*before[n*9/10], 100*after[n*9/10], 100*before[n-1], 100*after[n-1])
	if after[n/2] > 0.10 || after[n/2] >= before[n/2] || after[n*9/10] >= before[n*9/10] {
		t.Errorf("the committed criteria fail")
	}
}

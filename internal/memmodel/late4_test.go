package memmodel_test

import (
	"path/filepath"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
)

// late4Dir is the fourth blind set (testdata/late4/README.md): captured at
// the start of session 4 before any model changed, evaluated once at first
// sight (testdata/late4/FIRST-SIGHT.md); two general causes it showed were
// fixed afterwards, so its memory rows are seen (testdata/late4/RESULTS.md).
const late4Dir = "../../testdata/late4"

// TestLate4Fixes pins the three first-sight misses on their measured
// peaks: Mistral (16 heads, 4 kv) and Qwen3 (16/8) trained in float32 run
// SDPA's math path (were -31.6% and -15.6% allocated), and ViT-B/16 with
// bf16 weights and images (was +102%).
func TestLate4Fixes(t *testing.T) {
	rows, err := measured.ReadGTRows(filepath.Join(late4Dir, "families", "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	limits := map[string][2]float64{ // allocated error range
		"late4-mistral-d-s1024-b8-fp32": {-0.005, 0.005},
		"late4-qwen3-e-s1024-b4-fp32":   {-0.005, 0.005},
		"late4-vitb16-b128-bf16w":       {-0.01, 0.06},
	}
	seen := 0
	for _, r := range rows {
		lim, ok := limits[r.Name]
		if !ok {
			continue
		}
		seen++
		res := planRow(t, r)
		e := float64(res.PeakAllocated)/float64(r.MaxAllocated) - 1
		if e < lim[0] || e > lim[1] {
			t.Errorf("%s: allocated %+.2f%% of the measured %d bytes, want %+.1f%%..%+.1f%%",
				r.Name, 100*e, r.MaxAllocated, 100*lim[0], 100*lim[1])
		}
	}
	if seen != len(limits) {
		t.Fatalf("found %d of the %d rows", seen, len(limits))
	}
}

// TestLate4Blind: 20 training rows (the compiled GPT-2 row is not a plan
// spec of bench/measured). After the fixes: peak reserved median 0.20%,
// max 4.80% (BERT fp16 ckpt, over), 8 of 20 under, none more than 2% low;
// allocated max 5.47% (pure-bf16 ViT, over, below its allocated band's
// low end: no pure-bf16 vision capture exists to say why). Held there,
// except what the allowance for untraced allocations moves (bands.json,
// 26 MiB + 1% of the model's figure): none under, median 1.16%, max
// 6.68% (the BERT row, over).
// Session 6 (late6 and late7 became band data): the allowance re-derived
// on 136 held-out rows is 28 MiB + 1.25% (was 26 MiB + 1%), which lifts
// every row's figure by about 0.25%: median 1.40%, max 7.07%, and
// the BERT row (+7.07%, over) fell below its reserved band's low end,
// inside once the low end was taken from the figure without the
// allowance's 28 MiB (0.85% of this 3.1 GiB run), and 0.1% below it again
// on resv7's models (the shared low quantile moved with them).
// Session 8 (memmodel replays top-down, autocast casts the weight before the input, the wide
// bias-gradient scratch, bands re-derived): median 1.40% -> 0.86%, max 7.07% -> 4.91% (BERT-base
// fp16 ckpt +7.07% -> +1.33%, inside its band now), 1 under (none more than 2% low); OLMo 2 LoRA
// (+4.58%, over as every OLMo 2 row) falls below its band now that the re-derived bands are
// narrower.
// Session 9 (OLMo's rotary embedding casts q and k back to bf16,
// DecoderQuirks.RopeCastBack): OLMo 2 LoRA +4.58% -> +0.75%, inside its
// band again; median 0.86% -> 0.83%.
// Session 12 (resv13): the allowance re-derived after resv13 (EfficientNet fp16 and checkpointed rows no longer under) is 14 MiB + 0.5% (was 22 MiB + 0.5%), every row 8 MiB lower: ResNet-101 b96 bf16
// +0.02% -> -0.08%, 4 under (none more than 2% low); held there.
func TestLate4Blind(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 20 workloads")
	}
	// OLMo 2 LoRA's reserved is inside its band since session 7 (bands8,
	// and +0.75% since olmo8's rotary cast)
	// Session 9 (resv9b: ViT's attention as torchvision runs it: no copy after flash/cuDNN SDPA, seq-first LayerNorm inputs copied contiguous, MHA's locals alive until it returns):
	// ViT-B/16 pure bf16 +5.49% -> -0.01% allocated, +4.91% -> -0.84%
	// reserved; ViT-L/16 ckpt +1.17% -> -0.75%: 3 under, none more than 1% low
	// bands9 on session 8's merged models put BERT-base fp16
	// checkpointed's allocated 0.2 MB above its band's top; with late12,
	// late12q and pick3 as band rows (bands11) it is inside again; with
	// late13 and pick4 (bands12) 12 MB (0.44%) above the top again (the
	// model -1.89% allocated; the shared allocated quantile's top fell
	// from 10.0 to 7.35 spreads). Session 21 (BERT's Python-held
	// LayerNorm, intermediate and dropout outputs, TestLate14Blind):
	// -0.00% allocated, inside its band; reserved unchanged (+0.95%).
	// (Phi-3 (d) bf16 checkpointed, 0.46% low in allocated, was above the
	// allocated band's top after session 23's first regeneration; inside
	// again with late44 as band data; above it again, 2.8 MB, since
	// session 24's bands, where DDP rows count against their release
	// figures and late46's six repeated rows left the band data; 5 MB
	// above it with session 26's)
	known := map[string]bool{"late4-phi3-d-s2048-b2-bf16-ckpt allocated": true}
	checkBlindSet(t, late4Dir, 20, known, blindLimits{resvMedian: 0.0091, resvMax: 0.0496, allocMax: 0.056, under: 4, farUnder: 0})
}

// TestStepTimeLate4: 22 step times, blind to every step-time change: at
// first sight (session-start model) median 7.0%, max 24.3% (EfficientNet-B0
// fp32, predicted too fast), technique ratios 9 of 11 within 10% (ViT-L
// ckpt -16.6%), same-model order 16/16. Held there.
// Round 11 (broadcast kernels calibrated, LayerNorm weight gradients as
// their own kernel): median 6.2% -> 6.2%, ratio max 16.5% -> 17.0%
// (ViT-L checkpointing: the unchekpointed step gained its LayerNorm
// weight-gradient kernels, the host-bound recomputation did not move).
// Round 12 (views' backward nodes issued: SliceBackward's fill + copy +
// add, SplitBackward's cat): median 6.2% -> 5.7%, max 24.6% -> 26.3%
// (Gemma-d ckpt +26.3%, over-estimated before: rotate_half's four slices
// per layer are real kernels, issued once more by the recomputation),
// ratio median 2.5% -> 3.1%.
// Round 21: plans assume the median lent H200 host (DefaultHostCosts, the
// calibration machine's host costs x1.2, lentHostScale). Here median
// 5.3% -> 4.6%, max 18.3% -> 19.8%; OLMo 2's LoRA ratio +9.5% -> +20.2%
// (the LoRA step host-bound in the walk, the full one GPU-bound).
func TestStepTimeLate4(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late4Dir, "timing", "results.jsonl"))
	// resv9b (ViT without the copy after flash SDPA): the plain ViT-L step
	// -5.3% -> -4.3%, checkpointed -21.4% -> -21.1%, so their ratio -17.0% -> -17.6%
	checkStepEval(t, ev, 22, stepTargets{median: 0.075, max: 0.265, ratioMedian: 0.07, ratioMax: 0.21, order: 0.95})
}

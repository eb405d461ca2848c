package memmodel_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
)

// late5Dir is the fifth blind set (testdata/late5/README.md), evaluated
// once with session 4's final models (testdata/late5/RESULTS.md).
const late5Dir = "../../testdata/late5"

// TestLate5Blind: 18 training rows. At its evaluation: peak reserved
// median 0.47%, max 18.71% (Gemma 2 pure-bf16 LoRA, the logits-workspace
// split, inside its band), 13 of 18 under (3 more than 2% low), Whisper
// fp32 +7.88% reserved above its band; allocated max 4.34%. Held there,
// except what the allowance for untraced allocations moves (bands.json,
// 26 MiB + 1% of the model's figure): 4 under (3 more than 2% low, the
// allowance is smaller than their misses), median 1.15%; Whisper fp32 is
// inside the band on the calibrated figure.
// Session 5 (TestWhisperAttentionOutputLayout): Whisper fp32 +4.34% →
// +0.01% allocated; allocated max 3.98%.
// Session 6 (issue 13, frozen convs): ViT-B/16 fp16 +3.98% → +4.00%:
// ConvolutionBackward0 saves input and weight together, so the patch
// conv's fp16 weight cast (1.2 MB) lives until the end of backward.
// Session 6 (late6 and late7 became band data): the allowance re-derived
// on 136 held-out rows is 28 MiB + 1.25% (was 26 MiB + 1%), which lifts
// every row's figure by about 0.25%: median 1.32%. With late6 and late7 in the
// allocated bands (fp16 ViT rows near 0%), ViT-B fp16's +4.00% allocated
// falls below its allocated band's low end.
// Session 8 (memmodel replays top-down, autocast casts the weight before the input, the wide
// bias-gradient scratch, bands re-derived): median 1.33% -> 0.86%, max 17.57% -> 4.60% (Gemma 2
// LoRA), 6 under (was 4; 1 more than 2% low, was 1): the smaller allowance puts rows within 1% on
// the low side.
func TestLate5Blind(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 18 workloads")
	}
	// Session 9 (resv9b: ViT's attention as torchvision runs it: no copy after flash/cuDNN SDPA, seq-first LayerNorm inputs copied contiguous, MHA's locals alive until it returns):
	// ViT-B/16 fp16 +3.97% -> -0.01% allocated, +4.60% -> +0.34% reserved
	known := map[string]bool{
		// bands9 on session 8's merged models: EfficientNet-B0 fp16's
		// allocated (the model 1.8% low) was above its band's top;
		// inside since bands12 (late13 and pick4 as band rows)
		// bands10: a kind with no first-sight miss over 2% (llama
		// checkpoint=block bf16-amp) takes the narrower band of such
		// kinds; Qwen2.5-1.5B checkpointed's reserved (the model 2.6% low
		// now) is 0.4% above its top (×1.022); inside since session 18
		// (late30's checkpointed world-size-1 rows widened the band)
		// Session 23's bands (Phi-3 and T5 allocated exact, the pooled
		// allocated band narrower): Granite LoRA checkpointed, 0.16% low,
		// above its top
		"late5-granite-e-s2048-b2-bf16-lora8-ckpt allocated": true,
	}
	// Session 11 (resv12: the per-image cuDNN partials of the 7×7 1×1
	// convs, and GradScaler skipping no EfficientNet step): EfficientNet-B0
	// fp16 allocated -3.63% -> +0.02%, reserved -2.10% -> -2.26% (under:
	// the blind fp16 trace has cuDNN depthwise and 1×1 workspaces bf16's
	// lack, not modelled); allocated max 1.22%
	checkBlindSet(t, late5Dir, 18, known, blindLimits{resvMedian: 0.0091, resvMax: 0.0465, allocMax: 0.0125, under: 6, farUnder: 2}) // resv9b's bands: EfficientNet-B0 fp16 -2.06% (a smaller allowance)
}

// TestStepTimeLate5: 13 blind step times on a slow host, at evaluation
// median 25.2%, max 43.3%, ratios 1 of 4 within 10% (max 23.5%), same-model
// order 4 of 5. Held there (issue 14's targets are NOT met on this set).
// Round 10 (attention priced as cuDNN runs it, bias gradients as their own
// kernels): median 25.2% -> 26.9%, max 43.3% -> 43.4%. Attention had been over-priced 1.4-2.3x on
// every transformer profile, hiding GPU time the model still misses
// (the Llama-small b8 profile's non-vectorised broadcast float32 muls,
// 292 kernels, 8.1 ms, priced at the contiguous rate; host-bound rows).
// Round 15 (checkpoint's own Python per region, HostCosts.Ckpt 1.2 ms, no
// drain before a recomputation): max 42.1% -> 37.7%,
// median 24.5% -> 26.8%, ratios median 21.4% -> 22.9%, max 23.0% -> 25.8%: Qwen2.5-0.5B
// checkpointing -19.9% -> -25.8% (a 62 ns host; the drain had stood in
// for its slow Python), ViT-B fp16 checkpointing -8.8% -> -1.9%.
// Round 16a (the recomputation stops at each layer's last saved tensor,
// down_proj's input, as torch.utils.checkpoint's early stop does):
// Qwen2.5-0.5B checkpointing -25.8% -> -27.2%, ratio max held at 27.3%:
// the recomputed down_proj GEMMs and residual adds were GPU work the
// step never does; what this 62 ns host's checkpointed step spends
// beyond the walk is host time (same configuration, 39 ns host, in the
// rerun: -14.6%).
// Round 18 (half-precision GEMMs at the burst clock the timing probes
// measure, x1.20 over gt_calib.py's throttled table; the optimizer's
// per-parameter slope from its GPU-bound steps, +10%): both justified by
// the kernel profiles (transformer GEMMs +14..29% long -> -5..+8%,
// optimizer kernels 7-13% short -> -5..+2%). They had hidden GPU time the
// model still misses (ViT copies and pointwise, T5's float32 GEMMs) and
// host time (steps longer than the GPU's busy time on every profile).
// Here: median 26.8% -> 27.8%, ratios median 22.9% -> 23.8% (a slow host:
// its rows were under-estimated already).
// Round 19 (float32 memory-efficient attention at three times its bf16
// kernel, fastF32MMAs): BERT-large fp32 -1.9% -> -0.3%, its AMP ratio
// -25.2% -> -26.3% (this slow first run's bf16 step; the rerun's is
// +4.0% -> +2.4%): ratios median 23.8% -> 24.4%.
func TestStepTimeLate5(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late5Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 13, stepTargets{median: 0.28, max: 0.44, ratioMedian: 0.245, ratioMax: 0.273, order: 0.75})
}

// TestWhisperAttentionOutputLayout: HF Whisper makes q, k and v
// [b, h, s, d]-contiguous before SDPA, and sdpa_attention_forward's
// transpose(1, 2).contiguous() copies the output only when it kept that
// layout: flash (half precision) writes into empty_like(q), the
// memory-efficient kernel (float32) a [b, s, h, d] buffer. Modelling the
// copy in float32 too put both float32 Whisper captures 3.9% and 4.3%
// over PyTorch's peak allocated; the half-precision ones were and stay
// within 0.1%.
func TestWhisperAttentionOutputLayout(t *testing.T) {
	if testing.Short() {
		t.Skip("plans six workloads")
	}
	for _, c := range []struct{ dir, name string }{
		{late5Dir, "late5-whisper-e-b24-fp32"},
		{late2Dir, "late2-whisper-c-fp32"},
		{late2Dir, "late2-whisper-c-bf16"},
		{lateDir, "late-fam-whisper-a-bf16"},
		{lateDir, "late-fam-whisper-b-bf16"},
		{late4Dir, "late4-whisper-d-b16-bf16"},
	} {
		m := gtRow(t, filepath.Join(c.dir, "families", "results.jsonl"), c.name)
		r := planRow(t, m)
		e := measured.Rel(r.PeakAllocated, m.MaxAllocated)
		t.Logf("%-28s allocated %+.2f%%", c.name, 100*e)
		if math.Abs(e) > 0.005 {
			t.Errorf("%s: peak allocated %d, PyTorch %d (%+.2f%%)", c.name, r.PeakAllocated, m.MaxAllocated, 100*e)
		}
	}
}

// gtRow is the capture row name of a results.jsonl.
func gtRow(t *testing.T, path, name string) measured.GTRow {
	t.Helper()
	rs, err := measured.ReadGTRows(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("%s: no row %s", path, name)
	return measured.GTRow{}
}

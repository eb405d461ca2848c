package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late10Dir is the tenth blind set (testdata/late10/README.md): captured at
// the start of session 7 (call 23) before any model of the session changed,
// kept outside the repository and every helper's view, and evaluated with
// the session-start models and once with the final ones
// (testdata/late10/RESULTS.md); late10qDir holds its three QLoRA /
// AdamW8bit rows.
const (
	late10Dir  = "../../testdata/late10"
	late10qDir = "../../testdata/late10q"
)

// TestLate10Blind: 24 training rows, final models: peak reserved median
// 0.95% (session start 1.64%), max 16.41% (Qwen3 LoRA on every linear
// layer, over), 5 of 24 under (2 more than 2% low: Qwen2.5-0.5B pure-bf16
// LoRA -3.04%, Whisper checkpointed -2.52%), allocated max 4.12% (the
// Qwen2.5 LoRA row). The SD 1.5 UNet LoRA checkpointed row was -8.25%
// allocated, -9.31% reserved until the UNet checkpointed diffusers' units
// (each resnet and BasicTransformerBlock, not the whole down/up stage):
// +0.15% / -0.91%; ViT-B checkpointed +7.86% reserved -> +2.02% once
// the ViT followed torchvision's attention. Outside the printed bands:
// reserved 3 of 24 (the Qwen3 LoRA, Qwen2.5 pure-bf16 LoRA and T5-large
// AMP +3.46% rows), allocated 1 (Qwen2.5 LoRA). Held there.
// Session 8 (resv9a: PEFT's _cast_input_dtype and float32 adapters, the
// reshape copy of an adapted q/k/v projection's gradient; dev8 snapshots):
// Qwen3 LoRA on every linear +16.41% -> +0.73% reserved, Qwen2.5 pure-bf16
// LoRA allocated -4.12% -> +0.12%, reserved -3.04% -> +0.92%, both inside
// their bands; reserved median 0.95% -> 0.89%, max 7.86% (ViT-B
// checkpointed), allocated max 7.88% (UNet LoRA checkpointed), 4 under
// (was 5; 2 more than 2% low, was 3).
func TestLate10Blind(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 24 workloads")
	}
	// (bands9 on session 8's merged models put the UNet LoRA checkpointed
	// allocated, -0.08%, 4 MB below its band's low end; session 21's bands,
	// late36-38 joined, hold it)
	// Session 23 (Phi-3's attention-output copy and the math-path softmax's
	// gradient copy, T5's encoder tail outside the checkpoint: Phi-3 and T5
	// allocated exact) narrowed the pooled allocated band; Granite LoRA
	// checkpointed, 0.06% low in allocated, is just above its top.
	// Since session 24 (DDP rows scored against their release figures no longer widen the allocated bands: the shared low quantile -2.21 -> -1.93 spreads) the UNet LoRA
	// checkpointed's allocated (+0.05% over) is 3 MB below its band.
	known := map[string]bool{"late10-granite-f-s1024-b4-bf16-lora16-ckpt allocated": true,
		"late10-sd15-unet-b4-bf16-lora16-ckpt allocated": true}
	checkBlindSet(t, late10Dir, 24, known, blindLimits{resvMedian: 0.0096, resvMax: 0.165, allocMax: 0.0413, under: 5, farUnder: 2})
}

// TestLate10qBlind: the blind QLoRA (Mistral r16, LLaMA-3.2-1B r8
// checkpointed at 2k) and AdamW8bit (Gemma) rows: peak allocated within
// 0.41%, reserved median 0.61%, max 0.91%, none under. Held there.
func TestLate10qBlind(t *testing.T) {
	// bands regenerated on resv9b's models (the ViT's +3..5% allocated over-estimates gone, the pooled allocated band's low end moved 0.988 -> 0.997):
	// the QLoRA Mistral row's allocated (-0.08%) is just below its band.
	// bands11 (late12, late12q, pick3 as band rows): 87 KB (0.002%) below
	// its allocated band's low end; bands12 (late13, pick4): inside again
	// session 44's narrower allocated band: Mistral (e) QLoRA, 87 KB over,
	// below its low end
	// session 49 (late92 and dev100's LoRA rows in the bands): inside again
	checkBlindSet(t, late10qDir, 3, nil, blindLimits{resvMedian: 0.0062, resvMax: 0.0092, allocMax: 0.0042, under: 0, farUnder: 0})
}

// TestStepTimeLate10: 18 blind step times; session-start models median
// 13.5%, max 38.4%, ratios 2 of 7 within 10%; final models median 9.9%,
// max 35.6% (Qwen2.5-0.5B with 2-step accumulation: measured 241 ms
// against 128 ms for one step of twice the batch), ratios 5 of 7 within
// 10% (median 8.9%, max 33.8%: that accumulation pair), same-model order
// 6 of 6. Held there.
// Round 15 (checkpoint's own Python per region, HostCosts.Ckpt 1.2 ms, no
// drain before a recomputation): median 8.8% -> 9.0%,
// ratios 5 -> 3 of 7 within 10%, median 8.5% -> 10.3%: ConvNeXt-T b128
// checkpointing +7.9% -> +23.5% (timed on a 55 ns host, it added only
// 33% to the step), OLMo 2 checkpointing -6.3% -> -11.1%.
// Round 18 (half-precision GEMMs at the burst clock the timing probes
// measure, x1.20 over gt_calib.py's throttled table; the optimizer's
// per-parameter slope from its GPU-bound steps, +10%): both justified by
// the kernel profiles (transformer GEMMs +14..29% long -> -5..+8%,
// optimizer kernels 7-13% short -> -5..+2%). They had hidden GPU time the
// model still misses (ViT copies and pointwise, T5's float32 GEMMs) and
// host time (steps longer than the GPU's busy time on every profile).
// Here: median 10.0% -> 10.4%, max 35.6% -> 36.2%, ratios median 10.3%
// -> 11.9% (Llama-3.2-1B LoRA -7.0% -> -13.1%, host-bound; DiT-B
// +0.9% -> -4.6%). With round 17's engine nodes merged (host time on
// every backward, which moves the rows where host and GPU nearly tie):
// median 10.6%, held at 11%.
// Round 21: plans assume the median lent H200 host (DefaultHostCosts, the
// calibration machine's host costs x1.2, lentHostScale). Here median
// 10.6% -> 8.6%, max 35.2% -> 27.5%; the ConvNeXt-T b128 checkpointing
// ratio +24.3% -> +39.7%: its checkpointed step is host-bound in the walk,
// its plain step is not, and this process's host was already faster than
// the walk's (the checkpointed step +11% over before).
func TestStepTimeLate10(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late10Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 18, stepTargets{median: 0.09, max: 0.28, ratioMedian: 0.12, ratioMax: 0.40, order: 0.95})
}

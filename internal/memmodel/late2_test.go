package memmodel_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
)

// late2Dir is the second late blind set (testdata/late2/README.md):
// captured at the start of session 3, before any model of that session
// changed, and kept out of every helper's view until the models were
// final. FIRST-SIGHT.md holds what the session-start models printed on it;
// the tests below hold the final models to what they printed on their one
// evaluation (testdata/late2/RESULTS.md).
const late2Dir = "../../testdata/late2"

// TestLate2Blind: the 22 training rows. First sight (session start):
// reserved median 0.37%, max 17.18%, 14 of 22 under; allocated max 5.18%
// with ConvNeXt-T ckpt outside its band. Final models: reserved median
// 0.30%, max 17.08% (Gemma 2 + LoRA, the logits-workspace split, now
// inside the band through its variant), 11 of 22 under (one more than 2%
// low); allocated max 3.94% (Whisper fp32, over); every row inside both
// bands. Held there: issue 13's max ≤ 8% still fails on this set. The
// allowance for untraced allocations (bands.json, 26 MiB + 1% of the
// model's figure) leaves 3 under (one more than 2% low), median 1.18%.
// Session 5 (no copy after float32 SDPA in Whisper): Whisper fp32
// +3.92% → +0.01% allocated; allocated max 2.72%. Session 6 (cuDNN
// workspaces of both passes, conv_workspace.go): ResNet-50 b96 fp16
// +1.73% → -0.71%, closer but now under (4 under, one more than 2% low);
// EfficientNet-B0 b96 bf16 +1.16% → +2.47%.
// Session 6 (late6 and late7 became band data): the allowance re-derived
// on 136 held-out rows is 28 MiB + 1.25% (was 26 MiB + 1%), which lifts
// every row's figure by about 0.25%: median 1.43%, 3 under (one more
// than 2% low).
// Session 8 (memmodel replays top-down, autocast casts the weight before the input, the wide
// bias-gradient scratch, bands re-derived): median 1.43% -> 0.84%, max 15.92% -> 3.57% (Gemma 2
// LoRA -15.92% -> +0.40%), 3 under (1 more than 2% low).
// Session 9 (OLMo's rotary embedding casts q and k back to bf16,
// DecoderQuirks.RopeCastBack): OLMo 2 c +3.57% -> +0.73%, max 3.57% ->
// 2.77% (EfficientNet-B0 now the largest).
func TestLate2Blind(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 22 workloads")
	}
	// resv9b's bands (a smaller allowance on the more exact models):
	// ConvNeXt-T checkpointed -2.77% -> -2.99% reserved
	known := map[string]bool{
		// bands9 on session 8's merged models: EfficientNet-B0 bf16's
		// allocated (the model 0.8% low) was above its band's top;
		// inside since bands12 (late13 and pick4 as band rows)
		// Session 23's bands put Gemma 2 LoRA, 0.09% low, above its top;
		// session 44's sliding mask at seq == window: +0.06%, inside
	}
	// Session 11 (resv12: the per-image cuDNN partials of the 7×7 1×1
	// convs): EfficientNet-B0 bf16 allocated -2.70% -> +0.00%, reserved
	// +1.88% -> +1.00%; allocated max 1.67%, none more than 2% low
	checkBlindSet(t, late2Dir, 22, known, blindLimits{resvMedian: 0.009, resvMax: 0.030, allocMax: 0.0170, under: 3, farUnder: 0})
}

// TestStepTimeLate2: the 31 blind step times. First sight: median 12.4%,
// max 45.3%, ratios 10 of 12 within 10%, same-model order 19/21. Final:
// median 10.6%, max 37.9% (LLaMA-small s2048 LoRA, predicted too fast),
// 77% under-estimates, ratios 10 of 12 within 10% (max 20%: T5 ckpt), order
// 21/21. Issue 14's median ≤ 10% and max ≤ 25% fail here; held as measured.
// Round 10 (attention priced as cuDNN runs it, bias gradients as their own
// kernels): median 8.9% -> 9.2%, ratios max 20.2% -> 24.6% (LLaMA-small bf16/fp32: 0.21 predicted, 0.28 measured). Attention had been over-priced 1.4-2.3x on
// every transformer profile, hiding GPU time the model still misses
// (the Llama-small b8 profile's non-vectorised broadcast float32 muls,
// 292 kernels, 8.1 ms, priced at the contiguous rate; host-bound rows).
func TestStepTimeLate2(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late2Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 31, stepTargets{median: 0.11, max: 0.39, ratioMedian: 0.10, ratioMax: 0.25, order: 0.95})
}

// TestFitPicksFastestLate2: every --fit candidate (precision × ckpt
// none/block × three micro-batch splits) of four models, timed after the
// session-start model ranked them. The configuration the final model
// predicts fastest must run within 5% of the measured fastest (issue 14).
// First sight: ResNet-50 22% behind (bf16 b256 first); final: fp16 b128×2
// first, 4.7% behind fp16 b256; GPT-2 medium bf16 16×2, 3.1% behind 32×1;
// LLaMA-small and BERT-base pick the fastest.
func TestFitPicksFastestLate2(t *testing.T) {
	ws, skipped, err := measured.ReadTimed(filepath.Join(late2Dir, "pick2", "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) > 0 || len(ws) != 72 {
		t.Fatalf("%d rows read, skipped %v", len(ws), skipped)
	}
	ev, err := measured.EvalStepTime(ws)
	if err != nil {
		t.Fatal(err)
	}
	checkFirstPicks(t, ev, 4, nil)
}

// evalTimedFile reads one timing file (every row must be one the planner
// takes) and evaluates the step-time model on it.
func evalTimedFile(t *testing.T, path string, failed ...string) measured.StepEval {
	t.Helper()
	ws, skipped, err := measured.ReadTimed(path)
	if err != nil {
		t.Fatal(err)
	}
	// a row the GPU run could not complete is skipped; only those named
	// (failed: the workload's names) may be
	if len(skipped) != len(failed) {
		t.Fatalf("skipped %v, want exactly %v", skipped, failed)
	}
	for i, s := range skipped {
		if !strings.HasPrefix(s, failed[i]+":") {
			t.Fatalf("skipped %q, want %q", s, failed[i])
		}
	}
	ev, err := measured.EvalStepTime(ws)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

package memmodel_test

import (
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

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

package memmodel_test

import (
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

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

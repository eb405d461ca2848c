package infer

import (
	"fmt"
	"slices"

	"github.com/vramkit/vramkit/internal/units"
)

// loraRanks are the max_lora_rank values vLLM accepts.
var loraRanks = []int{1, 8, 16, 32, 64, 128, 256, 320, 512}

// loraSlots is what vLLM's LoRA manager allocates on one of tp GPUs when
// it starts with --enable-lora (vllm/lora/layers): for each of maxLoras
// adapters of rank r, every linear layer gets an A of [r, in] and a B of
// [out, r] per slice — q, k, v and gate, up are slices of their fused
// layers; column-parallel layers split B's rows across GPUs, row-parallel
// ones A's columns — and the embedding and LM head an A and a B each, in
// the model's 16-bit dtype (float32 for a float32 model). vLLM allocates
// them while it loads the model, so "Model loading took" includes them.
func loraSlots(c *config, tp, maxLoras, r int64) int64 {
	h, q := c.hidden, c.heads*c.headDim
	kv := kvHeadsPerRank(c, tp) * c.headDim
	f := c.ffn / tp
	mlpSlices := int64(1) // GPT-2's c_fc
	if c.dec.servedMLP == 3 {
		mlpSlices = 2 // gate and up
	}
	layer := 3*r*h + (q/tp+2*kv)*r + // qkv: A per slice, B split
		r*q/tp + h*r + // o_proj (row-parallel)
		mlpSlices*(r*h+f*r) + // gate_up
		r*f + h*r // down_proj (row-parallel)
	vocab := (c.vocab + 63) / 64 * 64
	tables := 2 * (vocab*r + h*r) // embed_tokens and lm_head
	dt := max(c.dt, 2)
	return maxLoras * dt * (c.layers*layer + tables)
}

// resolveLoRA checks the spec's vLLM LoRA arguments and returns the
// adapters and rank (0, 0 without LoRA).
func resolveLoRA(c *config, maxLoras, rank int) (int64, int64, error) {
	switch {
	case rank == 0 && maxLoras != 0:
		return 0, 0, specErr("max_loras", "is read with max_lora_rank (vLLM's --enable-lora)")
	case rank == 0:
		return 0, 0, nil
	case !slices.Contains(loraRanks, rank):
		return 0, 0, specErr("max_lora_rank", "vLLM accepts %v, got %d", loraRanks, rank)
	case maxLoras < 0:
		return 0, 0, specErr("max_loras", "must be positive, got %d", maxLoras)
	case c.dec.served != nil:
		return 0, 0, specErr("max_lora_rank", "LoRA on %s's experts is not planned; plan the dense models", c.arch.Name)
	case c.dec.noLoRA:
		return 0, 0, specErr("max_lora_rank", "vLLM's %s model takes no LoRA adapters", c.arch.Family)
	}
	return int64(max(maxLoras, 1)), int64(rank), nil
}

// loraNote says what the adapters cost.
func loraNote(slots, n, r int64) string {
	return fmt.Sprintf("LoRA: %d adapter slot(s) of rank %d take %s a GPU, loaded with the weights; vLLM captures CUDA graphs for batches with and without LoRA, so the graphs take more (not in the figures above); the band's low end allows the LoRA profile float32 logits of every batched token (one log with LoRA held 4.7%% fewer tokens than planned)",
		n, r, units.Bytes(slots))
}

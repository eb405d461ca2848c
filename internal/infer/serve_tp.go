package infer

import (
	"github.com/vramkit/vramkit/internal/memmodel"
)

// NCCL's and vLLM's custom all-reduce buffers per GPU under tensor
// parallelism on PCIe boards (nominal, and the most the band allows
// inside the budget): logs of L40S servers show next to nothing charged.
const (
	ncclBuffers     = 256 << 20
	ncclBuffersHigh = 512 << 20
)

// vllmComms is how many NCCL communicators a vLLM tensor-parallel worker
// creates: torch.distributed's group and vLLM's own PyNccl communicator.
// On NVSwitch boards (gpu.NVLS) each holds what one measured on two
// H200s (memmodel.NCCLCommBytes), charged to the budget: the two H100
// logs of Qwen3-32B (TP 2) and Llama 3.1 70B (TP 4) left 1.86 and 1.84
// GiB a GPU fewer for the cache than the weights and profile explain.
const vllmComms = 2

// ncclCharged is NCCL's memory a tensor-parallel vLLM worker charges to
// its budget, and the band's range of it.
func ncclCharged(c *config, tp int64) (nominal, lo, hi int64) {
	switch {
	case tp == 1:
		return 0, 0, 0
	case c.gpu.NVLS:
		n := int64(vllmComms * memmodel.NCCLCommBytes)
		// newer versions may take the baseline after the communicators
		return n, 0, n + ncclBuffersHigh
	}
	return 0, 0, ncclBuffersHigh
}

// servedTP is vLLM's tensor_parallel_size from the spec's parallel.tp,
// checked as vLLM checks it: the attention heads split evenly, and the KV
// heads either split evenly or are replicated evenly.
func servedTP(c *config, p memmodel.Parallel) (int64, error) {
	tp := int64(max(p.TP, 1))
	if p.GPUs > 1 && int64(p.GPUs) != tp {
		return 0, specErr("parallel", "a serve plan is one vLLM instance: gpus (%d) must equal tp (%d)", p.GPUs, tp)
	}
	if c.heads%tp != 0 {
		return 0, specErr("parallel", "tp %d does not divide the %d attention heads of %s", tp, c.heads, c.arch.Name)
	}
	if c.kvHeads%tp != 0 && tp%c.kvHeads != 0 {
		return 0, specErr("parallel", "tp %d neither divides nor is a multiple of the %d KV heads of %s", tp, c.kvHeads, c.arch.Name)
	}
	return tp, nil
}

// kvHeadsPerRank is the KV heads each GPU holds: split when tp divides
// them, one replicated head each when tp exceeds them (QKVParallelLinear).
func kvHeadsPerRank(c *config, tp int64) int64 {
	return max(c.kvHeads/tp, 1)
}

// rankWeights is one GPU's share of the weights vLLM loads: the column-
// and row-parallel layers and the vocabulary-parallel embedding and head
// split tp ways; the K and V projections split by heads, replicated when
// tp exceeds them. The replicated norms (under 0.1% of a model) are split
// with the rest.
func rankWeights(c *config, total, tp int64) int64 {
	if tp == 1 {
		return total
	}
	kv := c.layers * 2 * c.hidden * c.kvHeads * c.headDim * c.dt
	return (total-kv)/tp + kv/c.kvHeads*kvHeadsPerRank(c, tp)
}

package infer

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/memmodel"
	"github.com/vramkit/vramkit/internal/units"
)

// charge takes off the budget what the engine e charges besides the
// weights and the activation peak — the memory outside PyTorch, NCCL's
// communicators under tensor parallelism, the CUDA-graph estimate — and
// sets the KV cache with the range those parts span (serve_engine.go
// says which version charges what), and the process memory beyond it.
func (r *ServeResult) charge(c *config, e engine, tp int64, graphs bool) {
	var lo, hi int64 // the charged parts' range besides the sampler
	switch {
	case e.baseline():
		r.NonTorch, lo, hi = nonTorchGrowth, nonTorchGrowthLow, nonTorchGrowthHigh
		r.Process = r.Requested + c.gpu.ContextBytes
	default:
		r.NonTorch, lo, hi = c.gpu.ContextBytes, c.gpu.ContextBytes, c.gpu.ContextBytes
		r.Process = r.Requested
	}
	if c.dec.served != nil {
		r.Notes = append(r.Notes, "the mixture-of-experts layer is planned from vLLM's fused-MoE kernel (every expert's weights, each token's top-k rows of its caches): on three Qwen3-30B-A3B logs, one GPU -1.6% or +2.1%, tensor-parallel -11% (docs/inference.md)")
	}
	if tp > 1 {
		nccl, nlo, nhi := ncclCharged(c, tp)
		if !e.baseline() {
			nlo = nccl // everything on the device is charged
		}
		r.NonTorch += nccl
		lo, hi = lo+nlo, hi+nhi
		if nccl == 0 {
			r.Process += ncclBuffers
			r.Notes = append(r.Notes, fmt.Sprintf("tensor parallelism over PCIe: NCCL's buffers are next to nothing in the budget on the logs read (the band allows %s a GPU), each GPU holds about %s of them beyond it", units.Bytes(ncclBuffersHigh), units.Bytes(ncclBuffers)))
		} else {
			r.Notes = append(r.Notes, fmt.Sprintf("tensor parallelism over NVSwitch: vLLM's two NCCL communicators hold %s a GPU, charged to the budget (H100 logs; the band allows them outside it, as newer versions may take them)", units.Bytes(nccl)))
		}
	}
	switch {
	case graphs && e.graphsInBudget():
		r.CUDAGraphs = graphEstimate
		lo, hi = lo+graphEstimateLow, hi+graphEstimateHigh
	case graphs:
		r.Process += graphEstimate
		r.Notes = append(r.Notes, fmt.Sprintf("CUDA graphs (about %s for a dense model at the default capture sizes) are captured after the KV cache, beyond the budget: nvidia-smi shows them on top", units.Bytes(graphEstimate)))
	}
	free := r.Requested - r.Weights
	r.KVCache = free - r.Activation - r.NonTorch - r.CUDAGraphs
	r.KVCacheLow = free - r.ActivationHigh - hi - (r.WeightsHigh - r.Weights)
	r.KVCacheHigh = free - r.ActivationLow - lo + (r.Weights - r.WeightsLow)
	if !e.baseline() {
		// the V0 logs had 0.7-2.3% fewer blocks than computed; before 0.10
		// the band reaches at least that far down, the sampler's range on
		// top where V1 has one
		r.KVCacheLow = min(r.KVCacheLow, r.KVCache-r.KVCache/40)
	}
}

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
	if pp := int64(max(p.PP, 1)); p.GPUs > 1 && int64(p.GPUs) != tp*pp {
		return 0, specErr("parallel", "a serve plan is one vLLM instance: gpus (%d) must equal tp × pp (%d)", p.GPUs, tp*pp)
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
	if c.q != quantNone {
		kv = c.layers * 2 * c.q.bytes(c.hidden, c.kvHeads*c.headDim)
	}
	return (total-kv)/tp + kv/c.kvHeads*kvHeadsPerRank(c, tp)
}

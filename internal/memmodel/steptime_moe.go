package memmodel

// What a mixture-of-experts layer costs the host beyond the ops the graph
// records. transformers' experts forward (integrations/moe.py, 5.17)
// routes tokens with a dozen tensor-level calls the graph keeps only as
// the gather and scatter of their rows — zeros_like, arange and expand of
// the token index, two stable argsorts, the permuted gathers of expert
// ids, weights and states, a histc over float expert ids and its cumsum,
// the sentinel masks, the inverse permutation and index_add_ — and the
// autograd nodes of the differentiable ones. The H200 profiles count
// them: Mixtral (f) and Qwen2-MoE (g), six layers each, launch 317–364
// more pointwise kernels a step than the walk (testdata/dev20, dev21).
//
// Both constants are measured on host-bound steps (a 16-token batch,
// the GPU idle most of the step), as the gap between the measured step
// and the walk without them, on the lent hosts (testdata/dev7 host,
// dev21 timing: Mixtral (f) with 2, 4, 8 and 16 experts, Qwen2-MoE (f),
// each through _grouped_mm's fallback and its bfloat16 kernel, and under
// LoRA): with no fallback call the gap is 6.2–14.5 ms a step over six
// layers (mean 11.5, about 1.9 ms a layer), with the fallback's 36 calls
// 16.5–21.3 (mean 18.5: about 0.19 ms a call more; LoRA's 24 calls,
// 16.3 ms, sit on that line). They are stated here for the calibration
// host (divided by lentHostScale) and scale with the host's costs.
const (
	// moeRoutingHost is one MoE layer's routing, forward and backward,
	// on the calibration host.
	moeRoutingHost = 1.6e-3
	// moeRoutingFwdShare is the forward's part of it, rerun by a
	// checkpointed recomputation. The profiles do not split the host time
	// between the passes; the kernels split about evenly (argsorts and
	// gathers forward, the gathers' index_put and sort backward).
	moeRoutingFwdShare = 0.5
	// groupedFallbackHost is one _grouped_mm fallback call beyond its
	// sync and its per-expert mm dispatch, on the calibration host: the
	// offsets' pageable copy, the per-group narrow and select views.
	groupedFallbackHost = 0.16e-3
)

// hostScale is how much slower than the calibration host tm's host is,
// by its per-op cost.
func (tm *timeModel) hostScale() float64 {
	return tm.Op / CalibrationHostCosts().Op
}

// routingHost is the host seconds op o adds for its MoE layer's routing
// in the forward (bwd false, and in a recomputation) or the backward:
// nothing for every op but the one that stands for it (op.routing).
func (tm *timeModel) routingHost(o *op, bwd bool) float64 {
	if !o.routing {
		return 0
	}
	share := moeRoutingFwdShare
	if bwd {
		share = 1 - moeRoutingFwdShare
	}
	return share * moeRoutingHost * tm.hostScale()
}

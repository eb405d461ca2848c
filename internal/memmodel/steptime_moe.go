package memmodel

import (
	"fmt"
	"math"
)

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

// expertsNote says, for a step whose experts run through the fallback
// (d.GroupedSyncs > 0), what that costs and how to avoid it; "" otherwise.
func expertsNote(d *StepDetail) string {
	if d == nil || d.GroupedSyncs == 0 {
		return ""
	}
	return fmt.Sprintf("the MoE experts run in float32 under autocast (torch._grouped_mm has no autocast rule in torch 2.11): "+
		"its fallback synchronises with the GPU %d times a step and launches one GEMM per expert; with the model's weights in "+
		"bf16 (--precision bf16, as LoRA fine-tunes usually load them) they run as bf16 grouped GEMMs without syncs "+
		"(measured on an H200: a 6-layer, 4-expert Mixtral at s1024 b8, 47.5 ms a step against 132.1 ms, testdata/late18)", d.GroupedSyncs)
}

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

// groupedGEMM times torch._grouped_mm of rows x [n, in] against e
// experts' weights w [e, in, out] (a mixture-of-experts MLP): e GEMMs of
// n/e rows each (a balanced router), forward and backward (data and,
// unless frozen, weight gradients). The shape is recovered from the
// tensors: n·in = |x|, n·out = |y|, e·in·out = |w|.
//
// Outside bfloat16 (float32 experts under autocast: _grouped_mm has no
// autocast rule) torch 2.11 runs ATen's _grouped_mm_fallback: it copies
// the offsets to the host (offs.cpu(), a device sync) and calls mm_out
// once per expert, so each call is e ordinary GEMMs priced by the
// calibration as they are (groupedFallback). testdata/dev20's Mixtral (f)
// profile runs them as cuBLAS's float32 SIMT kernels at 267–271 µs for
// 2,048×1,024×4,096, the calibrated float32 rate: 43.1 ms of GEMM a step,
// where a 1.5x slowdown fitted on step totals (before the syncs were
// walked) had priced 63.2 ms. The bfloat16 path (bf16 weights) is one
// CUTLASS kernel per call, groupedSlowdown slower than e plain GEMMs
// (testdata/dev21's Mixtral (f) bf16-weights profile: 5.32 ms of GEMM
// against 5.23 priced so).
func (tm *timeModel) groupedGEMM(o *op, g *Graph) (fwd, dgrad, wgrad float64) {
	if len(o.in) < 2 || len(o.out) < 1 || o.flops == 0 {
		return tm.cubeGEMM(inDtype(o, g), o.flops), tm.cubeGEMM(inDtype(o, g), o.bwdFlops), 0
	}
	x, w := &g.tensors[o.in[0]], &g.tensors[o.in[1]]
	n, in, out, e := groupedShape(o, g)
	m := int64(math.Max(n/e, 1))
	d := calDtype(promote(x.dt, w.dt), false)
	r := tm.r
	slow := groupedSlowdown
	if groupedFallback(o, g) {
		slow = 1
	}
	one := func(mm, nn, kk int64) float64 { return math.Max(r.gemm(d, 1, mm, nn, kk), r.launch()) }
	fwd = slow * e * one(m, int64(out), int64(in))
	if x.grad {
		dgrad = slow * e * one(m, int64(in), int64(out))
	}
	if w.grad {
		wgrad = slow * e * one(int64(in), int64(out), m)
	}
	return fwd, dgrad, wgrad
}

// groupedSlowdown: see groupedGEMM.
const groupedSlowdown = 1.5

// groupedShape recovers grouped_mm op o's shape from its tensors: n rows
// of in features to out, over e experts (n·in = |x|, n·out = |y|,
// e·in·out = |w|).
func groupedShape(o *op, g *Graph) (n, in, out, e float64) {
	x, w, y := &g.tensors[o.in[0]], &g.tensors[o.in[1]], &g.tensors[o.out[0]]
	nio := o.flops / 2 // n·in·out
	in, out = nio/float64(y.numel), nio/float64(x.numel)
	return float64(x.numel) / in, in, out, math.Max(math.Round(float64(w.numel)/(in*out)), 1)
}

// groupedFallback reports whether grouped_mm op o runs through ATen's
// _grouped_mm_fallback (see groupedGEMM): every dtype but bfloat16. Each
// such call, forward and each gradient, synchronises with the GPU (the
// offsets' copy to the host) before it launches its e GEMMs: 36 device-
// to-host copies a step in dev20's six-layer Mixtral (f) profile (two
// forward and four backward calls a layer), 24 under LoRA (no weight
// gradients).
func groupedFallback(o *op, g *Graph) bool {
	if o.kind != "grouped_mm" || len(o.in) < 2 || len(o.out) < 1 || o.flops == 0 {
		return false
	}
	return promote(g.tensors[o.in[0]].dt, g.tensors[o.in[1]].dt) != BF16
}

// issueGrouped issues one fallback grouped_mm call of GPU time d: the
// host waits for the GPU (offs.cpu()), then dispatches e mm_out calls
// from C++ (HostCosts.Issue each) beside h, the call's own host cost, and
// the call's own bookkeeping (groupedFallbackHost).
func (tm *timeModel) issueGrouped(h, d, e float64, p *pipeline) {
	p.sync()
	p.groupedSyncs++
	p.issue(h+e*tm.Issue+groupedFallbackHost*tm.hostScale(), d, kGEMM, e)
}

// issueGroupedBackward issues a fallback grouped_mm's backward node: each
// gradient (data, and weight unless frozen) is a fallback call of its
// own, a sync and e GEMMs; the node's dispatch h is split between them.
func (tm *timeModel) issueGroupedBackward(o *op, g *Graph, h float64, p *pipeline) {
	_, dg, wg := tm.groupedGEMM(o, g)
	_, _, _, e := groupedShape(o, g)
	calls := boolN(dg > 0) + boolN(wg > 0)
	for _, d := range []float64{dg, wg} {
		if d > 0 {
			tm.issueGrouped(h/calls, d, e, p)
		}
	}
}

package memmodel

// The autograd engine runs a node for every differentiable operation of
// the forward, kernel or not. The walk charges HostCosts.Bwd for the ops
// the graph records (each launches its gradient kernels), but the graph
// does not record the cheap operations a Linear and a parameter leave in
// the autograd graph, and each of them is a node the engine's device
// thread still has to run (torch/csrc/autograd/engine.cpp,
// evaluate_function: take the node from the ready queue, run its pre-
// and post-hooks, call it, validate its outputs' metadata, add each
// output to the next node's input buffer, decrement dependencies):
//   - TBackward0 of weight.t(): F.linear multiplies by the weight's
//     transpose (at::linear: addmm(bias, input, weight.t())), one node per
//     Linear whose weight requires grad, a transpose of the gradient;
//   - the views of a Linear over more than two dimensions: ATen flattens
//     the input to rows and views the product back
//     (_flatten_nd_linear, or matmul's fold: reshape, mm, _unsafe_view),
//     two ViewBackward0/UnsafeViewBackward0 nodes, a reshape each;
//   - AccumulateGrad of every trainable parameter: on the first
//     micro-step it steals the incoming gradient into .grad (no kernel);
//     on later ones it adds (the walk charges that add's dispatch and
//     kernel on top, see walk).
//
// None launches a kernel; each costs HostCosts.Node, the engine's
// per-node overhead plus one dispatcher call for the view or transpose.
// Until round 17 none was charged, and the host-bound plain steps of the
// lent hosts were 13–40% short, the shortfall growing with the Linears and
// parameters (testdata/dev7/host, dev8/host, dev9/host).

// linearNodes is how many kernel-less autograd nodes Linear op o adds
// to the backward beyond its own AddmmBackward0 / MmBackward0: the
// weight transpose's, when the weight trains, and the two views of an
// input of more than two dimensions (rows that are not just the batch:
// a sequence, patches).
func linearNodes(o *op, g *Graph, batch int64) float64 {
	if o.kind != "linear" || o.gemm == nil {
		return 0
	}
	var n float64
	if o.gemm.wgrad {
		n++
	}
	if o.gemm.m != batch {
		n += 2
	}
	return n
}

// accumulateGrad charges the AccumulateGrad node of every trainable
// parameter among op o's inputs, once per backward (the engine sums a
// parameter's several gradients in its input buffer first), marking it
// in seen.
func (tm *timeModel) accumulateGrad(o *op, g *Graph, seen map[Tensor]bool, p *pipeline) {
	for _, t := range o.in {
		if x := &g.tensors[t]; x.grad && x.param >= 0 && !seen[t] {
			seen[t] = true
			p.issue(tm.Node, 0, kPointwise, 0)
		}
	}
}

// engineNodeCost is HostCosts.Node on the calibration machine's host: a
// kernel-less node is the engine's bookkeeping and one dispatcher call
// that makes a view (grad mode is off in backward, so no autograd
// metadata), about half of what Small, a dispatcher call from Python that
// launches a kernel, costs there (6.3 µs). The host-bound plain steps of
// the lent hosts ask for more: a least-squares fit of their shortfall to
// the nodes' count gives 14-18 µs a node on dev9's host (probe loop 35 ns;
// ViT-B/16, Whisper, Qwen2.5-0.5B at batch 1; the SD 1.5 UNet, already
// over, pulls it to 5) and about 30 on dev7's and dev8's (51-55 ns),
// more than a node's bookkeeping can be: the rest of their shortfall is
// the hosts being slower than the calibration machine's, whose timings
// (development, held out) already sit within a few percent and grow over
// from 5 µs on (the held-out max |err| 12.6% -> 16.6%, development
// 23.1% -> 26.2%). 3 µs keeps the calibration host's figures and moves
// the lent hosts' plain steps part of the way (bench/steptime).
const engineNodeCost = 3e-6

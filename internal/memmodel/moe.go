package memmodel

// The sparse mixture-of-experts MLP of transformers' Mixtral, Qwen2-MoE
// and Qwen3-MoE (v5, experts stored as one 3-D gate_up_proj and one 3-D
// down_proj parameter, all resident on every rank). Per token the router
// picks TopK experts; the experts then run on the T·TopK (token, expert)
// rows. Whether the rows are processed one expert at a time (the eager
// loop) or in one grouped GEMM, autograd ends up holding the same tensors
// for backward, summed over experts:
//
//   - the gathered rows cast to the compute dtype (saved by gate_up),
//   - the gate_up output (its gate half saved by the activation, its up
//     half by the product), the activation output and the product (saved
//     by down_proj),
//   - down_proj's output (saved by the product with the routing weights,
//     which are float32, so that product is float32 too),
//   - under autocast, the compute-dtype copies of every hit expert's
//     weights (saved by the expert matmuls for the input gradient).
//
// The weighted rows are summed back into a zero tensor of the hidden
// size with index_add_; backward gathers the gradient rows again.

// moeBlock is one sparse MoE MLP over tokens rows of y.
func (b *builder) moeBlock(y Tensor, a *Arch, tokens int64) Tensor {
	m := a.MoE
	d, e, k, ff := int64(a.Hidden), int64(m.Experts), int64(max(m.TopK, 1)), int64(m.FFN)
	// router: logits in the compute dtype, softmax in float32, top-k
	logits := b.linear(y, d, e, false, "gate")
	p := b.unary("softmax", b.cast(logits, F32), F32, false, true)
	w := b.out(tokens*k, F32, p)
	idx := b.g.newTensor(tokens*k, I64, false)
	b.op("topk", []Tensor{p}, []Tensor{w, idx}, []Tensor{idx})
	w = b.unary("div", w, F32, true, true) // renormalised top-k weights
	rows := tokens * k
	x := b.out(rows*d, b.dt(y), y)
	b.op("index", []Tensor{y, idx}, []Tensor{x}, []Tensor{idx})
	wgu := b.param(e * 2 * ff * d)
	wd := b.param(e * d * ff)
	gu := b.linearWith(x, wgu, -1, d, 2*ff)
	g, u := b.view(gu, rows*ff), b.view(gu, rows*ff)
	h := b.mul(b.activation(a.Decoder.Act, g), u)
	h = b.linearWith(h, wd, -1, ff, d)
	h = b.mul(h, w)
	out := b.out(tokens*d, b.dt(y), h)
	o := b.op("index_add", []Tensor{h, idx}, []Tensor{out}, nil)
	o.fwdTemp = []int64{tokens * d * b.dt(y).Size()} // zeros_like before index_add_
	if m.SharedFFN > 0 {
		s := b.gatedMLP(y, d, int64(m.SharedFFN), &a.Decoder)
		if m.SharedGate {
			gt := b.unary("sigmoid", b.linear(y, d, 1, false, "shared_expert_gate"), b.dt(y), false, true)
			s = b.mul(gt, s)
		}
		out = b.add(out, s)
	}
	return out
}

// auxLoss is load_balancing_loss_func over every layer's router logits
// (output_router_logits): concatenated, softmax in float32, top-k, a
// one-hot int64 mask of layers·tokens·top_k·experts and its float mean.
func (b *builder) auxLoss(a *Arch, tokens int64) {
	n := int64(a.Layers) * tokens
	e, k := int64(a.MoE.Experts), int64(max(a.MoE.TopK, 1))
	cat := b.g.newTensor(n*e, F32, false)
	o := b.op("cat", nil, []Tensor{cat}, nil)
	o.noBackward = true
	o.fwdTemp = []int64{n * e * 4, n * k * e * 8, n * k * e * 4}
}

package memmodel

// The sparse mixture-of-experts MLP of transformers' Mixtral, Qwen2-MoE
// and Qwen3-MoE (v5: experts stored as one 3-D gate_up_proj and one 3-D
// down_proj parameter, all resident on every rank), run by the default
// experts implementation, grouped_mm (integrations/moe.py), as the H200
// snapshots of Mixtral and Qwen2-MoE (transformers 5.17) show it:
//
//   - the router (an autocast linear) picks TopK experts per token; the
//     T·TopK (token, expert) rows are gathered, sorted by expert;
//   - torch._grouped_mm has no autocast rule, so the experts run in the
//     hidden dtype, float32 under bf16 autocast: no weight casts, and
//     every expert activation is float32;
//   - gate_up and down outputs are each copied once more by a
//     masked_fill that zeroes sentinel rows; the masked copies are what
//     the activation and the routing-weight product save;
//   - saved per layer: the gathered rows (for the weight gradient), the
//     masked gate_up output (its halves saved by the activation and the
//     product), the activation and the product (saved by down), the
//     masked down output (saved by the product with the float32 routing
//     weights); the weighted rows are unsorted and summed per token.

// moeBlock is one sparse MoE MLP over tokens rows of y.
func (b *builder) moeBlock(y Tensor, a *Arch, tokens int64) Tensor {
	m := a.MoE
	d, e, k, ff := int64(a.Hidden), int64(m.Experts), int64(max(m.TopK, 1)), int64(m.FFN)
	// the shared expert runs before the router, its gate after the routed
	// experts (Qwen2MoeSparseMoeBlock.forward: the H200 trace allocates
	// the shared MLP's activations first, then the router's, then
	// shared_expert_gate's)
	var shared Tensor = -1
	if m.SharedFFN > 0 {
		shared = b.gatedMLP(y, d, int64(m.SharedFFN), &a.Decoder)
	}
	// router: logits in the compute dtype, softmax in float32, top-k
	logits := b.linear(y, d, e, false, "gate")
	p := b.unary("softmax", b.cast(logits, F32), F32, false, true)
	w := b.out(tokens*k, F32, p)
	idx := b.g.newTensor(tokens*k, I64, false)
	b.op("topk", []Tensor{p}, []Tensor{w, idx}, []Tensor{idx})
	w = b.unary("div", w, F32, true, true) // renormalised top-k weights
	rows := tokens * k
	x := b.out(rows*d, b.dt(y), y)
	b.op("index", []Tensor{y, idx}, []Tensor{x}, []Tensor{idx}).routing = true
	wgu := b.param(e * 2 * ff * d)
	wd := b.param(e * d * ff)
	gu := b.maskedFill(b.groupedMM(x, wgu, d, 2*ff))
	g, u := b.view(gu, rows*ff), b.view(gu, rows*ff)
	h := b.mul(b.activation(a.Decoder.Act, g), u)
	h = b.maskedFill(b.groupedMM(h, wd, ff, d))
	h = b.mul(h, w)
	hp := b.out(rows*d, b.dt(h), h) // [inv_perm]: back to token order
	b.op("index", []Tensor{h, idx}, []Tensor{hp}, []Tensor{idx})
	out := b.out(tokens*d, b.dt(y), hp) // view(tokens, k, d).sum(1)
	b.op("sum", []Tensor{hp}, []Tensor{out}, nil)
	if shared >= 0 {
		s := shared
		if m.SharedGate {
			gt := b.unary("sigmoid", b.linear(y, d, 1, false, "shared_expert_gate"), b.dt(y), false, true)
			s = b.mul(gt, s)
		}
		out = b.add(out, s)
	}
	return out
}

// groupedMM is torch._grouped_mm of rows of x (in features each) with
// the experts' stacked weights w: no autocast cast, so the product runs
// in x's dtype; it saves x for the weight gradient.
func (b *builder) groupedMM(x, w Tensor, in, outF int64) Tensor {
	n := b.numel(x) / in
	dt := promote(b.dt(x), b.dt(w))
	y := b.out(n*outF, dt, x, w)
	var save []Tensor
	if b.rg(w) {
		save = append(save, x)
	}
	o := b.op("grouped_mm", []Tensor{x, w}, []Tensor{y}, save)
	o.flops = 2 * float64(n*in*outF)
	o.bwdFlops = 2 * o.flops
	o.matmul = true
	return y
}

// maskedFill is an out-of-place masked_fill: a copy whose gradient is
// the incoming one with the masked rows zeroed.
func (b *builder) maskedFill(x Tensor) Tensor {
	y := b.out(b.numel(x), b.dt(x), x)
	b.op("masked_fill", []Tensor{x}, []Tensor{y}, nil)
	return y
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

package memmodel

import "strconv"

// gatedMLP is down(act(gate(x)) · up(x)), with gate and up fused into one
// projection whose halves are views (Phi-3) or separate.
func (b *builder) gatedMLP(y Tensor, d, ff int64, q *DecoderQuirks) Tensor {
	var g, u Tensor
	if q.FusedGateUp {
		gu := b.linear(y, d, 2*ff, false, "gate_up_proj")
		n := b.numel(gu) / 2
		g, u = b.view(gu, n), b.view(gu, n)
		g = b.activation(q.Act, g)
	} else {
		// act_fn(gate_proj(x)) * up_proj(x): Python evaluates the
		// activation before the up projection
		g = b.activation(q.Act, b.linear(y, d, ff, false, "gate_proj"))
		u = b.linear(y, d, ff, false, "up_proj")
	}
	out := b.linear(b.mul(g, u), ff, d, false, "down_proj")
	b.keep(y) // the module's argument, until forward returns
	return out
}

// decoderMLP is the family's MLP: gated (LLaMA) or plain (GPT-NeoX, Phi).
func (b *builder) decoderMLP(y Tensor, d, ff int64, q *DecoderQuirks) Tensor {
	if q.PlainMLP {
		return b.plainMLP(y, d, ff, q)
	}
	return b.gatedMLP(y, d, ff, q)
}

// plainMLP is down(act(up(x))) with the family's biases (GPTNeoXMLP,
// Phi's CLIPMLP): up's output stays bound to the forward's local until
// the activation returns, the activation's until down's output exists.
func (b *builder) plainMLP(y Tensor, d, ff int64, q *DecoderQuirks) Tensor {
	up := b.linear(y, d, ff, q.Bias, q.name("up", "up_proj"))
	act := b.activation(q.Act, up)
	b.keep(up)
	out := b.linear(act, ff, d, q.Bias, q.name("down", "down_proj"))
	b.keep(act, y)
	return out
}

// parallelMLP finishes a parallel layer (DecoderQuirks.Parallel) whose
// attention output att (dropout applied) was computed from y, the
// normalised layer input h: the MLP reads h normalised again
// ("two-norm", GPT-NeoX's post_attention_layernorm) or y itself
// ("one-norm", Phi), and the MLP's output, att and h are summed (GPT-NeoX
// mlp_output + attn_output + hidden_states, Phi attn_outputs +
// feed_forward_hidden_states + residual: two adds).
func (b *builder) parallelMLP(h, y, att Tensor, a *Arch) Tensor {
	q := &a.Decoder
	d := int64(a.Hidden)
	b.module = layerModule(b.block, "mlp")
	if q.Parallel == "two-norm" {
		y = b.decoderNorm(q.Norm, h, d)
	}
	m := b.dropout(b.decoderMLP(y, d, int64(a.FFN), q), a.Dropout)
	return b.add(b.add(m, att), h)
}

// noGradSaves empties the saved tensors of the ops recorded since op
// from that read nothing requiring grad: autograd records no node for
// them. A parallel block (GPT-NeoX, Phi) reads the layer's input in both
// branches, which in the first layer under LoRA is the frozen
// embedding's output: dev77's Pythia-1b LoRA trace frees that layer's
// norm inputs and its MLP's dense_h_to_4h output as soon as their last
// reader is done, where the replay kept them to the backward (+0.55%
// allocated). Applied to the parallel families' layers, where a whole
// branch runs without grad; elsewhere only a first norm's internals are
// concerned, and dropping them in every family moved the replayed
// placement of Mixtral LoRA by +9% reserved and of SD 1.5 LoRA by -1.7%
// without a snapshot to tell which is right: left as before there.
func (b *builder) noGradSaves(from int) {
	for i := from; i < len(b.g.ops); i++ {
		o := &b.g.ops[i]
		grad := false
		for _, t := range o.in {
			grad = grad || b.rg(t)
		}
		if !grad {
			o.save = nil
		}
	}
}

// partialRope is GPT-NeoX's and Phi's rotary embedding of the first rd of
// each head's hd dimensions, for q (heads) and k (kvh heads) over tokens
// rows: q_rot = q[..., :rd], a view, turns as LLaMA's query does
// (q_rot·cos + rotate_half(q_rot)·sin), k_rot likewise, and only then
// torch.cat((q_embed, q[..., rd:])) and k's make the full-width query and
// key anew, in the promoted dtype of the two (float32 under autocast,
// where cos and sin are float32): dev77's GPT-NeoX traces allocate both
// rotations before either concatenation.
func (b *builder) partialRope(q, k, cos, sin Tensor, tokens, heads, kvh, rd, hd int64) (Tensor, Tensor) {
	turn := func(x Tensor, n int64) Tensor {
		xr := b.slice(x, n)
		xc := b.mul(xr, cos)
		rot := b.rotateHalf(xr, n)
		return b.add(xc, b.mul(rot, sin))
	}
	cat := func(x, e Tensor, rows int64) Tensor {
		pass := b.slice(x, rows*(hd-rd))
		y := b.out(rows*hd, promote(b.dt(e), b.dt(pass)), e, pass)
		o := b.op("cat", []Tensor{e, pass}, []Tensor{y}, nil)
		o.passGrad, o.narrowGrad = []bool{true, true}, true
		return y
	}
	qe, ke := turn(q, tokens*heads*rd), turn(k, tokens*kvh*rd)
	return cat(q, qe, tokens*heads), cat(k, ke, tokens*kvh)
}

// activation is the MLP's activation function: one kernel (SiLU,
// "gelu", "gelu_tanh") or "gelu_new", NewGELUActivation's Python ops.
func (b *builder) activation(kind string, x Tensor) Tensor {
	switch kind {
	case "gelu_tanh":
		return b.unary("gelu_tanh", x, b.dt(x), true, false)
	case "gelu":
		return b.gelu(x)
	case "gelu_new":
		return b.geluTanhPy(x)
	case "relu":
		// ReLU's backward reads its output, which the next linear saves too
		return b.unary("relu", x, b.dt(x), false, true)
	}
	return b.silu(x)
}

// decoderNorm is the family's block norm over rows of width dim.
func (b *builder) decoderNorm(kind string, x Tensor, dim int64) Tensor {
	var y Tensor
	switch kind {
	case "f32w", "f32w1p":
		y = b.rmsNormF32(x, dim, kind == "f32w1p")
	case "ln":
		y = b.layerNormPlain(x, dim)
	case "lnb":
		y = b.layerNorm(x, dim, true)
	default:
		y = b.rmsNorm(x, dim)
	}
	b.keep(x) // the module's argument, until forward returns
	return y
}

// rmsNormF32 is an RMSNorm that applies its weight in float32 and casts
// the product back (Olmo2RMSNorm; Gemma's weight·(1+w) with onePlus): the
// float32 normalised value is what the weight's gradient saves, twice the
// bytes of LLaMA's cast-back value under pure bf16.
func (b *builder) rmsNormF32(x Tensor, dim int64, onePlus bool) Tensor {
	w, h, in := b.rmsNormalize(x, dim)
	wf := b.cast(w, F32)
	if onePlus {
		wf = b.unary("add_scalar", wf, F32, false, false)
	}
	y := b.cast(b.mul(h, wf), in)
	if !onePlus {
		// Olmo2RMSNorm binds the normalised value to a local that lives
		// until it returns; Gemma's _norm returns it as a temporary
		b.keep(h)
	}
	return y
}

// layerNormPlain is OLMo's LayerNorm without weight or bias, run in
// float32 and cast back.
func (b *builder) layerNormPlain(x Tensor, dim int64) Tensor {
	in := b.dt(x)
	xc := b.cast(x, F32)
	rows := b.numel(x) / dim
	y := b.out(b.numel(x), F32, xc)
	mean := b.g.newTensor(rows, F32, false)
	rstd := b.g.newTensor(rows, F32, false)
	o := b.op("layer_norm", []Tensor{xc}, []Tensor{y, mean, rstd}, []Tensor{xc, mean, rstd})
	o.flops, o.bwdFlops = 5*float64(b.numel(x)), 8*float64(b.numel(x))
	return b.cast(y, in)
}

// rotateHalf is transformers' rotate_half, cat((-x2, x1), -1) of x's n
// elements: the negated half is a temporary the cat copies from, and in
// backward cat hands out narrowed views of its gradient, neg allocates a
// half-size gradient and each slice's backward (x1, x2 of x) a zero-filled
// gradient of x's size, the second added into the first.
func (b *builder) rotateHalf(x Tensor, n int64) Tensor {
	if b.tt(x).base != x {
		// x is itself a view (a fused projection's slice): its slices'
		// gradients are x-sized, which the view chain cannot express, so
		// the cat is a plain copy
		rot := b.copy(x)
		b.tt(rot).numel = n
		o := &b.g.ops[len(b.g.ops)-1]
		o.viewGrads, o.viewAdds = 2, 2 // x1 and x2, each added into x's gradient
		// the -x2 the copy stands in for still launches its neg, in
		// forward (and recomputation) and in backward (NegBackward):
		// without them Phi-3's walk ran two pointwise kernels per layer
		// fewer each way than the LLaMA-style path's neg op
		half := 2 * float64(n/2*b.dt(x).Size())
		for _, bwd := range []bool{false, true} {
			o.extra = append(o.extra, extraKernel{bwd: bwd, class: kPointwise, stream: streamOp("neg", 1), dt: b.dt(x), bytes: half, slowdown: 1, call: true})
		}
		return rot
	}
	x1, x2 := b.slice(x, n/2), b.slice(x, n/2)
	ng := b.unary("neg", x2, b.dt(x), false, false)
	rot := b.out(n, b.dt(x), ng, x1)
	o := b.op("cat", []Tensor{ng, x1}, []Tensor{rot}, nil)
	o.passGrad, o.narrowGrad = []bool{true, true}, true
	return rot
}

// headsGradCopy records that projection output y is used as
// .view(b, s, h, d).transpose(1, 2): its gradient arrives laid out as
// [b, h, s, d] and ViewBackward's reshape copies it to [b·s, h·d] before
// the linear's backward, which frees the copy once the input gradient
// exists. The Gemma 2/3 and Mixtral snapshots show one such q-, k- or
// v-sized request per projection per layer backward. A LoRA-wrapped
// projection (y made by the adapter's add or its cast back) gets the same
// copy, made when autograd reaches the view, just before the adapter's
// backward, which frees the incoming gradient at once (the dev8 Qwen3 and
// Qwen2.5 LoRA snapshots: one q-, k- or v-sized request per adapted
// projection per layer backward, the q copy after k's and v's backward).
func (b *builder) headsGradCopy(y Tensor) Tensor {
	o := &b.g.ops[len(b.g.ops)-1]
	if len(o.out) != 1 || o.out[0] != y || !b.rg(y) {
		return y
	}
	if o.kind != "linear" {
		if !o.light {
			return y
		}
		o.gradCopy = true
		return y
	}
	if len(o.inTemp) < len(o.in) {
		o.inTemp = append(o.inTemp, make([]int64, len(o.in)-len(o.inTemp))...)
	}
	o.inTemp[0] = b.numel(y) * b.dt(y).Size()
	return y
}

// view is a view of numel elements of x's storage (a chunk, a reshape).
func (b *builder) view(x Tensor, numel int64) Tensor {
	y := b.alias(x)
	b.tt(y).numel = numel
	return y
}

// slice is a view of numel elements of x cut out by indexing.
func (b *builder) slice(x Tensor, numel int64) Tensor {
	y := b.view(x, numel)
	b.tt(y).slice = true
	return y
}

// itoa is strconv.Itoa, short for module names.
func itoa(n int) string { return strconv.Itoa(n) }

// layerModule names a decoder layer's submodule for --by-module.
func layerModule(l int, name string) string {
	return "layers." + strconv.Itoa(l) + "." + name
}

package memmodel

// The builder's pointwise, normalisation and reduction ops: what each
// saves for backward and in which dtype autocast runs it.

// unary is an elementwise op with one input; saveIn/saveOut say what its
// derivative needs.
func (b *builder) unary(kind string, x Tensor, dt DType, saveIn, saveOut bool) Tensor {
	y := b.out(b.numel(x), dt, x)
	var save []Tensor
	if saveIn {
		save = append(save, x)
	}
	if saveOut {
		save = append(save, y)
	}
	o := b.op(kind, []Tensor{x}, []Tensor{y}, save)
	o.flops = float64(b.numel(x))
	o.bwdFlops = 2 * o.flops
	return y
}

// pow raises x to a constant power. Its backward, PyTorch's pow_backward,
// evaluates grad·(e·x^(e−1)) as written: x^(e−1) and e·x^(e−1) are two
// temporaries of x's size that stay allocated until the product (the
// input's gradient) exists, so three x-sized blocks are live at once on
// top of the incoming gradient (RMSNorm's x², GELU-tanh's x³).
func (b *builder) pow(x Tensor) Tensor {
	y := b.unary("pow", x, b.dt(x), true, false)
	n := b.tt(x).bytes()
	b.g.ops[len(b.g.ops)-1].bwdHeld = []int64{n, n}
	return y
}

// scale multiplies by a Python scalar (saves nothing).
func (b *builder) scale(x Tensor) Tensor { return b.unary("mul_scalar", x, b.dt(x), false, false) }

// add is a + b with type promotion; its gradient is passed through.
func (b *builder) add(x, y Tensor) Tensor {
	dt := promote(b.dt(x), b.dt(y))
	n := b.numel(x)
	if b.numel(y) > n {
		n = b.numel(y)
	}
	z := b.out(n, dt, x, y)
	o := b.op("add", []Tensor{x, y}, []Tensor{z}, nil)
	o.passGrad = []bool{b.numel(x) == n, b.numel(y) == n}
	o.flops = float64(n)
	return z
}

// mul is a * b (both saved when both need grad).
func (b *builder) mul(x, y Tensor) Tensor {
	dt := promote(b.dt(x), b.dt(y))
	n := b.numel(x)
	if b.numel(y) > n {
		n = b.numel(y)
	}
	z := b.out(n, dt, x, y)
	var save []Tensor
	if b.rg(y) {
		save = append(save, x)
	}
	if b.rg(x) {
		save = append(save, y)
	}
	o := b.op("mul", []Tensor{x, y}, []Tensor{z}, save)
	o.flops, o.bwdFlops = float64(n), 2*float64(n)
	// grad·other is computed at the output's size and dtype: an input
	// that was broadcast (RMSNorm's rsqrt row, a norm weight) gets it
	// summed down, one of a narrower dtype (bf16 times a float32 weight)
	// gets it cast; either way the full product is a temporary first
	for j, t := range o.in {
		if b.rg(t) && (b.numel(t) < n || b.dt(t) != dt) {
			if o.inTemp == nil {
				o.inTemp = make([]int64, 2)
			}
			o.inTemp[j] = n * dt.Size()
		}
	}
	return z
}

// copy materialises a tensor (.contiguous(), cat).
func (b *builder) copy(x Tensor) Tensor {
	y := b.out(b.numel(x), b.dt(x), x)
	o := b.op("copy", []Tensor{x}, []Tensor{y}, nil)
	o.passGrad = []bool{true}
	return y
}

// dropout is nn.Dropout in training mode; p == 0 returns x untouched.
func (b *builder) dropout(x Tensor, p float64) Tensor {
	if p <= 0 {
		return x
	}
	y := b.out(b.numel(x), b.dt(x), x)
	mask := b.g.newTensor(b.numel(x), U8, false)
	o := b.op("dropout", []Tensor{x}, []Tensor{mask, y}, []Tensor{mask})
	o.flops = float64(b.numel(x))
	return y
}

// layerNorm normalises rows of width dim (float32 under autocast).
func (b *builder) layerNorm(x Tensor, dim int64, bias bool) Tensor {
	w := b.param(dim)
	ins := []Tensor{b.fp32(x), w}
	if bias {
		ins = append(ins, b.param(dim))
	}
	xc := ins[0]
	dt := b.dt(xc)
	rows := b.numel(x) / dim
	y := b.out(b.numel(x), dt, xc, w)
	mean := b.g.newTensor(rows, F32, false)
	rstd := b.g.newTensor(rows, F32, false)
	o := b.op("layer_norm", ins, []Tensor{y, mean, rstd}, []Tensor{xc, mean, rstd})
	o.flops, o.bwdFlops = 5*float64(b.numel(x)), 8*float64(b.numel(x))
	return y
}

// rmsNorm is the Hugging Face LlamaRMSNorm / T5LayerNorm: computed in float32
// by explicit casts, scaled by the weight.
func (b *builder) rmsNorm(x Tensor, dim int64) Tensor {
	w, h, in := b.rmsNormalize(x, dim)
	y := b.mul(w, b.cast(h, in))
	b.keep(h) // a local of forward until it returns
	return y
}

// rmsNormalize creates an RMSNorm's weight w (dim elements) and computes
// x's normalised value h in float32 (cast, x², mean, + eps, rsqrt,
// product), as
// every Hugging Face RMSNorm does before applying its weight; in is x's
// dtype, which the norm's output is cast back to.
func (b *builder) rmsNormalize(x Tensor, dim int64) (w, h Tensor, in DType) {
	w = b.param(dim)
	in = b.dt(x)
	h = b.cast(x, F32)
	v := b.reduce(b.pow(h), b.numel(x)/dim)
	r := b.unary("rsqrt", v, F32, false, true)
	o := &b.g.ops[len(b.g.ops)-1]
	o.extra = append(o.extra, epsAdd(b.numel(v)))
	return w, b.mul(h, r), in
}

// reduce sums/averages x down to n elements.
func (b *builder) reduce(x Tensor, n int64) Tensor {
	y := b.out(n, b.dt(x), x)
	o := b.op("mean", []Tensor{x}, []Tensor{y}, nil)
	o.flops = float64(b.numel(x))
	return y
}

// softmax over the last dimension (float32 under autocast), saving its output.
func (b *builder) softmax(x Tensor) Tensor {
	xc := b.fp32(x)
	return b.unary("softmax", xc, b.dt(xc), false, true)
}

// gelu is the exact (erf) GELU as one kernel.
func (b *builder) gelu(x Tensor) Tensor { return b.unary("gelu", x, b.dt(x), true, false) }

// silu as one kernel.
func (b *builder) silu(x Tensor) Tensor { return b.unary("silu", x, b.dt(x), true, false) }

// geluTanhPy is GPT-2's NewGELUActivation, written in Python as eight ops:
// 0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x^3))). pow runs in float32 under autocast.
func (b *builder) geluTanhPy(x Tensor) Tensor {
	half := b.scale(x)
	xp := b.fp32(x)
	p := b.pow(xp)
	p = b.scale(p)
	s := b.add(x, p)
	s = b.scale(s)
	t := b.unary("tanh", s, b.dt(s), false, true)
	t = b.unary("add_scalar", t, b.dt(t), false, false)
	return b.mul(half, t)
}

// crossEntropy is F.cross_entropy over rows of width classes: log_softmax
// in the logits' dtype (its output saved), then nll_loss, which autocast
// runs in float32 and which saves its input. Half logits are thus kept
// twice until backward: once as half log-probabilities, once cast to
// float32 (T5-small bf16 snapshot: 526 MB then 1,053 MB). Returns the
// scalar loss.
func (b *builder) crossEntropy(logits Tensor, classes int64) Tensor {
	lp := b.unary("log_softmax", logits, b.dt(logits), false, true)
	x := b.fp32(lp)
	rows := b.numel(logits) / classes
	loss := b.out(1, b.dt(x), x)
	tw := b.g.newTensor(1, b.dt(x), false)
	o := b.op("nll_loss", []Tensor{x}, []Tensor{loss, tw}, []Tensor{x, tw})
	o.flops = float64(rows)
	return loss
}

// embedding looks rows up in a (vocab × dim) weight.
func (b *builder) embedding(ids Tensor, w Tensor, vocab, dim int64) Tensor {
	n := b.numel(ids)
	y := b.out(n*dim, b.dt(w), w)
	if b.inputGrad {
		if !b.hasInputEmb {
			b.inputEmb, b.hasInputEmb = w, true
		}
		if w == b.inputEmb {
			b.tt(y).grad = true
			b.g.leafHeld = append(b.g.leafHeld, y)
		}
	}
	o := b.op("embedding", []Tensor{ids, w}, []Tensor{y}, []Tensor{ids})
	o.bytes = float64(n * dim * b.dt(w).Size() * 2)
	// embedding_dense_backward sorts the indices and counts them
	o.bwdTemp = []int64{n * 8, n * 8, n * 8, vocab * 8}
	return y
}

package memmodel

import "strings"

// builder records ops into a Graph the way eager PyTorch under autocast
// would run them: it inserts the casts autocast inserts, caches the casts
// of parameters for the forward pass, and knows what each op saves.
type builder struct {
	g      *Graph
	amp    DType // autocast dtype; F32 when autocast is off
	pdt    DType // parameter dtype (bf16 for pure-bf16 training)
	cache  map[Tensor]Tensor
	block  int
	frozen bool // parameters created now are frozen (LoRA base weights)
	lora   *LoRA
	sel    bool // ops created now are attention internals (selective checkpointing)
	// workspace scales the cuDNN/cuBLAS scratch estimate.
	workspace float64
	// ctaLimit is how many CTAs one reduction launches at most (a
	// resident grid of the GPU); 0 for no limit.
	ctaLimit int64
	// attn is the attention implementation: sdpa | eager | flash |
	// mem_efficient | math (see attend).
	attn string
	// module names the module ops and parameters are recorded for.
	module string
	// quant4 stores frozen linear weights in 4 bits (QLoRA) and
	// dequantises them around every use.
	quant4 bool
	// lowRank factorises every projection W (in×out) into two of rank
	// lowRank when that is smaller.
	lowRank int64
	// compiled records the step as torch.compile's partitioner saves it
	// (see compile.go).
	compiled bool
}

func newBuilder(amp, pdt DType) *builder {
	return &builder{g: &Graph{selective: map[int]bool{}}, amp: amp, pdt: pdt,
		cache: map[Tensor]Tensor{}, block: -1, workspace: 1}
}

func (b *builder) tt(x Tensor) *tensor  { return b.g.t(x) }
func (b *builder) numel(x Tensor) int64 { return b.g.t(x).numel }
func (b *builder) dt(x Tensor) DType    { return b.g.t(x).dt }
func (b *builder) rg(x Tensor) bool     { return b.g.t(x).grad }

// param creates a parameter of numel elements.
func (b *builder) param(numel int64) Tensor {
	trainable := !b.frozen
	x := b.g.newTensor(numel, b.pdt, trainable)
	b.tt(x).param = len(b.g.params)
	b.g.params = append(b.g.params, paramInfo{t: x, numel: numel, dt: b.pdt, trainable: trainable, shard: 1, module: b.module})
	return x
}

// buffer registers a non-trainable module buffer (e.g. BatchNorm running stats).
func (b *builder) buffer(bytes int64) { b.g.buffers = append(b.g.buffers, bytes) }

// input creates a data input of the step.
func (b *builder) input(numel int64, dt DType) Tensor {
	x := b.g.newTensor(numel, dt, false)
	b.tt(x).input = true
	b.g.inputs = append(b.g.inputs, x)
	return x
}

// op records an op. outs are fresh tensors the caller created with out().
func (b *builder) op(kind string, in []Tensor, out []Tensor, save []Tensor) *op {
	b.g.ops = append(b.g.ops, op{kind: kind, in: in, out: out, save: save, block: b.block, module: b.module})
	o := &b.g.ops[len(b.g.ops)-1]
	if b.sel && b.block >= 0 {
		b.g.selective[len(b.g.ops)-1] = true
	}
	var traffic int64
	for _, t := range in {
		traffic += b.tt(t).bytes()
	}
	for _, t := range out {
		traffic += b.tt(t).bytes()
	}
	o.bytes = float64(traffic)
	return o
}

// keep records that Python references the storage of each of ts until
// the op recorded last (a module's argument until the module returns, a
// named local until its function returns): it is not freed before then
// even when no op reads it any more.
func (b *builder) keep(ts ...Tensor) {
	now := len(b.g.ops) - 1
	for _, t := range ts {
		if t < 0 {
			continue
		}
		base := b.tt(t).base
		if bt := b.tt(base); bt.keep < now {
			bt.keep = now
		}
	}
}

// out creates an op output; it requires grad when any input does.
func (b *builder) out(numel int64, dt DType, in ...Tensor) Tensor {
	grad := false
	for _, t := range in {
		grad = grad || b.rg(t)
	}
	return b.g.newTensor(numel, dt, grad)
}

// alias creates a tensor sharing x's storage (in-place result or view).
func (b *builder) alias(x Tensor) Tensor {
	y := b.g.newTensor(b.numel(x), b.dt(x), b.rg(x))
	b.tt(y).base = b.tt(x).base
	return y
}

// cast converts x to dt (aten::_to_copy). Autocast caches casts of
// parameters until the forward pass ends.
func (b *builder) cast(x Tensor, dt DType) Tensor {
	if b.dt(x) == dt {
		return x
	}
	if c, ok := b.cache[x]; ok && b.dt(c) == dt {
		return c
	}
	y := b.out(b.numel(x), dt, x)
	o := b.op("to", []Tensor{x}, []Tensor{y}, nil)
	o.bwdFlops = float64(b.numel(x))
	if b.tt(x).param >= 0 && b.rg(x) {
		b.cache[x] = y
	}
	return y
}

// lowp is autocast's cast for ops on its lower-precision list (matmul, conv).
func (b *builder) lowp(x Tensor) Tensor {
	if b.amp == F32 || !b.dt(x).floating() || b.dt(x) == b.amp {
		return x
	}
	return b.cast(x, b.amp)
}

// fp32 is autocast's cast for ops on its float32 list (norms, softmax, pow, losses).
func (b *builder) fp32(x Tensor) Tensor {
	if b.amp == F32 || !b.dt(x).floating() {
		return x
	}
	return b.cast(x, F32)
}

// linear is nn.Linear over the last dimension (in → outF).
func (b *builder) linear(x Tensor, in, outF int64, bias bool, name string) Tensor {
	var y Tensor
	switch r := b.lowRank; {
	case r > 0 && r*(in+outF) < in*outF && !denseOnly(name):
		// a low-rank factorisation (override.low_rank): x·A (in×r) · B (r×out)
		h := b.linearWith(x, b.param(in*r), -1, in, r)
		var bp Tensor = -1
		if bias {
			bp = b.param(outF)
		}
		y = b.linearWith(h, b.param(r*outF), bp, r, outF)
	case b.quant4 && b.frozen && !denseOnly(name):
		y = b.linear4bit(x, in, outF, bias)
	default:
		w := b.param(in * outF)
		var bp Tensor = -1
		if bias {
			bp = b.param(outF)
		}
		y = b.linearWith(x, w, bp, in, outF)
	}
	if b.lora != nil && b.lora.targets(name) {
		fr := b.frozen
		b.frozen = false
		y = b.loraBranch(x, y, in, outF)
		b.frozen = fr
	}
	return y
}

// denseOnly names the projections that stay dense and unquantised: the
// LM head (bitsandbytes skips it) and the MoE routers.
func denseOnly(name string) bool {
	return name == "lm_head" || name == "gate" || name == "shared_expert_gate"
}

// linearWith applies existing weight w (and bias bp, -1 for none).
func (b *builder) linearWith(x, w, bp Tensor, in, outF int64) Tensor {
	xc, wc := b.lowp(x), b.lowp(w)
	ins := []Tensor{xc, wc}
	if bp >= 0 {
		ins = append(ins, b.lowp(bp))
	}
	n := b.numel(x) / in
	y := b.out(n*outF, b.dt(xc), ins...)
	var save []Tensor
	if b.rg(wc) {
		save = append(save, xc)
	}
	if b.rg(xc) {
		save = append(save, wc)
	}
	o := b.op("linear", ins, []Tensor{y}, save)
	o.flops = 2 * float64(n*in*outF)
	o.bwdFlops = 0
	if b.rg(wc) {
		o.bwdFlops += o.flops
	}
	if b.rg(xc) {
		o.bwdFlops += o.flops
	}
	o.matmul = true
	o.gemm = &gemmShape{batch: 1, m: n, n: outF, k: in, dgrad: b.rg(xc), wgrad: b.rg(wc)}
	if bp >= 0 && b.rg(bp) {
		o.bwdTemp = biasGradScratch(n, outF, b.ctaLimit)
		o.bwdTempLate = true
	}
	return y
}

// biasGradScratch is the scratch of a bias gradient, grad.sum(0) over n
// rows of outF columns (or any such column reduction: ConvNeXt's layer
// scale and depthwise-conv bias reduce channels-last maps the same way).
// It follows PyTorch's setReduceConfig (Reduce.cuh) for a reduction over
// the non-contiguous dimension with outputs vectorised by 4: a CTA of 128
// threads covers bw·4 columns (bw = 32, fewer for narrow outputs) and bh
// row lanes; when each thread would sum at least 256 values the rows are
// split across ctas CTAs per column block, as many as fill the resident
// grid (limit CTAs of 128 threads, 16 per SM on the H200) but no more than
// one per 16 values a thread sums, and the float32 partial sums of every
// CTA-row are staged in a global buffer, with one semaphore per column
// block. The H200 traces match it to the byte: 4·outF·128 bytes per 64
// rows for 384, 768 and 1024 columns (BERT, GPT-2, ViT-L, ConvNeXt), 704
// and 352 CTA-rows at the grid cap for 384 and 768 columns, and 1,056 of
// 64 columns' worth for ConvNeXt's 96 (25.9 MB, 8-byte semaphores). None
// was seen for 2304 columns and up (another kernel path), so none is
// assumed past 2048.
func biasGradScratch(n, outF, limit int64) []int64 {
	if outF > 2048 || n < 64 {
		return nil
	}
	vec := int64(4)
	for outF%vec != 0 {
		vec /= 2
	}
	const maxThreads = 512
	lanes := maxThreads / vec // threads of one CTA
	dim0 := outF / vec
	p0, p1 := min(lastPow2(dim0), lanes), min(lastPow2(n), lanes)
	bw := min(p0, 32)
	bh := min(p1, lanes/bw)
	bw = min(p0, lanes/bh)
	if n < bh*16 && n < 256 {
		return nil // every CTA-row reduces in shared memory
	}
	vpt := (n + bh - 1) / bh
	if vpt < 256 {
		return nil
	}
	grid := (dim0 + bw - 1) / bw
	ctas := (vpt + 15) / 16
	if limit > 0 {
		perSM := 2048 / (bw * bh)
		target := limit / 16 * perSM
		ctas = min(ctas, (target+grid-1)/grid)
	}
	ctas = max(ctas, (vpt+255)/256)
	if ctas <= 1 {
		return nil
	}
	return []int64{4 * outF * ctas * bw * vec, 4 * grid}
}

// lastPow2 is the largest power of two not above n (n ≥ 1).
func lastPow2(n int64) int64 {
	p := int64(1)
	for p*2 <= n {
		p *= 2
	}
	return p
}

// loraBranch adds PEFT's y + B(A(x))·scale to a frozen linear.
func (b *builder) loraBranch(x, y Tensor, in, outF int64) Tensor {
	r := int64(b.lora.Rank)
	a := b.param(in * r)
	bb := b.param(r * outF)
	first := len(b.g.ops)
	h := b.linearWith(x, a, -1, in, r)
	h = b.linearWith(h, bb, -1, r, outF)
	h = b.scale(h)
	h = b.add(y, h)
	for i := first; i < len(b.g.ops); i++ {
		b.g.ops[i].light = true
	}
	return h
}

// matmul multiplies a [.., m, k] by c [.., k, n] giving outNumel elements.
func (b *builder) matmul(a, c Tensor, outNumel int64, flops float64) Tensor {
	ac, cc := b.lowp(a), b.lowp(c)
	y := b.out(outNumel, b.dt(ac), ac, cc)
	o := b.op("matmul", []Tensor{ac, cc}, []Tensor{y}, []Tensor{ac, cc})
	o.flops, o.bwdFlops, o.matmul = flops, 2*flops, true
	return y
}

// bmm is matmul of batch products of a [m, k] by c [k, n], with its shape
// recorded for the step-time model.
func (b *builder) bmm(a, c Tensor, batch, m, n, k int64) Tensor {
	y := b.matmul(a, c, batch*m*n, 2*float64(batch*m*n*k))
	b.g.ops[len(b.g.ops)-1].gemm = &gemmShape{batch: batch, m: m, n: n, k: k, dgrad: true, wgrad: true}
	return y
}

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
	w := b.param(dim)
	in := b.dt(x)
	h := b.cast(x, F32)
	rows := b.numel(x) / dim
	sq := b.pow(h)
	v := b.reduce(sq, rows)
	r := b.unary("rsqrt", v, F32, false, true)
	h = b.mul(h, r)
	y := b.mul(w, b.cast(h, in))
	b.keep(h) // a local of forward until it returns
	return y
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
	o := b.op("embedding", []Tensor{ids, w}, []Tensor{y}, []Tensor{ids})
	o.bytes = float64(n * dim * b.dt(w).Size() * 2)
	// embedding_dense_backward sorts the indices and counts them
	o.bwdTemp = []int64{n * 8, n * 8, n * 8, vocab * 8}
	return y
}

func lowerAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = strings.ToLower(v)
	}
	return out
}

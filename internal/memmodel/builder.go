package memmodel

// builder records ops into a Graph the way eager PyTorch under autocast
// would run them: it inserts the casts autocast inserts, caches the casts
// of parameters for the forward pass, and knows what each op saves.
type builder struct {
	g      *Graph
	amp    DType // autocast dtype; F32 when autocast is off
	pdt    DType // parameter dtype (bf16 for pure-bf16 training)
	cache  map[Tensor]Tensor
	block  int
	outer  int  // the enclosing checkpointed block of nested checkpoints, -1 for none (nested.go)
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
	// channelsLast: the model and its images are channels-last
	// (Spec.ChannelsLast), so every feature map is NHWC-strided.
	channelsLast bool
	// loraF32: LoRA adapter weights are float32 whatever the base
	// weights' dtype (peft.get_peft_model's autocast_adapter_dtype, on by
	// default); false keeps them in the parameter dtype (diffusers'
	// add_adapter injects them without the upcast).
	loraF32 bool
	// inputGrad makes the input embeddings' output require grad, as
	// PreTrainedModel.enable_input_require_grads does with a forward
	// hook on get_input_embeddings() (output.requires_grad_(True)):
	// PEFT, Hugging Face's gradient_checkpointing_enable on a PEFT model
	// and prepare_model_for_kbit_training call it when LoRA trains under
	// gradient checkpointing. inputEmb is that embedding's weight, the
	// first one embedding sees (T5's shared table serves both stacks).
	inputGrad   bool
	inputEmb    Tensor
	hasInputEmb bool
	// replay, while non-nil, makes param hand out these existing
	// parameters in turn instead of creating new ones: a module called a
	// second time applies the weights (and LoRA adapter) its first call
	// made (see linearAgain).
	replay []Tensor
}

func newBuilder(amp, pdt DType) *builder {
	return &builder{g: &Graph{selective: map[int]bool{}}, amp: amp, pdt: pdt,
		cache: map[Tensor]Tensor{}, block: -1, outer: -1, workspace: 1}
}

func (b *builder) tt(x Tensor) *tensor  { return b.g.t(x) }
func (b *builder) numel(x Tensor) int64 { return b.g.t(x).numel }
func (b *builder) dt(x Tensor) DType    { return b.g.t(x).dt }
func (b *builder) rg(x Tensor) bool     { return b.g.t(x).grad }

// param creates a parameter of numel elements.
func (b *builder) param(numel int64) Tensor {
	if b.replay != nil {
		if len(b.replay) == 0 {
			panic("memmodel: a replayed module asks for more parameters than its first call made")
		}
		x := b.replay[0]
		b.replay = b.replay[1:]
		return x
	}
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
	b.g.ops = append(b.g.ops, op{kind: kind, in: in, out: out, save: save, block: b.block, outer: b.outer, module: b.module})
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

// lowpArgs casts an op's input x, weight w and bias bp (-1: none) to the
// autocast dtype in the order autocast's wrapper evaluates them: as
// arguments of one C++ call, which GCC evaluates last first, so the bias,
// then the weight, then the input (the H200 GPT-2 checkpointed trace:
// every Conv1D's 3.4 MiB c_attn weight cast before its 12 MiB input cast).
// Where an input cast and a weight cast land in different free blocks this
// decides placement: with the weight first the Qwen3 LoRA and GPT-2
// checkpointed replays split the blocks the GPU split (see config.device).
// A compiled step allocates in Inductor's schedule instead, so there the
// input comes first as before (GPT-2 b8 compiled: +8.4% reserved with the
// eager order, past the 8% TestAccuracyFamilies holds).
func (b *builder) lowpArgs(x, w, bp Tensor) (xc, wc, bc Tensor) {
	bc = -1
	if b.compiled {
		xc, wc = b.lowp(x), b.lowp(w)
		if bp >= 0 {
			bc = b.lowp(bp)
		}
		return xc, wc, bc
	}
	if bp >= 0 {
		bc = b.lowp(bp)
	}
	wc = b.lowp(w)
	return b.lowp(x), wc, bc
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
	if b.g.linears == nil {
		b.g.linears = map[string]bool{}
	}
	b.g.linears[name] = true
	if b.lora != nil && b.lora.targets(name) {
		if b.replay == nil {
			b.g.adapted++
		}
		fr := b.frozen
		b.frozen = false
		y = b.loraBranch(x, y, in, outF, b.quant4 && fr && !denseOnly(name))
		b.frozen = fr
	}
	return y
}

// linearParams is linear returning also the parameters the Linear made
// (weight, bias, LoRA's A and B, in creation order), for linearAgain.
func (b *builder) linearParams(x Tensor, in, outF int64, bias bool, name string) (Tensor, []Tensor) {
	first := len(b.g.params)
	y := b.linear(x, in, outF, bias, name)
	ps := make([]Tensor, 0, len(b.g.params)-first)
	for _, p := range b.g.params[first:] {
		ps = append(ps, p.t)
	}
	return y, ps
}

// linearAgain calls a Linear that linearParams made (ps) on another input
// x: the same weights, autocast casts and LoRA branch, no new parameters.
func (b *builder) linearAgain(x Tensor, in, outF int64, bias bool, name string, ps []Tensor) Tensor {
	b.replay = ps
	defer func() { b.replay = nil }()
	return b.linear(x, in, outF, bias, name)
}

// denseOnly names the projections that stay dense and unquantised: the
// LM head (bitsandbytes skips it) and the MoE routers.
func denseOnly(name string) bool {
	return name == "lm_head" || name == "gate" || name == "shared_expert_gate"
}

// linearWith applies existing weight w (and bias bp, -1 for none).
func (b *builder) linearWith(x, w, bp Tensor, in, outF int64) Tensor {
	xc, wc, bc := b.lowpArgs(x, w, bp)
	ins := []Tensor{xc, wc}
	if bc >= 0 {
		ins = append(ins, bc)
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
	o.ltBias = bp >= 0
	o.gemm = &gemmShape{batch: 1, m: n, n: outF, k: in, dgrad: b.rg(xc), wgrad: b.rg(wc)}
	if bp >= 0 && b.rg(bp) {
		o.bwdTemp = biasGradScratch(n, outF, b.ctaLimit)
		o.bwdTempLate = true
	}
	return y
}

// loraBranch adds PEFT's adapter to a frozen linear whose output is y, as
// peft.tuners.lora.Linear.forward (PEFT 0.21) runs it:
//
//	x = self._cast_input_dtype(x, lora_A.weight.dtype)
//	result = result + lora_B(lora_A(dropout(x))) * scaling
//	result = result.to(torch_result_dtype)
//
// The adapter weights are float32 whenever get_peft_model made them
// (loraF32: it upcasts bf16/fp16 adapters by default), so an input of
// another dtype is copied to float32 first, a plain .to() that autocast
// does not touch, and Python holds the copy (the rebound x) until the
// module returns. Under autocast lora_A casts it back to the autocast
// dtype and saves that copy: a bf16 input (o_proj's attention output,
// down_proj's gated product) costs a float32 transient and a saved bf16
// copy (the dev8 Qwen3 LoRA snapshot: 20 and 10 MiB at each o_proj, 60
// and 30 MiB at each down_proj, b8 s512). Without autocast (pure bf16
// weights) the branch runs in float32: lora_A saves the float32 copy of
// the input, result + branch promotes to float32 and .to() casts the sum
// back (the dev8 Qwen2.5-0.5B pure-bf16 snapshot: a saved 28 MiB float32
// copy at every q_proj and v_proj, b16 s512). bitsandbytes' 4-bit layer
// (peft's lora/bnb.py) casts the input only when autocast is off, and
// casts the branch's output back to the result's dtype before scaling
// (bnb: the base is such a layer).
func (b *builder) loraBranch(x, y Tensor, in, outF int64, bnb bool) Tensor {
	r := int64(b.lora.Rank)
	pdt := b.pdt
	if b.loraF32 {
		b.pdt = F32
	}
	a := b.param(in * r)
	bb := b.param(r * outF)
	adt := b.pdt
	b.pdt = pdt
	first := len(b.g.ops)
	xa := x
	if !bnb || b.amp == F32 {
		xa = b.cast(x, adt)
	}
	h := b.linearWith(xa, a, -1, in, r)
	h = b.linearWith(h, bb, -1, r, outF)
	if bnb && b.amp == F32 {
		h = b.cast(h, b.dt(y))
	}
	h = b.scale(h)
	h = b.add(y, h)
	h = b.cast(h, b.dt(y))
	if xa != x {
		b.keep(xa)
	}
	for i := first; i < len(b.g.ops); i++ {
		b.g.ops[i].light = true
	}
	return h
}

// matmul multiplies a [.., m, k] by c [.., k, n] giving outNumel elements.
func (b *builder) matmul(a, c Tensor, outNumel int64, flops float64) Tensor {
	ac, cc, _ := b.lowpArgs(a, c, -1)
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

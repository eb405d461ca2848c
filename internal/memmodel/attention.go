package memmodel

// Attention through F.scaled_dot_product_attention. PyTorch picks one of
// three implementations per call, and what autograd keeps differs by an
// order of magnitude between them:
//
//   - flash (half precision, no mask): saves q, k, v, the output and a
//     float32 log-sum-exp per row;
//   - memory-efficient (float32, or any additive mask that needs no
//     gradient): the same, with the row count padded to 32;
//   - math (a mask that requires grad, e.g. T5's learned relative position
//     bias): the eager decomposition, which keeps the full score matrices.
//
// The choice for the mask case was read from torch 2.11 snapshots of
// T5-small (testdata/unseen): the encoder and decoder self-attention, whose
// mask carries the bias gradient, allocate B·H·S·S float32 softmax and
// dropout outputs; the cross-attention, whose zero bias needs no gradient,
// allocates only a padded log-sum-exp.

// sdpaBackend is the kernel family a fused call runs, for its time: the
// memory-efficient kernel where the memory model has it (float32, a
// mask, or forced), flash when the spec forces it, and otherwise cuDNN's
// fused attention, torch 2.11's default choice for half precision on the
// H200 (every attention kernel of the bf16 transformer profiles in
// testdata/profile and testdata/dev6 is cudnn_generated_fort_native_sdpa_*;
// so is the default on every shape of calibration-sdpa-backends.json).
// Its memory is flash's (an output and a float32 log-sum-exp per row).
func sdpaBackend(impl string, efficient bool) string {
	switch {
	case efficient:
		return "efficient"
	case impl == "flash":
		return "flash"
	}
	return "cudnn"
}

// attnShape is the geometry of one attention call.
type attnShape struct {
	batch, heads, sq, sk, hd int64
	causal                   bool
	dropout                  float64 // attention-probability dropout (the math path's mask; the fused kernels' time)
	kvHeads                  int64   // key/value heads (GQA); 0 means heads
	softcap                  float64 // attention logit soft-capping (eager only)
	// biasGrad: the additive mask is a leaf that requires grad which the
	// memory-efficient kernel differentiates in place (T5's zero
	// cross-attention bias under gradient checkpointing), not the math
	// path a computed bias that requires grad takes
	biasGrad bool
}

// sdpa is F.scaled_dot_product_attention without a mask (fused kernel).
func (b *builder) sdpa(q, k, v Tensor, batch, heads, sq, sk, hd int64, causal bool) Tensor {
	return b.sdpaMask(q, k, v, -1, attnShape{batch: batch, heads: heads, sq: sq, sk: sk, hd: hd, causal: causal})
}

// sdpaMask is F.scaled_dot_product_attention with an optional additive
// mask (-1 for none). A mask that requires grad forces the math path.
func (b *builder) sdpaMask(q, k, v, mask Tensor, s attnShape) Tensor {
	if mask >= 0 && b.rg(mask) {
		return b.sdpaMath(q, k, v, mask, s, false)
	}
	// transformers passes enable_gqa only without a mask: a masked call
	// on grouped queries repeats k and v to the query heads first
	// (repeat_kv's expand + reshape copies, in their dtype before the
	// autocast casts), Python's locals until SDPA returns; backward sums
	// the repeated gradient back to the key/value heads
	var kRep, vRep Tensor = -1, -1
	if mask >= 0 && s.kvHeads > 0 && s.kvHeads < s.heads {
		n := s.batch * s.heads * s.sk * s.hd
		k, v = b.repeated(k, n), b.repeated(v, n)
		kRep, vRep = k, v
	}
	// autocast casts the arguments as C++ evaluates them, last first
	// (GCC): the Qwen3 snapshot casts v and k before q
	v = b.lowp(v)
	k = b.lowp(k)
	q = b.lowp(q)
	if b.compiled && mask < 0 && s.kvHeads > 0 && s.kvHeads < s.heads {
		// under torch.compile the SDPA decomposition repeats grouped k
		// and v to the query heads (repeat_interleave) before the flash
		// kernel, and the backward keeps those copies (dev25's Qwen3-0.6B
		// and dev23's Llama 3.2 1B snapshots: 32 and 16 MiB k and v per
		// layer at the query width, saved until the layer's backward)
		n := s.batch * s.heads * s.sk * s.hd
		k, v = b.repeated(k, n), b.repeated(v, n)
		s.kvHeads = 0
	}
	ins := []Tensor{q, k, v}
	// flash attention takes no mask: a masked call runs memory-efficient
	efficient := b.dt(q) == F32 || b.attn == "mem_efficient"
	if mask >= 0 {
		if b.compiled {
			// Inductor's memory-efficient attention takes the bias
			// expanded to every head, materialised in the mask's
			// dtype, one per call, saved for backward (dev26's compiled
			// BERT-base b32 s512: twelve float32 384 MiB biases)
			mask = b.repeated(mask, s.batch*s.heads*s.sq*s.sk)
		} else {
			mask = b.lowp(mask)
		}
		ins = append(ins, mask)
		efficient = true
	}
	if mask < 0 && efficient && b.attn != "mem_efficient" && s.kvHeads > 0 && s.kvHeads < s.heads {
		return b.sdpaGQAMath(q, k, v, s)
	}
	outN := s.batch * s.heads * s.sq * s.hd
	y := b.out(outN, b.dt(q), q, k, v)
	lseRows := s.sq
	if efficient { // memory-efficient kernel pads the row count to 32
		lseRows = (s.sq + 31) / 32 * 32
	}
	lse := b.g.newTensor(s.batch*s.heads*lseRows, F32, false)
	seed := b.g.newTensor(1, I64, false)
	off := b.g.newTensor(1, I64, false)
	save := append(append([]Tensor{}, ins...), y, lse, seed, off)
	o := b.op("sdpa", ins, []Tensor{seed, off, y, lse}, save)
	o.fwdTemp = []int64{256}
	b.keep(kRep, vRep)
	masked := false
	if b.compiled && mask < 0 && s.causal {
		// Under torch.compile transformers materialises the causal mask
		// (masking_utils._ignore_causal_mask_sdpa takes no is_causal
		// shortcut while Dynamo traces) and calls SDPA with it and
		// is_causal=False: the kernel computes every block, twice a
		// causal call's work (testdata/dev32: compiled Qwen2.5-0.5B s1024
		// b8, cuDNN attention kernels 11.0 ms a step against 5.0 priced
		// causal), and a materialised mask slows cuDNN's kernels
		// (priced from the masked kernel rows: sdpaVariant). The cost only: the mask is
		// a small bool tensor.
		s.causal = false
		masked = true
	}
	f := 4 * float64(s.batch*s.heads*s.sq*s.sk*s.hd)
	if s.causal {
		f /= 2
	}
	o.flops, o.bwdFlops, o.matmul = f, 2.5*f, true
	o.attn = &attnCost{attnShape: s, backend: sdpaBackend(b.attn, efficient), masked: masked,
		eager: !b.compiled, forced: b.attn == "flash" || b.attn == "mem_efficient"}
	if mask >= 0 && !b.compiled {
		o.attn.bias = "const"
		if s.biasGrad {
			// _efficient_attention_backward writes the bias gradient at
			// the expanded (B, H, Sq, Sk) shape, the last dim padded to
			// 16, beside dq, dk and dv; the expand's backward sums it to
			// the bias's (1, H, Sq, Sk) after the kernel returns
			o.attn.bias = "grad"
			o.bwdHeld = append(o.bwdHeld, s.batch*s.heads*s.sq*((s.sk+15)/16*16)*b.dt(mask).Size())
		}
	}
	o.bwdTemp = []int64{sdpaBackwardWorkspace(s, b.dt(q), efficient)}
	if b.dt(q) == F32 {
		// float32 inputs: the memory-efficient backward computes the
		// row-sum delta outside the kernel, from a float32 product of the
		// output gradient and the output, both live while the gradients
		// are allocated (BERT b32 s512 and GPT-2 b8 s1024 fp32 traces: a
		// fourth hidden-size request beside dq, dk, dv, then B·H·S·4)
		o.bwdHeld = append(o.bwdHeld, s.batch*s.sq*s.heads*s.hd*4, s.batch*s.heads*s.sq*4)
	}
	return y
}

// efficientOut reports whether attention output y came from the
// memory-efficient kernel, which writes a [B, S, H, D]-contiguous output
// whatever the query's strides (mem_eff_attention's empty BMHK result);
// flash's output takes the query's strides (flash_api's empty_like(q)),
// and the math path's is a matmul's. Whether a later transpose or permute
// back to tokens copies depends on it: torchvision's ViT (H200 traces,
// ViT-L b32) copies at multi_head_attention_forward's permute(2, 0, 1,
// 3).contiguous() in float32 and not in fp16 or bf16.
func (b *builder) efficientOut(y Tensor) bool {
	return b.fusedBackend(y) == "efficient"
}

// fusedBackend is the fused SDPA kernel that produced y (efficient, flash
// or cudnn), "" when y is not a fused kernel's output.
func (b *builder) fusedBackend(y Tensor) string {
	for i := len(b.g.ops) - 1; i >= 0; i-- {
		o := &b.g.ops[i]
		for _, t := range o.out {
			if t == y {
				if o.attn == nil {
					return ""
				}
				return o.attn.backend
			}
		}
	}
	return ""
}

// sdpaBackwardWorkspace is the one scratch allocation the fused kernels'
// backward makes after the q, k, v gradients and frees at once: a
// float32 row-sum (delta) and, on half-precision inputs, a float32
// accumulator of dq, plus for flash on grouped-query inputs dk and dv at
// the query head count (reduced to the key/value heads afterwards).
// Measured in torch 2.11 H200 snapshots (requests with no Python stack,
// one per layer backward): GPT-2 bf16 flash B·S·H·D·4 + B·H·S·4 + 256;
// BERT bf16 memory-efficient the same; Qwen3, Mixtral, Qwen2-MoE and
// Gemma 2/3's global layers (flash, grouped queries) B·S·H·D·(4 + 2·2) +
// B·H·S·4 + 256; Gemma 2/3's masked sliding layers (memory-efficient,
// k and v already repeated) B·S·H·D·4 + B·H·S·4 + 256. On float32 inputs
// (memory-efficient) the row-sum is computed beforehand (sdpaMask's held
// temporaries) and the workspace is the dq accumulator and 8 bytes per 32
// rows of each head, the sequence rounded up to 64: 50,380,800 bytes for
// BERT b32 s512, 25,190,400 for GPT-2 b8 s1024. The dynamic-padding
// GPT-2 snapshot (half precision) shows the sequence is not rounded up
// there. The 256 bytes are what every measured half-precision
// request carries beyond the tensors.
func sdpaBackwardWorkspace(s attnShape, dt DType, efficient bool) int64 {
	delta := s.batch * s.heads * s.sq * 4
	if dt == F32 {
		// the float32 kernel tiles the queries by 64 (kBlockSizeI): its
		// dq accumulator has the sequence rounded up to that (dev95's
		// CLIP fp32 trace: 8,396,800 bytes at 77 text tokens and
		// 25,190,400 at 197 image tokens, the figures of 128 and 256;
		// BERT's 512 and GPT-2's 1024 are multiples already)
		m := (s.sq + 63) / 64 * 64
		return s.batch*m*s.heads*s.hd*4 + s.batch*s.heads*(m/32)*8
	}
	ws := delta + s.batch*s.sq*s.heads*s.hd*4 + 256
	if !efficient && s.kvHeads > 0 && s.kvHeads < s.heads {
		ws += 2 * s.batch * s.sk * s.heads * s.hd * dt.Size()
	}
	return ws
}

// sdpaMath is ATen's _scaled_dot_product_attention_math as it allocates on
// CUDA: inputs cast by autocast, then upcast to float32 "for accuracy",
// q and k scaled by √scale and made contiguous for bmm (both saved), the
// score matrix with the mask added in place, a safe softmax (its output
// saved; -inf row checks as scratch), dropout (mask and output saved), v
// made contiguous (saved) unless it already is, the second bmm, the cast
// back, and the caller's transpose(1, 2).contiguous().
func (b *builder) sdpaMath(q, k, v, mask Tensor, s attnShape, vContig bool) Tensor {
	q, k, v, mask = b.lowp(q), b.lowp(k), b.lowp(v), b.lowp(mask)
	dt := b.dt(q)
	amp := b.amp
	b.amp = F32 // the decomposition runs below the autocast dispatch key
	defer func() { b.amp = amp }()
	q32, k32, v32 := b.cast(q, F32), b.cast(k, F32), b.cast(v, F32)
	qc := b.copy(b.scale(q32))
	kc := b.copy(b.scale(k32))
	bh := s.batch * s.heads
	scores := bh * s.sq * s.sk
	sc := b.bmm(qc, kc, bh, s.sq, s.sk, s.hd)
	sc = b.addInPlace(sc, mask) // a half mask adds into float32 without a copy
	p := b.softmax(sc)
	// _safe_softmax: x == -inf (bool), all() per row (bool), a scalar.
	// Its backward gets the product's gradient with the strides matmul's
	// backward gave it, not contiguous, and copies it after allocating
	// its output (dev18's float32 grouped-query Llama and dev44's T5
	// traces: the output, a block of the scores' size freed at once, then
	// the saved probabilities and the incoming gradient)
	sm := &b.g.ops[len(b.g.ops)-1]
	sm.fwdTemp = []int64{scores, s.batch * s.heads * s.sq, 4}
	sm.gradWork = []int64{b.tt(p).bytes()}
	sm.extra = append(sm.extra, safeSoftmaxKernels(scores, s.batch*s.heads*s.sq)...)
	p = b.dropout(p, s.dropout)
	vc := v32
	if !vContig {
		vc = b.copy(v32)
	}
	o := b.bmm(p, vc, bh, s.sq, s.hd, s.sk)
	return b.copy(b.cast(o, dt))
}

// cacheKV is DynamicCache.update in a training forward with use_cache on:
// keys and values are concatenated onto empty tensors created in the
// keys' dtype, so both are copied, values promoted to the keys' dtype (in
// LLaMA the rotary embedding leaves keys in float32 while values are
// bf16), and the copies stay referenced by the returned cache until the
// forward pass ends, whether or not attention saved them.
func (b *builder) cacheKV(k, v Tensor) (Tensor, Tensor) {
	kc := b.copy(k)
	vc := b.out(b.numel(v), promote(b.dt(k), b.dt(v)), v)
	o := b.op("copy", []Tensor{v}, []Tensor{vc}, nil)
	o.passGrad = []bool{b.dt(vc) == b.dt(v)}
	o.hold = true
	b.g.ops[len(b.g.ops)-2].hold = true
	// key_states, value_states = cache.update(...) rebinds both names
	// when update returns, after both copies
	b.keep(k, v)
	b.g.returned = append(b.g.returned, kc, vc)
	return kc, vc
}

// holdOutput keeps x referenced until the forward pass ends (returned in
// the model output).
func (b *builder) holdOutput(x Tensor) {
	for i := len(b.g.ops) - 1; i >= 0; i-- {
		for _, t := range b.g.ops[i].out {
			if t == x {
				b.g.ops[i].hold = true
				return
			}
		}
	}
}

// addInPlace is x.add_(y) on a tensor whose producer saved nothing of it:
// no allocation, the gradient passes through to x and is summed down to
// y's shape when y broadcasts.
func (b *builder) addInPlace(x, y Tensor) Tensor {
	z := b.alias(x)
	b.tt(z).grad = b.rg(x) || b.rg(y)
	o := b.op("add_", []Tensor{x, y}, []Tensor{z}, nil)
	o.passGrad = []bool{true, b.numel(y) == b.numel(x)}
	o.flops = float64(b.numel(x))
	return z
}

// textInput allocates token ids (and the labels the task needs).
func (b *builder) textInput(batch, seq int64, labels int64) Tensor {
	ids := b.input(batch*seq, I64)
	if labels > 0 {
		b.input(labels, I64)
	}
	return ids
}

// encoderInput is an encoder's token ids and the labels its head takes: one
// per sequence (classification), one per token (masked LM, token
// classification) or a start and an end position per sequence (QA).
func (b *builder) encoderInput(a *Arch, batch, seq int64) Tensor {
	labels := batch
	switch a.Head {
	case "masked-lm", "token-classification":
		labels = batch * seq
	case "question-answering":
		labels = 2 * batch
	}
	return b.textInput(batch, seq, labels)
}

// lmLoss is Hugging Face's ForCausalLMLoss: logits.float(), labels padded
// and shifted, cross entropy over the vocabulary. The half logits stay
// referenced by the model output while the loss runs.
func (b *builder) lmLoss(logits Tensor, batch, seq, vocab int64) {
	b.holdOutput(logits)
	b.g.returned = append(b.g.returned, logits)
	l := b.cast(logits, F32)
	b.g.loss = b.crossEntropy(l, vocab)
}

// repeated is x copied out to n elements in its dtype (repeat_kv's
// expand + reshape, repeat_interleave, a bias expanded to every head).
// The copy reads x and writes all n elements (until session 18 its
// traffic was counted at x's size, before the output grew).
func (b *builder) repeated(x Tensor, n int64) Tensor {
	y := b.out(n, b.dt(x), x)
	o := b.op("copy", []Tensor{x}, []Tensor{y}, nil)
	o.passGrad = []bool{true}
	return y
}

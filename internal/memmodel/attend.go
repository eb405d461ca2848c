package memmodel

// The attention implementations a spec can name (attn), as transformers
// dispatches them (config._attn_implementation) for the Llama-like
// decoders:
//
//   - sdpa (the library's default): F.scaled_dot_product_attention with
//     is_causal and no mask, so PyTorch runs flash attention on half
//     inputs and the memory-efficient kernel on float32 (see attention.go);
//   - flash / mem_efficient: SDPA with that kernel forced;
//   - math: SDPA's math fallback (the full score matrices in float32);
//   - eager: transformers' eager_attention_forward, which materialises a
//     float causal mask of batch·seq² once per forward, repeats the
//     key/value heads for GQA, and keeps the float32 softmax and its cast
//     to the query dtype for backward.

// AttnImpls are the values the spec's attn key takes.
var AttnImpls = []string{"sdpa", "eager", "flash", "mem_efficient", "math"}

// attend runs causal self-attention of q, k, v with the builder's
// attention implementation; mask is the eager causal mask (-1 for none).
func (b *builder) attend(q, k, v, mask Tensor, s attnShape) Tensor {
	switch b.attn {
	case "eager":
		return b.eagerAttention(q, k, v, mask, s)
	case "math":
		return b.sdpaMath(q, k, v, b.mathCausalMask(s), s, false)
	}
	return b.sdpaMask(q, k, v, -1, s)
}

// causalMask is the float mask eager attention adds to its scores,
// [batch, 1, seq, seq] in the hidden dtype (made from a bool mask of the
// same shape), alive until the forward pass ends. Only the eager
// implementation materialises one.
func (b *builder) causalMask(batch, seq int64, dt DType) Tensor {
	if b.attn != "eager" {
		return -1
	}
	return b.heldCausalMask(batch, seq, dt)
}

// heldCausalMask is create_causal_mask's eager float mask, batch×seq×seq
// in dt, made before the first layer and held until the model returns.
func (b *builder) heldCausalMask(batch, seq int64, dt DType) Tensor {
	m := b.g.newTensor(batch*seq*seq, dt, false)
	o := b.op("causal_mask", nil, []Tensor{m}, nil)
	o.noBackward, o.hold = true, true
	o.fwdTemp = []int64{batch * seq * seq}
	return m
}

// eagerAttention is transformers' eager_attention_forward: repeat_kv
// copies for grouped queries, q·kᵀ (autocast's dtype) times the scale,
// Gemma 2's tanh soft-capping, the mask added (promoting to the mask's
// float32 under autocast), softmax in float32 cast back to the query
// dtype, the product with v, and the caller's transpose().contiguous().
func (b *builder) eagerAttention(q, k, v, mask Tensor, s attnShape) Tensor {
	if s.kvHeads > 0 && s.kvHeads < s.heads {
		n := s.batch * s.heads * s.sk * s.hd
		k, v = b.copy(k), b.copy(v)
		b.tt(k).numel, b.tt(v).numel = n, n
	}
	scores := s.batch * s.heads * s.sq * s.sk
	f := 2 * float64(scores*s.hd)
	sc := b.matmul(q, k, scores, f)
	sc = b.scale(sc)
	if s.softcap > 0 {
		sc = b.scale(sc)
		sc = b.unary("tanh", sc, b.dt(sc), false, true)
		sc = b.scale(sc)
	}
	if mask >= 0 {
		sc = b.add(sc, mask)
	}
	p := b.unary("softmax", sc, F32, false, true)
	p = b.cast(p, b.dt(q)) // .to(query.dtype): float32 queries under autocast (rotary)
	o := b.matmul(p, v, s.batch*s.heads*s.sq*s.hd, f)
	out := b.copy(o)
	b.keep(k, v) // key_states and value_states: locals until the function returns
	return out
}

// boolBias is SDPA's conversion of a boolean mask to an additive bias in
// the query dtype (where(mask, 0, -inf)), a new tensor of n elements per
// call: the mask is broadcast over the batch, the bias is not. The Gemma 3
// snapshot shows no logical_not temporary before it, only two one-element
// scalars.
func (b *builder) boolBias(mask Tensor, n int64) Tensor {
	dt := b.pdt
	if b.amp != F32 {
		dt = b.amp
	}
	y := b.g.newTensor(n, dt, false)
	o := b.op("where", []Tensor{mask}, []Tensor{y}, nil)
	o.noBackward = true
	return y
}

// slidingMask is the boolean seq×seq mask transformers' masking_utils
// builds for sliding-window layers under SDPA (sdpa_mask): and_masks
// evaluates the sliding condition (a temporary and the running result),
// then the causal condition into a third temporary before and-ing it into
// the final mask, which lives until the forward pass ends. The Gemma 2
// and Gemma 3 snapshots request exactly these four seq² bool tensors,
// three at once, with no batch dimension (it is expanded, not copied).
func (b *builder) slidingMask(seq int64) Tensor {
	n := seq * seq
	mk := func(in ...Tensor) Tensor {
		t := b.g.newTensor(n, U8, false)
		b.op("sliding_mask", in, []Tensor{t}, nil).noBackward = true
		return t
	}
	inner := mk()
	acc := mk(inner)
	causal := mk()
	m := b.g.newTensor(n, U8, false)
	o := b.op("sliding_mask", []Tensor{causal, acc}, []Tensor{m}, nil)
	o.noBackward, o.hold = true, true
	return m
}

// mathCausalMask is the float mask SDPA's math path builds for is_causal:
// a bool tril of seq² turned into a float32 additive mask (the bool
// temporaries as scratch).
func (b *builder) mathCausalMask(s attnShape) Tensor {
	m := b.g.newTensor(s.sq*s.sk, F32, false)
	o := b.op("causal_mask", nil, []Tensor{m}, nil)
	o.noBackward = true
	o.fwdTemp = []int64{s.sq * s.sk}
	return m
}

// sdpaGQAMath is SDPA on grouped-query inputs that no fused kernel takes:
// flash needs half precision and the memory-efficient kernel admits no
// grouped heads (sdp_utils.cpp instantiates its head check with
// supports_grouped_query_attention=false), so float32 training of a GQA
// decoder (transformers passes enable_gqa and no mask) runs the math path.
// It repeats k and v to the query heads (repeat_interleave, contiguous
// copies), builds the causal mask and saves the float32 score and
// probability matrices of every layer.
func (b *builder) sdpaGQAMath(q, k, v Tensor, s attnShape) Tensor {
	n := s.batch * s.heads * s.sk * s.hd
	k, v = b.copy(k), b.copy(v)
	b.tt(k).numel, b.tt(v).numel = n, n
	var m Tensor = -1
	if s.causal {
		m = b.mathCausalMask(s)
	}
	return b.sdpaMath(q, k, v, m, s, true)
}

// compiledPadMask is the 4-D padding mask an encoder's SDPA gets under
// torch.compile: eager transformers drops an all-ones attention_mask (the
// fused kernels then run unmasked), which Dynamo cannot check, so the
// compiled step builds [batch, 1, seq, seq] in the parameters' dtype and
// passes it to every layer (dev26's compiled BERT-base; see sdpaMask).
// -1 outside a compiled step.
func (b *builder) compiledPadMask(batch, seq int64) Tensor {
	if !b.compiled {
		return -1
	}
	m := b.g.newTensor(batch*seq*seq, b.pdt, false)
	o := b.op("pad_mask", nil, []Tensor{m}, nil)
	o.noBackward, o.hold = true, true
	return m
}

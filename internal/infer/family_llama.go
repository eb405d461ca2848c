package infer

// The LLaMA family (also Mistral, Qwen2) and Qwen3 as transformers'
// LlamaForCausalLM runs it.
func init() {
	registerDecoder(&decoder{
		family: "llama", weights: llamaWeights, embed: llamaEmbed,
		block: (*model).decoderBlock, norm: (*model).norm,
		// vLLM's fused gate_up (2·ffn) and SiluAndMul output (ffn)
		servedMLP: 3,
	})
	// Qwen3 is LLaMA's layer plus per-head RMSNorm of q and k (head_dim
	// weights each; their temporaries are each projection's rows, see
	// decoderBlock's q/k norms).
	registerDecoder(&decoder{
		family: "qwen3", weights: llamaWeights, embed: llamaEmbed,
		block: (*model).decoderBlock, norm: (*model).norm, servedMLP: 3,
	})
}

// llamaWeights lists LlamaForCausalLM's parameters in construction order.
func llamaWeights(c *config, w *weights) {
	h, v, dt := c.hidden, c.vocab, c.dt
	w.add(v*h, v*h*dt) // embed_tokens
	for l := int64(0); l < c.layers; l++ {
		attentionWeights(c, w, false)
		gatedMLPWeights(c, w, c.ffn)
	}
	rotaryTail(c, w)
}

// attentionWeights adds one rotary decoder layer's norms and attention:
// input_layernorm, q/k/v (with the model's biases) and o_proj, per-head
// q/k norms when qkNorm, post_attention_layernorm.
func attentionWeights(c *config, w *weights, qkNorm bool) {
	h, dt := c.hidden, c.dt
	qd, kd := c.heads*c.headDim, c.kvHeads*c.headDim
	bias := c.arch.AttnBias
	w.add(h, h*dt) // input_layernorm
	w.dense(c, h, qd, bias)
	w.dense(c, h, kd, bias)
	w.dense(c, h, kd, bias)
	w.dense(c, qd, h, false) // o_proj
	if qkNorm {
		w.add(2*c.headDim, 2*c.headDim*dt)
	}
	w.add(h, h*dt) // post_attention_layernorm
}

// gatedMLPWeights adds a gate, an up and a down projection of width f.
func gatedMLPWeights(c *config, w *weights, f int64) {
	w.dense(c, c.hidden, f, false)
	w.dense(c, c.hidden, f, false)
	w.dense(c, f, c.hidden, false)
}

// rotaryTail adds what follows a rotary decoder's layers: the final norm,
// the rotary inv_freq and original_inv_freq buffers (float32) and, unless
// tied to the embedding, lm_head.
func rotaryTail(c *config, w *weights) {
	w.add(c.hidden, c.hidden*c.dt) // norm
	rotaryHead(c, w)
}

// rotaryHead is rotaryTail without the final norm's weight (OLMo's
// LayerNorm has none).
func rotaryHead(c *config, w *weights) {
	h, v, dt := c.hidden, c.vocab, c.dt
	rd := c.arch.Decoder.RotaryDim(c.headDim)
	w.tensors = append(w.tensors, rd/2*4, rd/2*4)
	w.bytes += rd * 4
	w.head = v * h * dt
	if !c.arch.Tied {
		w.add(v*h, v*h*dt) // lm_head
		w.embed = v * h * dt
	}
}

// llamaEmbed is embed_tokens and LlamaRotaryEmbedding: the embedding
// output (held by the model's forward as inputs_embeds) and cos/sin.
func llamaEmbed(m *model, q int64, in *layerIn) (x int32, keep []int32) {
	c := m.c
	emb := m.s.alloc(c.batch*q*c.hidden*c.dt, CatActivations)
	if c.arch.Decoder.EmbedScale {
		// Granite's inputs_embeds * embedding_multiplier, before the
		// rotary tables
		sc := m.s.alloc(c.batch*q*c.hidden*c.dt, CatActivations)
		m.s.free(emb)
		emb = sc
	}
	in.cos, in.sin = m.rotary(q)
	return emb, []int32{emb, in.cos, in.sin}
}

// rotary is LlamaRotaryEmbedding: float32 inverse frequencies expanded to
// the batch, position_ids (b×q, from generate's attention-mask cumsum) as
// float32, their product, cat, cos and sin each scaled by
// attention_scaling, then both cast to the hidden dtype at the return,
// where every local goes (dev72's and dev73's traces, in that order). The
// tables stay float32 where the family keeps them so (RopeCastBack) or
// the model runs in float32.
func (m *model) rotary(q int64) (cos, sin int32) {
	c, s := m.c, m.s
	n := c.batch * q
	// a partial rotary embedding (GPT-NeoX, Phi) tabulates its own
	// dimensions only
	rd := c.arch.Decoder.RotaryDim(c.headDim)
	act := func(k int64) int32 { return s.alloc(k, CatActivations) }
	m.makeMasks()
	inv := act(c.batch * rd / 2 * 4)
	pos := act(n * 4)
	fr := act(n * rd / 2 * 4)
	emb := act(n * rd * 4)
	scaled := func() int32 {
		t := act(n * rd * 4)
		sc := act(n * rd * 4) // * attention_scaling
		s.free(t)
		return sc
	}
	cs := scaled()
	ss := scaled()
	if c.dt == 4 || c.arch.Decoder.RopeCastBack {
		s.free(inv, pos, fr, emb)
		return cs, ss
	}
	cos = act(n * rd * c.dt)
	sin = act(n * rd * c.dt)
	s.free(inv, pos, fr, emb, cs, ss)
	return cos, sin
}

// rope is apply_rotary_pos_emb on n elements: x*cos + rotate_half(x)*sin,
// rotate_half being cat(-x2, x1). The products and the sum are in the
// tables' dtype: float32 where the family keeps its rotary tables in
// float32 and casts q and k back afterwards (RopeCastBack, OLMo and OLMo
// 2: dev71's traces; castBack does the cast).
func (m *model) rope(x int32, n int64) int32 {
	s, dt := m.s, m.c.dt
	et := dt
	if m.c.arch.Decoder.RopeCastBack {
		et = 4
	}
	act := func(k int64) int32 { return s.alloc(k, CatActivations) }
	xc := act(n * et)
	neg := act(n / 2 * dt)
	rot := act(n * dt)
	s.free(neg)
	rs := act(n * et)
	s.free(rot)
	y := act(n * et)
	s.free(xc, rs)
	return y
}

// castBack is apply_rotary_pos_emb's q_embed.to(q.dtype),
// k_embed.to(k.dtype) for a family whose rotary tables stay in float32:
// the half-precision copies of the rotated q (qn elements) and k (kn),
// the float32 ones freed when the function returns.
func (m *model) castBack(qe, ke int32, qn, kn int64) (int32, int32) {
	c, s := m.c, m.s
	if !c.arch.Decoder.RopeCastBack || c.dt == 4 {
		return qe, ke
	}
	qc := s.alloc(qn*c.dt, CatActivations)
	kc := s.alloc(kn*c.dt, CatActivations)
	s.free(qe, ke)
	return qc, kc
}

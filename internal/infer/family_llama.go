package infer

// The LLaMA family (also Mistral, Qwen2) and Qwen3 as transformers'
// LlamaForCausalLM runs it.
func init() {
	registerDecoder(&decoder{
		family: "llama", weights: llamaWeights, embed: llamaEmbed,
		block: (*model).llamaBlock, norm: (*model).rmsNorm,
		// vLLM's fused gate_up (2·ffn) and SiluAndMul output (ffn)
		servedMLP: 3,
	})
	// Qwen3 is LLaMA's layer plus per-head RMSNorm of q and k (head_dim
	// weights each; their temporaries are each projection's rows, see
	// llamaBlock's qkNorm).
	registerDecoder(&decoder{
		family: "qwen3", weights: llamaWeights, embed: llamaEmbed,
		block: (*model).qwen3Block, norm: (*model).rmsNorm, servedMLP: 3,
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
	w.tensors = append(w.tensors, c.headDim/2*4, c.headDim/2*4)
	w.bytes += c.headDim * 4
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
	in.cos, in.sin = m.rotary(q)
	return emb, []int32{emb, in.cos, in.sin}
}

// rotary is LlamaRotaryEmbedding: float32 frequencies for position_ids
// (b×q, from generate's attention-mask cumsum), cat, cos and sin scaled
// by attention_scaling, cast to the hidden dtype.
func (m *model) rotary(q int64) (cos, sin int32) {
	c, s := m.c, m.s
	n := c.batch * q
	act := func(k int64) int32 { return s.alloc(k, CatActivations) }
	pos := act(n * 4)
	fr := act(n * c.headDim / 2 * 4)
	emb := act(n * c.headDim * 4)
	s.free(pos, fr)
	one := func() int32 {
		t := act(n * c.headDim * 4)
		sc := act(n * c.headDim * 4) // * attention_scaling
		s.free(t)
		if c.dt != 4 {
			low := act(n * c.headDim * c.dt)
			s.free(sc)
			return low
		}
		return sc
	}
	cos = one()
	sin = one()
	s.free(emb)
	return cos, sin
}

// rope is apply_rotary_pos_emb on n elements: x*cos + rotate_half(x)*sin,
// rotate_half being cat(-x2, x1).
func (m *model) rope(x int32, n int64) int32 {
	s, dt := m.s, m.c.dt
	act := func(k int64) int32 { return s.alloc(k, CatActivations) }
	xc := act(n * dt)
	neg := act(n / 2 * dt)
	rot := act(n * dt)
	s.free(neg)
	rs := act(n * dt)
	s.free(rot)
	y := act(n * dt)
	s.free(xc, rs)
	return y
}

// rmsNorm is LlamaRMSNorm: float32 upcast, pow, mean, + eps, rsqrt,
// scale, cast back, times the weight — each a new tensor.
func (m *model) rmsNorm(x int32, T int64) int32 {
	return m.rmsNormW(x, T, m.c.hidden)
}

// rmsNormW is rmsNorm over rows of width h (Qwen3's q/k norms: head_dim).
func (m *model) rmsNormW(x int32, T, h int64) int32 {
	c, s := m.c, m.s
	dt := c.dt
	act := func(n int64) int32 { return s.alloc(n, CatActivations) }
	up := x
	if dt != 4 {
		up = act(T * h * 4) // hidden_states.to(torch.float32)
	}
	sq := act(T * h * 4) // pow(2)
	v := act(T * 4)      // mean(-1, keepdim=True)
	s.free(sq)
	ve := act(T * 4) // + eps
	r := act(T * 4)  // rsqrt
	s.free(v, ve)
	n := act(T * h * 4) // hidden_states * rsqrt
	s.free(r)
	if up != x {
		s.free(up)
	}
	if dt == 4 {
		y := act(T * h * dt) // weight * hidden_states
		s.free(n)
		return y
	}
	low := act(T * h * dt) // .to(input_dtype)
	y := act(T * h * dt)   // weight * ...
	s.free(low, n)
	return y
}

// llamaBlock is LlamaDecoderLayer (also Mistral, Qwen2): RMSNorm, q/k/v
// projections, rotary, cache update, attention, o_proj, residual add,
// RMSNorm, SwiGLU MLP, residual add. It returns the new hidden states and
// frees the old.
func (m *model) llamaBlock(l int, x int32, in layerIn) int32 {
	return m.decoderBlock(l, x, in, false)
}

// qwen3Block is Qwen3DecoderLayer: LlamaDecoderLayer with q_norm and
// k_norm (RMSNorm over head_dim) applied to each projection's output
// before rotary, the projection freed once normed.
func (m *model) qwen3Block(l int, x int32, in layerIn) int32 {
	return m.decoderBlock(l, x, in, true)
}

// decoderBlock is llamaBlock, with Qwen3's q/k norms when qkNorm.
func (m *model) decoderBlock(l int, x int32, in layerIn, qkNorm bool) int32 {
	q, kv, kvLen, mask := in.q, in.kv, in.kvLen, in.mask
	c, s := m.c, m.s
	b, h := c.batch, c.hidden
	T := b * q
	qd, kd := c.heads*c.headDim, c.kvHeads*c.headDim
	// the normed input stays referenced by the layer until self_attn
	// returns, q_embed until the attention's locals go (after o_proj)
	y := m.rmsNorm(x, T)
	proj := func(out int64) int32 {
		p := m.linear(y, T, h, out)
		if !qkNorm {
			return p
		}
		n := m.rmsNormW(p, T*out/c.headDim, c.headDim)
		s.free(p)
		return n
	}
	qs := proj(qd)
	ks := proj(kd)
	vs := m.linear(y, T, h, kd)
	qe := m.rope(qs, T*qd)
	ke := m.rope(ks, T*kd)
	s.free(qs, ks)
	k, v := m.update(l, ke, vs, q, kv)
	s.free(ke, vs)
	o := m.attend(qe, k, v, q, kvLen, mask)
	p := m.linear(o, T, qd, h)
	s.free(o, qe, y)
	// the layer's input stays alive until the layer returns: the model's
	// loop still holds it
	r := s.alloc(T*h*c.dt, CatActivations) // residual + hidden_states
	s.free(p)
	y = m.rmsNorm(r, T)
	g := m.linear(y, T, h, c.ffn)
	a := s.alloc(T*c.ffn*c.dt, CatActivations) // act_fn(gate)
	s.free(g)
	u := m.linear(y, T, h, c.ffn)
	pr := s.alloc(T*c.ffn*c.dt, CatActivations) // act * up
	s.free(a, u)
	d := m.linear(pr, T, c.ffn, h)
	s.free(pr, y)
	out := s.alloc(T*h*c.dt, CatActivations)
	s.free(d, r)
	m.release(x)
	return out
}

package infer

// Phi-3 as transformers' Phi3ForCausalLM runs it under generate: LLaMA's
// layer with its projections fused. qkv_proj writes q, k and v into one
// tensor whose slices are views, so the fused output lives until the
// attention's forward returns (after o_proj); apply_rotary_pos_emb
// concatenates the rotated part with the (empty, at partial_rotary_factor
// 1) pass-through part, one more copy of q and of k; gate_up_proj's output
// is chunked into views, so it lives until the MLP returns.
func init() {
	registerDecoder(&decoder{
		family: "phi3", weights: phi3Weights, embed: llamaEmbed,
		block: (*model).phi3Block, norm: (*model).norm,
		// vLLM's fused gate_up (2·ffn) and SiluAndMul output (ffn)
		servedMLP: 3,
		// the value is a slice of qkv_proj's output
		stridedKV: 1,
	})
}

// phi3Weights lists Phi3ForCausalLM's parameters in construction order:
// per layer the attention's o_proj before qkv_proj, the MLP's gate_up_proj
// and down_proj, then the two norms; lm_head untied.
func phi3Weights(c *config, w *weights) {
	h, v, dt := c.hidden, c.vocab, c.dt
	w.add(v*h, v*h*dt) // embed_tokens
	qd, kd := c.heads*c.headDim, c.kvHeads*c.headDim
	for l := int64(0); l < c.layers; l++ {
		w.dense(c, qd, h, false)      // o_proj
		w.dense(c, h, qd+2*kd, false) // qkv_proj
		w.dense(c, h, 2*c.ffn, false) // gate_up_proj
		w.dense(c, c.ffn, h, false)   // down_proj
		w.add(h, h*dt)                // input_layernorm
		w.add(h, h*dt)                // post_attention_layernorm
	}
	rotaryTail(c, w)
}

// phi3Block is Phi3DecoderLayer: RMSNorm, the fused qkv projection,
// rotary with its concatenation, cache update, attention, o_proj,
// residual add, RMSNorm, the fused gate_up MLP, residual add (the
// residual dropouts are identities in eval mode). It returns the new
// hidden states and frees the old.
func (m *model) phi3Block(l int, x int32, in layerIn) int32 {
	q, kv, kvLen, mask := in.q, in.kv, in.kvLen, in.mask
	c, s := m.c, m.s
	b, h := c.batch, c.hidden
	T := b * q
	qd, kd := c.heads*c.headDim, c.kvHeads*c.headDim
	act := func(n int64) int32 { return s.alloc(n, CatActivations) }
	y := m.norm(x, T)
	qkv := m.linear(y, T, h, qd+2*kd)
	qr := m.rope(-1, T*qd)
	qe := act(T * qd * c.dt) // cat([rotated, pass])
	s.free(qr)
	kr := m.rope(-1, T*kd)
	ke := act(T * kd * c.dt)
	s.free(kr)
	// v is a view of qkv: the cache copies it (and ke) in
	k, v := m.update(l, ke, -1, q, kv)
	s.free(ke)
	o := m.attend(qe, k, v, q, kvLen, mask)
	if mask < 0 && q > 1 && !c.eager && c.dt == 2 {
		// rotary read q from the strided qkv slice, so qe is laid out
		// [b, heads, q, head_dim]; flash attention (no mask, half
		// precision) allocates its output in q's layout, and the
		// interface's transpose(1, 2).contiguous() copies it (dev24's
		// DynamicCache prefill: one such copy a layer; LLaMA's q, a
		// transposed view of q_proj's output, gives flash a batch-first
		// layout and no copy)
		cp := act(T * qd * c.dt)
		s.free(o)
		o = cp
	}
	p := m.linear(o, T, qd, h)
	s.free(o, qe, qkv, y)
	r := act(T * h * c.dt) // residual + hidden_states
	s.free(p)
	y = m.norm(r, T)
	gu := m.linear(y, T, h, 2*c.ffn)
	a := act(T * c.ffn * c.dt)  // act_fn(gate)
	pr := act(T * c.ffn * c.dt) // up * act
	s.free(a)
	d := m.linear(pr, T, c.ffn, h)
	s.free(pr, gu, y)
	out := act(T * h * c.dt)
	s.free(d, r)
	m.release(x)
	return out
}

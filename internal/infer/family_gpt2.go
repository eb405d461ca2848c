package infer

// GPT-2 as transformers' GPT2LMHeadModel runs it.
func init() {
	registerDecoder(&decoder{
		family: "gpt2", weights: gpt2Weights, embed: gpt2Embed,
		block: (*model).gpt2Block, norm: (*model).layerNorm,
		// vLLM's c_fc output and its fused GELU
		servedMLP: 2,
		// vLLM's GPT2LMHeadModel does not implement SupportsLoRA
		noLoRA:     true,
		learnedPos: true,
		stridedKV:  2,
	})
}

// gpt2Weights lists GPT2LMHeadModel's parameters in construction order.
func gpt2Weights(c *config, w *weights) {
	h, v, dt := c.hidden, c.vocab, c.dt
	w.add(v*h, v*h*dt) // wte, tied to the LM head
	p := int64(c.arch.MaxPos)
	w.add(p*h, p*h*dt)   // wpe
	w.embed = p * h * dt // the tied table is read whole by the head
	for l := int64(0); l < c.layers; l++ {
		lnWeights(c, w)            // ln_1
		w.dense(c, h, 3*h, true)   // c_attn
		w.dense(c, h, h, true)     // attn.c_proj
		lnWeights(c, w)            // ln_2
		w.dense(c, h, c.ffn, true) // c_fc
		w.dense(c, c.ffn, h, true) // mlp.c_proj
	}
	lnWeights(c, w) // ln_f
	w.head = v * h * dt
}

// gpt2Embed is wte(input_ids) + wpe(position_ids): both embeddings stay
// referenced by GPT2Model.forward until it returns; their sum starts the
// residual stream.
func gpt2Embed(m *model, q int64, in *layerIn) (x int32, keep []int32) {
	c, s := m.c, m.s
	n := c.batch * q * c.hidden * c.dt
	emb := s.alloc(n, CatActivations)
	pe := s.alloc(n, CatActivations)
	return s.alloc(n, CatActivations), []int32{emb, pe}
}

// layerNorm is nn.LayerNorm: one kernel, whose mean and rstd
// (native_layer_norm's other outputs) are dropped at once.
func (m *model) layerNorm(x int32, T int64) int32 {
	c, s := m.c, m.s
	y := s.alloc(T*c.hidden*c.dt, CatActivations)
	mean, rstd := s.alloc(T*4, CatActivations), s.alloc(T*4, CatActivations)
	s.free(mean, rstd)
	return y
}

// gpt2Block is GPT2Block: LayerNorm, c_attn (q, k, v are views of one
// output), cache update, attention, c_proj, residual, LayerNorm, c_fc,
// the Python tanh GELU (NewGELUActivation: one kernel per operator),
// c_proj, residual.
func (m *model) gpt2Block(l int, x int32, in layerIn) int32 {
	q, kv, kvLen, mask := in.q, in.kv, in.kvLen, in.mask
	c, s := m.c, m.s
	b, h, dt := c.batch, c.hidden, c.dt
	T := b * q
	act := func(n int64) int32 { return s.alloc(n, CatActivations) }
	// GPT2Block keeps its locals to the end: attn_output (the c_proj
	// output) and feed_forward_hidden_states live until it returns; the
	// ln_1 output until the first residual add
	y := m.layerNorm(x, T)
	qkv := m.linear(y, T, h, 3*h)
	k, v := m.update(l, -1, -1, q, kv)
	o := m.attend(qkv, k, v, q, kvLen, mask)
	p := m.linear(o, T, h, h)
	s.free(o, qkv)
	r := act(T * h * dt) // attn_output + residual
	s.free(y)
	y = m.layerNorm(r, T)
	f := m.linear(y, T, h, c.ffn)
	var g int32
	if a := c.arch.Decoder.Act; a == "" || a == "gelu_new" {
		g = m.geluNew(T * c.ffn * dt) // the default activation_function
	} else {
		g = act(T * c.ffn * dt) // a fused one (gelu_pytorch_tanh ...)
	}
	s.free(f)
	d := m.linear(g, T, c.ffn, h)
	s.free(g)
	out := act(T * h * dt) // residual + feed_forward_hidden_states
	s.free(y)
	// at return CPython clears the frame's locals in slot order:
	// residual, attn_output, feed_forward_hidden_states
	s.free(r, p, d)
	m.release(x)
	return out
}

// geluNew is NewGELUActivation on a tensor of n bytes,
// 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), one kernel per operator:
// it returns the product and frees every intermediate, not x.
func (m *model) geluNew(n int64) int32 {
	s := m.s
	act := func(n int64) int32 { return s.alloc(n, CatActivations) }
	half := act(n) // 0.5 * x
	p3 := act(n)   // pow(x, 3)
	c3 := act(n)   // 0.044715 * ...
	s.free(p3)
	sum := act(n) // x + ...
	s.free(c3)
	sc := act(n) // sqrt(2/pi) * ...
	s.free(sum)
	th := act(n) // tanh
	s.free(sc)
	one := act(n) // 1 + tanh
	s.free(th)
	g := act(n) // half * (...)
	s.free(half, one)
	return g
}

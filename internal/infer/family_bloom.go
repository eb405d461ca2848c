package infer

// BLOOM as transformers 5's BloomForCausalLM runs it under generate, in
// dev87's trace order: the word embedding and its LayerNorm, the ALiBi
// bias (b·heads rows of the keys, compute dtype) and a materialised causal
// mask of b×q×keys, both held by the model's forward; per layer a
// LayerNorm, the fused query_key_value, the cache update (a copy of the
// key and value views at the first update, a grown one after), the query's
// reshape copy, baddbmm's scores, the mask added, a float32 softmax (its
// input cast first) cast back, bmm, _merge_heads' copy, dense and the
// dropout-add residual; the attention's locals go when it returns. The
// MLP runs BLOOM's GELU as its Python tanh formula (up to four temporaries
// of the MLP's width at once).
func init() {
	registerDecoder(&decoder{
		family: "bloom", weights: bloomWeights, embed: bloomEmbed,
		block: (*model).bloomBlock, norm: (*model).layerNorm,
		// vLLM's dense_h_to_4h output and its GELU's
		servedMLP: 2,
		// vLLM's BloomForCausalLM implements SupportsPP and SupportsQuant,
		// not SupportsLoRA (vllm/model_executor/models/bloom.py)
		noLoRA:     true,
		learnedPos: true,
		// _reshape's key and value are views of query_key_value's output
		// (heads interleaved by three): from the code, as GPT-2's c_attn
		// split, which dev106 measured; not timed on BLOOM itself
		stridedKV: 2,
	})
}

// bloomWeights lists BloomForCausalLM's parameters in construction order:
// word_embeddings and their LayerNorm, per layer input_layernorm,
// query_key_value and dense, post_attention_layernorm, dense_h_to_4h and
// dense_4h_to_h (all with biases), ln_f; the head tied unless not.
func bloomWeights(c *config, w *weights) {
	h, v, dt := c.hidden, c.vocab, c.dt
	w.add(v*h, v*h*dt)
	lnWeights(c, w)
	for l := int64(0); l < c.layers; l++ {
		lnWeights(c, w)
		w.dense(c, h, 3*h, true)
		w.dense(c, h, h, true)
		lnWeights(c, w)
		w.dense(c, h, c.ffn, true)
		w.dense(c, c.ffn, h, true)
	}
	lnWeights(c, w)
	w.head = v * h * dt
	if !c.arch.Tied {
		w.add(v*h, v*h*dt)
		w.embed = v * h * dt
	}
}

// bloomEmbed is the word embedding and its LayerNorm, the ALiBi bias and
// the 4-D causal mask; the embedding's output, the bias and the mask are
// held until the model returns.
func bloomEmbed(m *model, q int64, in *layerIn) (x int32, keep []int32) {
	c, s := m.c, m.s
	T := c.batch * q
	emb := s.alloc(T*c.hidden*c.dt, CatActivations)
	x = m.layerNorm(emb, T)
	kvLen := bloomKeys(c, in)
	alibi := s.alloc(c.batch*c.heads*kvLen*c.dt, CatActivations)
	mask := s.alloc(c.batch*q*kvLen*c.dt, CatActivations)
	return x, []int32{emb, alibi, mask}
}

// bloomKeys is how many keys BLOOM's attention reads: a StaticCache's
// whole length, its prefill included (the cache update returns the full
// tensors, and the mask and bias are sliced to them: late80's bloom-1b1
// StaticCache point, -2.09% allocated while the prefill was priced over
// the prompt's keys), else the tokens held.
func bloomKeys(c *config, in *layerIn) int64 {
	if c.static && in.kv.max > 0 {
		return in.kv.max
	}
	return in.kvLen
}

// bloomBlock is BloomBlock under generate.
func (m *model) bloomBlock(l int, x int32, in layerIn) int32 {
	q, kv := in.q, in.kv
	c, s := m.c, m.s
	kvLen := bloomKeys(c, &in)
	b, h, nh, dt := c.batch, c.hidden, c.heads, c.dt
	T := b * q
	act := func(n int64) int32 { return s.alloc(n, CatActivations) }
	tmp := func(n int64) int32 { return s.alloc(n, CatTemporaries) }
	y := m.layerNorm(x, T)
	qkv := m.linear(y, T, h, 3*h)
	m.update(l, -1, -1, q, kv)
	qc := tmp(T * h * dt) // query_layer.reshape(b·heads, q, head_dim)
	sc := b * nh * q * kvLen
	scores := tmp(sc * dt) // alibi.baddbmm(q, kᵀ)
	w := tmp(sc * dt)      // + causal_mask
	up := tmp(sc * 4)      // softmax(dtype=float32)'s input cast
	sm := tmp(sc * 4)
	// .to(value dtype): dev87's peak (the last layer's prefill) holds
	// the cast input, the softmax and this cast at once
	p := tmp(sc * dt)
	s.free(up, sm)
	o := tmp(T * h * dt) // bmm(probs, v)
	mo := act(T * h * dt)
	s.free(o)
	d := m.linear(mo, T, h, h)
	r := act(T * h * dt) // dropout_add
	s.free(d)
	s.free(qkv, qc, scores, w, p, mo)
	y2 := m.layerNorm(r, T)
	s.free(y)
	f := m.linear(y2, T, h, c.ffn)
	g := m.bloomGELU(f, T)
	s.free(f)
	f2 := m.linear(g, T, c.ffn, h)
	s.free(g)
	out := act(T * h * dt)
	s.free(f2, y2, r)
	m.release(x)
	return out
}

// bloomGELU is bloom_gelu_forward on T rows of the MLP's width: its
// operators' temporaries, four at most at once, and the output.
func (m *model) bloomGELU(f int32, T int64) int32 {
	s := m.s
	n := T * m.c.ffn * m.c.dt
	tmp := func() int32 { return s.alloc(n, CatTemporaries) }
	half, t2, t3 := tmp(), tmp(), tmp() // x*0.5, 0.79788456*x, 0.044715*x
	t4 := tmp()                         // * x
	s.free(t3)
	t5 := tmp() // 1 + …
	s.free(t4)
	t6 := tmp() // product
	s.free(t2, t5)
	t7 := tmp() // tanh
	s.free(t6)
	t8 := tmp() // 1.0 + tanh
	s.free(t7)
	out := s.alloc(n, CatActivations)
	s.free(half, t8)
	return out
}

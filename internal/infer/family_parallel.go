package infer

// GPT-NeoX (Pythia, GPT-NeoX-20B) and Phi (phi-1, phi-1.5, phi-2) as
// transformers runs them under generate: attention and MLP side by side
// off the residual stream (DecoderQuirks.Parallel), LayerNorms with
// biases, part of each head rotated and concatenated back with the rest
// (PartialRotary), an ungated MLP with biases. GPT-NeoX fuses q, k and v
// into one projection whose slices are views and normalises the MLP's
// input apart ("two-norm"); Phi projects q, k and v apart and feeds one
// norm's output to both branches ("one-norm").
func init() {
	registerDecoder(&decoder{
		family: "gpt-neox", weights: neoxWeights, embed: llamaEmbed,
		block: (*model).parallelBlock, norm: (*model).layerNorm,
		// vLLM's dense_h_to_4h output and its GELU's
		servedMLP: 2,
		// vLLM's GPTNeoXForCausalLM does not implement SupportsLoRA
		noLoRA: true,
		// the value is a view of query_key_value's output
		stridedKV: 1,
	})
	registerDecoder(&decoder{
		family: "phi", weights: phiWeights, embed: llamaEmbed,
		block: (*model).parallelBlock, norm: (*model).layerNorm,
		// vLLM's fc1 output and its GELU's
		servedMLP: 2,
	})
}

// neoxWeights lists GPTNeoXForCausalLM's parameters in construction
// order: the input embedding, per layer the two LayerNorms, the attention
// (query_key_value, dense) and the MLP, the final LayerNorm, embed_out.
func neoxWeights(c *config, w *weights) {
	h, v, dt := c.hidden, c.vocab, c.dt
	qd := c.heads * c.headDim
	w.add(v*h, v*h*dt) // embed_in
	bias := c.arch.AttnBias
	for l := int64(0); l < c.layers; l++ {
		lnWeights(c, w) // input_layernorm
		lnWeights(c, w) // post_attention_layernorm
		w.dense(c, h, 3*qd, bias)
		w.dense(c, qd, h, bias)
		w.dense(c, h, c.ffn, true)
		w.dense(c, c.ffn, h, true)
	}
	lnWeights(c, w) // final_layer_norm
	rotaryHead(c, w)
}

// phiWeights lists PhiForCausalLM's parameters in construction order:
// per layer q/k/v and dense (all with biases), fc1 and fc2, the one
// LayerNorm; the final LayerNorm; lm_head with its bias.
func phiWeights(c *config, w *weights) {
	h, v, dt := c.hidden, c.vocab, c.dt
	qd, kd := c.heads*c.headDim, c.kvHeads*c.headDim
	w.add(v*h, v*h*dt) // embed_tokens
	for l := int64(0); l < c.layers; l++ {
		w.dense(c, h, qd, true)
		w.dense(c, h, kd, true)
		w.dense(c, h, kd, true)
		w.dense(c, qd, h, true) // dense
		w.dense(c, h, c.ffn, true)
		w.dense(c, c.ffn, h, true)
		lnWeights(c, w) // input_layernorm
	}
	lnWeights(c, w) // final_layernorm
	rotaryHead(c, w)
	if c.arch.Decoder.HeadBias {
		w.add(v, v*dt)
	}
}

// lnWeights adds an nn.LayerNorm's weight and bias.
func lnWeights(c *config, w *weights) {
	w.add(c.hidden, c.hidden*c.dt)
	w.add(c.hidden, c.hidden*c.dt)
}

// parallelBlock is GPTNeoXLayer or PhiDecoderLayer: LayerNorm, the
// projections, the partial rotary embedding, cache update, attention,
// the output projection; then the MLP on the layer's input normalised
// again (GPT-NeoX) or on the same normalised input (Phi); both outputs
// and the input summed by two adds. Dropouts are identities in eval mode.
func (m *model) parallelBlock(l int, x int32, in layerIn) int32 {
	q, kv, kvLen, mask := in.q, in.kv, in.kvLen, in.mask
	c, s := m.c, m.s
	quirks := &c.arch.Decoder
	h, dt := c.hidden, c.dt
	T := c.batch * q
	qd, kd := c.heads*c.headDim, c.kvHeads*c.headDim
	act := func(n int64) int32 { return s.alloc(n, CatActivations) }
	y := m.layerNorm(x, T)
	var proj []int32 // the projections' outputs, alive until the attention returns
	if quirks.FusedQKV {
		proj = []int32{m.linear(y, T, h, qd+2*kd)}
	} else {
		proj = []int32{m.linear(y, T, h, qd), m.linear(y, T, h, kd), m.linear(y, T, h, kd)}
	}
	rq, rk := m.rope(-1, T*qd/c.headDim*quirks.RotaryDim(c.headDim)), m.rope(-1, T*kd/c.headDim*quirks.RotaryDim(c.headDim))
	qe := act(T * qd * dt) // cat([q_embed, q_pass])
	if quirks.FusedQKV {
		// GPT-NeoX's apply_rotary_pos_emb rebinds q_embed and k_embed to
		// the concatenations; Phi's rotated halves stay its locals
		s.free(rq)
	}
	ke := act(T * kd * dt)
	if quirks.FusedQKV {
		s.free(rk)
	}
	k, v := m.update(l, ke, -1, q, kv)
	s.free(ke)
	if c.dec.eagerF32 {
		// GPT-J rebinds value to the cache's copy: its projection goes
		// (q's and k's stay, viewed by the rotary halves; dev93's trace)
		s.free(proj[2])
		proj = proj[:2]
	}
	if (c.dec.mathAttn || c.dec.eagerF32) && c.static && kv.max > 0 {
		// Falcon's math kernel and GPT-J's own attention read the
		// StaticCache's full tensors, in the prefill too (late81's
		// falcon-7b StaticCache point: -5.24% allocated priced over the
		// prompt's keys; late85's GPT-J one -1.69%)
		kvLen = kv.max
	}
	o := m.attend(qe, k, v, q, kvLen, mask)
	if mask < 0 && q > 1 && !c.eager && dt == 2 {
		// the concatenated query is laid out [b, heads, q, head_dim]:
		// flash attention writes its output so and the interface's
		// transpose(1, 2).contiguous() copies it (as Phi-3's)
		cp := act(T * qd * dt)
		s.free(o)
		o = cp
	}
	p := m.linear(o, T, qd, h)
	s.free(o, qe)
	s.free(proj...)
	if !quirks.FusedQKV {
		s.free(rq, rk)
	}
	mi := y
	if quirks.Parallel == "two-norm" {
		s.free(y) // the attention's argument, gone when it returns
		mi = m.layerNorm(x, T)
	}
	f := m.linear(mi, T, h, c.ffn)
	var g int32
	if quirks.Act == "gelu_new" {
		g = m.geluNew(T * c.ffn * dt)
	} else {
		g = act(T * c.ffn * dt)
	}
	s.free(f)
	d := m.linear(g, T, c.ffn, h)
	s.free(g)
	if quirks.Parallel == "two-norm" {
		s.free(mi) // the MLP's argument
	}
	sum := act(T * h * dt) // the MLP's output + the attention's
	out := act(T * h * dt) // ... + the residual
	s.free(sum)
	s.free(d, p)
	if quirks.Parallel != "two-norm" {
		s.free(y) // Phi's hidden_states, a local until the layer returns
	}
	s.free(m.outHeld...)
	m.outHeld, m.layerHeld = m.layerHeld, nil
	m.release(x)
	return out
}

package infer

// GPT-J (EleutherAI/gpt-j-6b's architecture) as transformers'
// GPTJForCausalLM runs it under generate: parallelBlock with one LayerNorm
// feeding both branches, q/k/v and out_proj without biases, the rotary
// embedding on the first rotary_dim of each head, fc_in/fc_out with biases,
// an untied LM head with a bias, and GPT-J's own attention whatever is
// asked (transformers runs it eager, with a float 4-D mask): q and k upcast
// to float32, their float32 product masked, divided by a float32 scale,
// softmax, cast back (held until the next layer returns), the product with v
// (attendGPTJ).
func init() {
	registerDecoder(&decoder{
		family: "gptj", weights: gptjWeights, embed: llamaEmbed,
		block: (*model).parallelBlock, norm: (*model).layerNorm,
		// vLLM's fc_in output and its GELU's
		servedMLP: 2,
		eagerF32:  true,
	})
}

// gptjWeights lists GPTJForCausalLM's parameters in construction order:
// wte, per layer ln_1, q/k/v_proj and out_proj (no biases), fc_in and
// fc_out (biases), and each attention's float32 position table (a buffer of
// n_positions × rotary_dim); ln_f; lm_head with its bias.
func gptjWeights(c *config, w *weights) {
	h, v, dt := c.hidden, c.vocab, c.dt
	qd := c.heads * c.headDim
	w.add(v*h, v*h*dt)
	rd := c.arch.Decoder.RotaryDim(c.headDim)
	pos := int64(max(c.arch.MaxPos, 1))
	for l := int64(0); l < c.layers; l++ {
		lnWeights(c, w)
		// each attention's own float32 embed_positions buffer,
		// n_positions × rotary_dim (dev92's trace: 0.5 MiB a layer)
		w.tensors = append(w.tensors, pos*rd*4)
		w.bytes += pos * rd * 4
		w.dense(c, h, qd, false)
		w.dense(c, h, qd, false)
		w.dense(c, h, qd, false)
		w.dense(c, qd, h, false)
		w.dense(c, h, c.ffn, true)
		w.dense(c, c.ffn, h, true)
	}
	lnWeights(c, w)
	w.head = v * h * dt
	w.add(v*h, v*h*dt) // lm_head, untied
	w.embed = v * h * dt
	w.add(v, v*dt) // its bias
}

// attendGPTJ is GPTJAttention._attn over kvLen keys: query and key cast
// to float32 (locals until it returns), their product in float32 (the
// transposed key copied contiguous first: dev92's trace), where()
// with the mask, the division by the float32 scale, softmax, the cast to
// the value's dtype and the product with v; _merge_heads' copy is the
// output.
func (m *model) attendGPTJ(q, kvLen int64) int32 {
	c, s := m.c, m.s
	b, nh, hd, dt := c.batch, c.heads, c.headDim, c.dt
	tmp := func(n int64) int32 { return s.alloc(n, CatTemporaries) }
	T := b * q
	sc := b * nh * q * kvLen
	q32 := tmp(T * nh * hd * 4)
	k32 := tmp(b * nh * kvLen * hd * 4)
	kt := tmp(b * nh * kvLen * hd * 4) // matmul's copy of the float32 key, transposed
	w := tmp(sc * 4)                   // matmul
	s.free(kt)
	wm := tmp(sc * 4)
	s.free(w) // torch.where(mask, w, min)
	wd := tmp(sc * 4)
	s.free(wm) // / scale_attn
	sm := tmp(sc * 4)
	s.free(wd) // softmax
	p := tmp(sc * dt)
	s.free(sm) // .to(value.dtype)
	o := tmp(T * nh * hd * dt)
	s.free(q32, k32)
	// the weights are returned beside the output: the layer's outputs
	// tuple holds them until the next layer returns (dev93's trace: the
	// previous layer's cast probabilities alive in this one's attention)
	m.layerHeld = append(m.layerHeld, p)
	out := s.alloc(T*nh*hd*dt, CatActivations) // _merge_heads
	s.free(o)
	return out
}

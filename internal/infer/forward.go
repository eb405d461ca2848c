package infer

// cache is the key/value cache of every layer as generate keeps it.
type cache struct {
	k, v []int32
	n    int64 // tokens held
	max  int64 // StaticCache length (0 for DynamicCache)
}

func newCache(layers int) *cache {
	c := &cache{k: make([]int32, layers), v: make([]int32, layers)}
	for i := range c.k {
		c.k[i], c.v[i] = -1, -1
	}
	return c
}

// forward writes one model forward of q new tokens per sequence, with
// kv.n tokens already cached, to the stream: what transformers 5's
// LlamaForCausalLM / GPT2LMHeadModel allocate under torch.no_grad or
// inference_mode with the SDPA (or eager) attention interface. It returns
// the logits tensor (batch × vocab, logits_to_keep=1).
func (m *model) forward(q int64, kv *cache) int32 {
	c, s := m.c, m.s
	b, h, dt := c.batch, c.hidden, c.dt
	T := b * q
	act := func(n int64) int32 { return s.alloc(n, CatActivations) }
	tmp := func(n int64) int32 { return s.alloc(n, CatTemporaries) }

	// the keys attended: a StaticCache's full length once it holds tokens
	// (its prefill attends the prompt's own keys: the transformers 5.17
	// trace shows neither a mask nor repeated K/V there)
	kvLen := kv.n + q
	staticDecode := c.static && kv.n > 0
	if staticDecode {
		kvLen = kv.max
	}
	// the 4-D mask: skipped (is_causal) when nothing is padded and the
	// query covers the keys or is one token (masking_utils
	// _ignore_causal_mask_sdpa); a StaticCache pads the keys to its full
	// length, so its decode mask is materialised as b×1×q×kv booleans
	mask := int32(-1)
	masked := staticDecode || c.eager
	if masked {
		// sdpa_mask without vmap: the causal function broadcast to q×kv,
		// and_masks' running result, the padding mask indexed to b×kv,
		// and the final b×1×q×kv
		am := tmp(b * (kv.n + q)) // attention_mask.to(bool)
		pm := tmp(b * kvLen)      // prepare_padding_mask pads to kv_length
		cm := tmp(q * kvLen)      // kv_idx <= q_idx
		r1 := tmp(q * kvLen)      // ones & causal
		s.free(cm)
		pi := tmp(b * kvLen) // padding_mask[batch_idx, kv_idx]
		mask = tmp(b * q * kvLen)
		s.free(am, pm, r1, pi)
		if c.eager {
			// eager_mask: the boolean mask turned into a dtype mask of min values
			fm := tmp(b * q * kvLen * dt)
			s.free(mask)
			mask = fm
		}
	}

	// inputs_embeds (and GPT-2's position_embeds) stay referenced by the
	// model's forward until it returns
	emb := act(T * h * dt) // embed_tokens / wte
	x := emb
	m.held = emb
	var cos, sin, pe int32 = -1, -1, -1
	if c.arch.Family == "gpt2" {
		pe = act(b * q * h * dt) // wpe(position_ids)
		x = act(T * h * dt)
	} else {
		cos, sin = m.rotary(q)
	}

	for l := 0; l < int(c.layers); l++ {
		var y int32
		if c.arch.Family == "gpt2" {
			y = m.gpt2Block(l, x, q, kv, kvLen, mask)
		} else {
			y = m.llamaBlock(l, x, q, kv, kvLen, mask, cos, sin)
		}
		x = y
	}
	kv.n += q

	// final norm over every token; the model returns (its embeddings,
	// rotary tables and mask go), then the LM head runs on the last token
	// only (generate sets logits_to_keep=1)
	y := m.norm(x, T)
	s.free(x, emb, pe, cos, sin, mask)
	logits := s.alloc(b*c.vocab*dt, CatLogits)
	s.free(y)
	return logits
}

// norm is RMSNorm (llama: float32 upcast, pow, mean, rsqrt, scale, cast
// back, weight) or LayerNorm (gpt2: one kernel, mean and rstd returned).
func (m *model) norm(x int32, T int64) int32 {
	c, s := m.c, m.s
	h, dt := c.hidden, c.dt
	act := func(n int64) int32 { return s.alloc(n, CatActivations) }
	if c.arch.Family == "gpt2" {
		y := act(T * h * dt)
		mean, rstd := act(T*4), act(T*4)
		s.free(mean, rstd)
		return y
	}
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

// linear is one projection of T rows from in to out features.
func (m *model) linear(x int32, T, in, out int64) int32 {
	c, s := m.c, m.s
	switch c.q {
	case quantInt4:
		// bitsandbytes 4-bit: batches of more than one row dequantise the
		// whole weight to the compute dtype first
		if T > 1 {
			w := s.alloc(in*out*c.dt, CatTemporaries)
			y := s.alloc(T*out*c.dt, CatActivations)
			s.free(w)
			return y
		}
	case quantInt8:
		// LLM.int8: the input quantised to int8 (with row scales), an
		// int32 product, then the dequantised output
		a := s.alloc(T*in, CatTemporaries)
		st := s.alloc(T*4, CatTemporaries)
		p := s.alloc(T*out*4, CatTemporaries)
		y := s.alloc(T*out*c.dt, CatActivations)
		s.free(a, st, p)
		return y
	}
	return s.alloc(T*out*c.dt, CatActivations)
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

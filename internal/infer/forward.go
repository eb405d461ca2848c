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
	b, dt := c.batch, c.dt
	T := b * q
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
	in := layerIn{q: q, kv: kv, kvLen: kvLen, mask: -1, cos: -1, sin: -1, slideMask: -1}
	if w := int64(c.arch.Decoder.SlidingWindow); w > 0 {
		in.slideKV = m.slidingKV(q, kv)
	}
	// the model's forward makes its masks after the embedding lookup and
	// before the rotary tables (the embed functions call it from rotary)
	m.masks = func() {
		if staticDecode || c.eager {
			in.mask = m.mask4D(q, kvLen, kv.n, false)
		}
		// masking_utils skips the sliding mask (is_causal) only while the
		// keys are fewer than the window; a StaticCache's decode (whose
		// keys are never the query's) and eager attention always get one
		if w := int64(c.arch.Decoder.SlidingWindow); w > 0 && (in.slideKV >= w || staticDecode || c.eager) {
			in.slideMask = m.mask4D(q, in.slideKV, kv.n, true)
		}
	}
	x, keep := c.dec.embed(m, q, &in)
	m.makeMasks()
	mask := in.mask
	// the embeddings are held by the model's forward, not by the first
	// block: it must not free its input when that is one of them
	m.held = -1
	for _, k := range keep {
		if k == x {
			m.held = x
		}
	}
	for l := 0; l < int(c.layers); l++ {
		x = c.dec.block(m, l, x, in)
	}
	kv.n += q

	// final norm over every token; the model returns (its embeddings,
	// rotary tables and mask go), then the LM head runs on the last token
	// only (generate sets logits_to_keep=1)
	y := c.dec.norm(m, x, T)
	s.free(x, mask, in.slideMask)
	s.free(m.outHeld...)
	m.outHeld = nil
	s.free(keep...)
	logits := s.alloc(b*c.vocab*dt, CatLogits)
	s.free(y)
	if c.arch.Decoder.LogitScale {
		// Granite's logits / logits_scaling
		scaled := s.alloc(b*c.vocab*dt, CatLogits)
		s.free(logits)
		logits = scaled
	}
	if c.arch.Decoder.FinalSoftcap > 0 {
		// Gemma 2's final_logit_softcapping: logits / cap, tanh, * cap
		for range 3 {
			n := s.alloc(b*c.vocab*dt, CatLogits)
			s.free(logits)
			logits = n
		}
	}
	return logits
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

// layerIn is what every decoder layer of one forward reads.
type layerIn struct {
	q, kvLen int64 // new tokens per sequence; keys attended
	kv       *cache
	mask     int32 // the materialised 4-D mask, or -1
	// slideKV and slideMask are the sliding layers' keys attended and
	// mask (-1: none)
	slideKV   int64
	slideMask int32
	cos, sin  int32 // rotary tables (LLaMA family), or -1
}

// mask4D is masking_utils' sdpa_mask without vmap for q queries over
// kvLen keys, held tokens already cached: the causal function broadcast
// to q×kv, and_masks' running result, the padding mask indexed to b×kv,
// and the final b×1×q×kv booleans; under eager attention the boolean mask
// turned into one of the compute dtype's min values.
func (m *model) mask4D(q, kvLen, held int64, sliding bool) int32 {
	c, s := m.c, m.s
	b := c.batch
	tmp := func(n int64) int32 { return s.alloc(n, CatTemporaries) }
	am := tmp(b * (held + q)) // attention_mask.to(bool)
	pm := tmp(b * kvLen)      // prepare_padding_mask pads to kv_length
	var r int32
	if sliding {
		// and_masks(sliding_overlay, causal, ...): the overlay's q×kv
		// booleans (from a q-long int64 bound), the running result after
		// each function, the causal function's (dev73's traces)
		lo := tmp(q * 8)
		ov := tmp(q * kvLen)
		s.free(lo)
		r1 := tmp(q * kvLen)
		s.free(ov)
		cm := tmp(q * kvLen)
		r2 := tmp(q * kvLen)
		s.free(cm, r1)
		r = tmp(q * kvLen)
		s.free(r2)
	} else {
		cm := tmp(q * kvLen) // kv_idx <= q_idx
		r = tmp(q * kvLen)   // ones & causal
		s.free(cm)
	}
	pi := tmp(b * kvLen) // padding_mask[batch_idx, kv_idx]
	mask := tmp(b * q * kvLen)
	s.free(am, pm, r, pi)
	if c.eager {
		fm := tmp(b * q * kvLen * c.dt)
		s.free(mask)
		mask = fm
	}
	return mask
}

// makeMasks runs the forward's pending mask construction once.
func (m *model) makeMasks() {
	if f := m.masks; f != nil {
		m.masks = nil
		f()
	}
}

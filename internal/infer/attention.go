package infer

// release frees a block's input once the block returns, unless the
// model's forward still holds it (inputs_embeds).
func (m *model) release(x int32) {
	if x != m.held {
		m.s.free(x)
	}
}

// update is Cache.update for layer l with q new tokens. DynamicLayer
// concatenates: torch.cat([keys, key_states], dim=-2) allocates the grown
// tensor and the old one is freed when the attribute is rebound (keys
// first, then values). StaticLayer allocates both full-length tensors
// (torch.zeros) at its first update and then writes in place. For gpt2,
// ke/vs are -1: its key and value states are views of c_attn's output.
func (m *model) update(l int, ke, vs int32, q int64, kv *cache) (k, v int32) {
	c, s := m.c, m.s
	per := c.batch * c.kvHeads * c.headDim * c.kv
	if c.kv != c.dt {
		// the new states cast to the cache dtype before they are stored
		ck, cv := s.alloc(per*q, CatTemporaries), s.alloc(per*q, CatTemporaries)
		defer s.free(ck, cv)
	}
	if c.arch.Decoder.Sliding(l) {
		return m.updateSliding(l, per, q, kv)
	}
	if c.static {
		if kv.k[l] < 0 {
			kv.k[l] = s.alloc(per*kv.max, CatKVCache)
			kv.v[l] = s.alloc(per*kv.max, CatKVCache)
		}
		return kv.k[l], kv.v[l]
	}
	nk := s.alloc(per*(kv.n+q), CatKVCache)
	s.free(kv.k[l])
	kv.k[l] = nk
	nv := s.alloc(per*(kv.n+q), CatKVCache)
	s.free(kv.v[l])
	kv.v[l] = nv
	return nk, nv
}

// attend is the attention interface's core for q queries over kvLen keys
// and returns the output (b×q×heads×head_dim). SDPA without a mask runs a
// fused kernel with GQA built in (transformers' use_gqa_in_sdpa); with a
// mask, repeat_kv first expands K and V to all heads, and the boolean mask
// becomes an additive one of the query dtype. Eager attention materialises the scores and
// a float32 softmax.
func (m *model) attend(qe, k, v int32, q, kvLen int64, mask int32) int32 {
	c, s := m.c, m.s
	b, nh, hd, dt := c.batch, c.heads, c.headDim, c.dt
	tmp := func(n int64) int32 { return s.alloc(n, CatTemporaries) }
	var held []int32
	if c.kv != c.dt {
		// a cache stored in fewer bytes is read back in the compute dtype
		per := b * c.kvHeads * kvLen * hd * dt
		held = append(held, tmp(per), tmp(per))
	}
	// repeat_kv's expand and reshape copies K and V to all heads, except
	// from a single key/value head, where the reshape is a view with a
	// zero stride (dev72's Gemma 3 1B and Gemma 2B traces hold no copy)
	if (mask >= 0 || c.eager) && nh != c.kvHeads && c.kvHeads > 1 {
		rep := b * nh * kvLen * hd * dt
		held = append(held, tmp(rep), tmp(rep)) // repeat_kv(key), repeat_kv(value)
	}
	T := b * q
	if c.dec.eagerF32 {
		s.free(held...)
		return m.attendGPTJ(q, kvLen)
	}
	if c.eager {
		sc := b * nh * q * kvLen
		w := tmp(sc * dt) // matmul(q, k^T)
		ws := tmp(sc * dt)
		s.free(w) // * scaling
		if c.arch.Decoder.AttnSoftcap > 0 {
			// Gemma 2's attn_logit_softcapping: / cap, tanh, * cap
			for range 3 {
				n := tmp(sc * dt)
				s.free(ws)
				ws = n
			}
		}
		wm := tmp(sc * dt)
		s.free(ws) // + causal_mask
		sm := tmp(sc * 4)
		s.free(wm) // softmax(dtype=float32)
		wl := tmp(sc * dt)
		s.free(sm) // .to(query.dtype)
		o := tmp(T * nh * hd * dt)
		s.free(wl)
		out := s.alloc(T*nh*hd*dt, CatActivations) // transpose(1, 2).contiguous()
		s.free(o)
		s.free(held...)
		return out
	}
	if mask < 0 && c.mathSDPA() {
		return m.attendMath(q, kvLen, held)
	}
	if mask >= 0 {
		// the boolean mask made additive in the query's dtype, a where()
		// between two 0-d tensors, of the mask's own shape: no boolean
		// logical_not and no padding of the keys to 16 (dev73's traces:
		// Gemma 3 1B's 8 MiB mask at b8 p1024 made only a 16 MiB
		// additive one, Gemma 2 2B's at b2 p5000 one of b×q×kv×2 bytes
		// exactly; TinyLlama's StaticCache decode over 319 keys one of
		// 2552 bytes at b4)
		zero, ninf := tmp(dt), tmp(dt)
		am := tmp(b * q * kvLen * dt)
		s.free(zero, ninf)
		held = append(held, am)
	}
	// the fused kernels allocate only their output: without autograd no
	// logsumexp is kept (should_compute_logsumexp), as the traces show
	out := s.alloc(T*nh*hd*dt, CatActivations)
	s.free(held...)
	return out
}

// attendMath is SDPA's math backend, which PyTorch 2.11 picks for float32
// grouped-query attention: flash and cuDNN attention take only fp16/bf16,
// and memory-efficient attention has no grouped K/V until after 2.11
// (pytorch#191085), so enable_gqa=True falls through to
// _scaled_dot_product_attention_math, in its order: the query scaled; under
// is_causal a ones(L, S).tril() mask turned into an additive float mask
// (logical_not, where); K and V repeat_interleave'd to all heads; the keys
// scaled; the scores (matmul), the mask added in place; _safe_softmax (the
// softmax and the boolean `eq(-inf)` mask of the scores — the captures
// show no third score-sized tensor for its final where); the output
// matmul, which transformers copies with transpose(1, 2).contiguous().
func (m *model) attendMath(q, kvLen int64, held []int32) int32 {
	c, s := m.c, m.s
	b, nh, hd, dt := c.batch, c.heads, c.headDim, c.dt
	tmp := func(n int64) int32 { return s.alloc(n, CatTemporaries) }
	// the kernel's dtype: half inputs are upcast to float32 first (a
	// mathAttn family's, Falcon's: its mask made additive, q, k and v
	// upcast; dev89's trace)
	ct := dt
	if dt != 4 {
		ct = 4
		kvh := c.kvHeads * kvLen * hd * 4 * b
		held = append(held, tmp(b*q*kvLen*dt), tmp(b*nh*q*hd*4), tmp(kvh), tmp(kvh))
	}
	kv := b * nh * kvLen * hd * ct
	scores := b * nh * q * kvLen
	held = append(held, tmp(b*nh*q*hd*ct)) // query * sqrt(scale)
	if q > 1 && !c.dec.mathAttn {          // is_causal
		ones := tmp(q * kvLen)
		tril := tmp(q * kvLen)
		s.free(ones)
		nm := tmp(q * kvLen)
		fm := tmp(q * kvLen * ct)
		s.free(nm, tril)
		held = append(held, fm)
	}
	held = append(held, tmp(kv), tmp(kv)) // repeat_interleave(key), (value)
	ks := tmp(kv)                         // key.transpose(-2, -1) * sqrt(scale)
	sc := tmp(scores * ct)
	s.free(ks)
	sm := tmp(scores * ct) // softmax
	eq := tmp(scores)      // eq(-inf)
	rows := tmp(b * nh * q)
	s.free(eq, rows, sc)
	o := tmp(b * nh * q * hd * ct)
	s.free(sm)
	if ct != dt {
		oc := tmp(b * nh * q * hd * dt) // cast back to the inputs' dtype
		s.free(o)
		o = oc
	}
	s.free(held...)
	out := s.alloc(b*q*nh*hd*dt, CatActivations) // transpose(1, 2).contiguous()
	s.free(o)
	return out
}

// slidingKV is the keys a sliding layer attends with q new tokens: a
// DynamicSlidingWindowLayer keeps the last window−1 tokens and attends
// them with the new ones; a StaticSlidingWindowLayer is min(window,
// max_cache_len) long and a decode step attends all of it, while the
// prefill attends the prompt's own keys, as a full StaticLayer's does
// (dev73's Gemma 2 StaticCache trace: a 1024-token prompt under a
// 4096-token window got no sliding mask and no repeated K/V).
func (m *model) slidingKV(q int64, kv *cache) int64 {
	w := int64(m.c.arch.Decoder.SlidingWindow)
	if m.c.static {
		if kv.n > 0 {
			return min(w, kv.max)
		}
		return q
	}
	return min(kv.n, w-1) + q
}

// updateSliding is a sliding layer's cache update (per bytes a token).
// DynamicSlidingWindowLayer concatenates its kept tokens with the new ones
// (torch.cat, a new tensor returned whole) and keeps a view of the last
// window−1 of it, so the whole concatenation stays alive until the next
// update replaces it; keys and values are concatenated before either old
// tensor goes. StaticSlidingWindowLayer allocates min(window,
// max_cache_len) tokens at its first update; a prefill longer than that
// returns the new states themselves (copying their tail in), and a decode
// step once it is full rolls keys and values into new tensors (and an
// index), copies them back and frees them.
func (m *model) updateSliding(l int, per, q int64, kv *cache) (k, v int32) {
	c, s := m.c, m.s
	w := int64(c.arch.Decoder.SlidingWindow)
	if c.static {
		n := min(w, kv.max)
		if kv.k[l] < 0 {
			kv.k[l] = s.alloc(per*n, CatKVCache)
			kv.v[l] = s.alloc(per*n, CatKVCache)
		}
		if kv.n >= n && q == 1 {
			rk, rv := s.alloc(per*n, CatTemporaries), s.alloc(per*n, CatTemporaries)
			idx := s.alloc(8, CatTemporaries)
			s.free(rk, rv, idx)
		}
		return kv.k[l], kv.v[l]
	}
	if kv.n == 0 {
		// lazy_initialization's cumulative length, a device scalar
		s.alloc(8, CatKVCache)
	}
	// both concatenations exist before the views of their tails replace
	// the old tensors (dev72's traces), unlike DynamicLayer's rebinding
	// of each as it is made
	held := min(kv.n, w-1)
	nk := s.alloc(per*(held+q), CatKVCache)
	nv := s.alloc(per*(held+q), CatKVCache)
	s.free(kv.k[l], kv.v[l])
	kv.k[l], kv.v[l] = nk, nv
	return nk, nv
}

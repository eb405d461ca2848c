package infer

// T5 (t5-*, flan-t5-*) as transformers 5's T5ForConditionalGeneration runs
// Hugging Face generate (dev94's traces), on the encoder-decoder loop
// BART's planner runs (encDecLoop): pre-norm layers with T5's RMS norm
// (the variance in float32, the normalised value cast back), q/k/v/o
// without biases, the relative position bias made once per stack and
// passed to every layer as SDPA's mask, ReLU or gated-GELU MLPs. The
// encoder's self-attention and the decoder's reach SDPA's math kernel
// (query, key and value upcast to float32, float32 scores and
// probabilities); the cross-attention, whose bias is zeros of the query
// dtype, runs a fused kernel (its output only).
func init() {
	registerDecoder(&decoder{
		family: "t5", weights: t5Weights, encDec: (*model).t5Generate, refuse: refuseServeEncDec,
		mathAttn: true, // the relative position bias: SDPA's math kernel (t5Math)
	})
}

// t5Weights lists T5ForConditionalGeneration's parameters in construction
// order: shared; per stack, each block's attention (q, k, v, o; the first
// block's relative_attention_bias), its layer norm, the decoder's
// cross-attention and its norm, the MLP (wi or wi_0 and wi_1, wo) and its
// norm; the stack's final_layer_norm; lm_head when untied (T5 v1.1).
func t5Weights(c *config, w *weights) {
	h, v, dt, ffn := c.hidden, c.vocab, c.dt, c.ffn
	inner := c.heads * c.headDim
	buckets := int64(max(c.arch.RelBuckets, 32))
	w.add(v*h, v*h*dt)
	stack := func(layers int64, cross bool) {
		for l := int64(0); l < layers; l++ {
			attn := func(bias bool) {
				w.dense(c, h, inner, false)
				w.dense(c, h, inner, false)
				w.dense(c, h, inner, false)
				w.dense(c, inner, h, false)
				if bias {
					w.add(buckets*c.heads, buckets*c.heads*dt)
				}
				w.add(h, h*dt) // layer_norm (a weight only)
			}
			attn(l == 0)
			if cross {
				attn(false)
			}
			w.dense(c, h, ffn, false)
			if c.arch.GatedFFN {
				w.dense(c, h, ffn, false)
			}
			w.dense(c, ffn, h, false)
			w.add(h, h*dt)
		}
		w.add(h, h*dt) // final_layer_norm
	}
	start := w.bytes
	stack(c.layers, false)
	w.encoderDone(start)
	stack(c.decLayers(), true)
	w.head = v * h * dt
	if !c.arch.Tied {
		// lm_head is read whole each step, the shared table by rows
		w.add(v*h, v*h*dt)
		w.embed = v * h * dt
	}
}

// t5Generate is generate for T5: the encoder pass, then gen decoder steps
// of one token, the head on the final norm's output (scaled by
// d_model^-0.5 first where the head is tied).
func (m *model) t5Generate() {
	m.encDecLoop(m.promptIDs, m.t5Encoder, m.t5DecoderStep, func(x int32) int32 {
		c, s := m.c, m.s
		if c.arch.Tied {
			sc := s.alloc(c.batch*c.hidden*c.dt, CatActivations)
			s.free(x)
			x = sc
		}
		logits := s.alloc(c.batch*c.vocab*c.dt, CatActivations)
		s.free(x)
		return logits
	}, false)
}

// t5Norm is T5LayerNorm over n elements: x.float() (x itself in
// float32) and its square (both freed once the variance is taken),
// x·rsqrt(variance) in float32, cast back to the weights' dtype, times the
// weight.
func (m *model) t5Norm(n int64) int32 {
	c, s := m.c, m.s
	tmp := func(b int64) int32 { return s.alloc(b, CatTemporaries) }
	if c.dt != 4 {
		s.free(tmp(n * 4))
	}
	s.free(tmp(n * 4))
	h := tmp(n * 4)
	if c.dt != 4 {
		cb := tmp(n * c.dt)
		s.free(h)
		h = cb
	}
	y := s.alloc(n*c.dt, CatActivations)
	s.free(h)
	return y
}

// t5Math is SDPA's math kernel as dev94's traces allocate it for q queries
// over kv keys: the float32 query, key and value (upcast copies of
// half-precision ones; float32 inputs are used as they are) and four more
// float32 operand-sized copies (two over a single query: the scaled query
// and keys; dev99's T5-large decode step), the float32 scores, the key
// copies freed, the softmax, its -inf mask (bool), the probabilities in the
// inputs' dtype, the float32 output and its cast back (none in float32);
// the interface's transpose(1, 2) .contiguous() copy is the result.
func (m *model) t5Math(q, kv int64) int32 {
	c, s := m.c, m.s
	b, nh, hd, dt := c.batch, c.heads, c.headDim, c.dt
	tmp := func(n int64) int32 { return s.alloc(n, CatTemporaries) }
	qn, kn := b*nh*q*hd*4, b*nh*kv*hd*4
	up := func(n int64) int32 {
		if dt == 4 {
			return -1
		}
		return tmp(n)
	}
	many := func(n int64) int32 {
		if q == 1 {
			return -1
		}
		return tmp(n)
	}
	ops := []int32{up(qn), up(kn), up(kn), tmp(qn), tmp(kn), many(kn), many(kn)}
	sc := b * nh * q * kv
	s1 := tmp(sc * 4)
	s.free(ops[6], ops[5], ops[4])
	s2 := tmp(sc * 4)
	s.free(tmp(sc))
	s.free(s1)
	p := tmp(sc * dt)
	o1, o2 := tmp(qn), tmp(qn)
	s.free(o1)
	out := up(b * nh * q * hd * dt)
	s.free(o2, s2, ops[3], ops[2], ops[1], ops[0], p)
	tr := s.alloc(b*q*nh*hd*dt, CatActivations)
	s.free(out)
	return tr
}

// t5Encoder is T5Stack (encoder) over the prompt: the embedding, the
// relative position bias of the first block (held by the stack), pre-norm
// self-attention and MLP sublayers, the final norm; it returns the
// encoder output.
func (m *model) t5Encoder() int32 {
	c, s := m.c, m.s
	S := c.seq
	T, d, dt := c.batch*S, c.hidden, c.dt
	inner := c.heads * c.headDim
	tmp := func(n int64) int32 { return s.alloc(n, CatTemporaries) }
	e := s.alloc(T*d*dt, CatActivations)
	// compute_bias: int64 bucket arithmetic over seq², then the bucket
	// embedding, [seq, seq, heads] in the weights' dtype
	buckets := tmp(S * S * 8)
	bias := tmp(S * S * c.heads * dt)
	s.free(buckets)
	x := e
	for l := int64(0); l < c.layers; l++ {
		y := m.t5Norm(T * d)
		q := tmp(T * inner * dt)
		if l == 0 {
			// cuBLAS's workspace, after the first projection's output
			// (dev94's traces)
			tmp(c.gpu.CublasWorkspaceBytes)
		}
		k, v := tmp(T*inner*dt), tmp(T*inner*dt)
		a := m.t5Math(S, S)
		o := tmp(T * d * dt)
		s.free(a, q, k, v)
		r := s.alloc(T*d*dt, CatActivations)
		s.free(o, y)
		if x != e {
			s.free(x)
		}
		out := m.t5MLP(T)
		s.free(r)
		x = out
	}
	y := m.t5Norm(T * d)
	s.free(x, bias, e)
	return y
}

// t5MLP is a pre-norm MLP sublayer over rows tokens of the residual stream:
// the norm, wi and ReLU (or wi_0, GELU, wi_1 and their product), wo, the
// residual sum, which it returns.
func (m *model) t5MLP(rows int64) int32 {
	c, s := m.c, m.s
	n, f := rows*c.hidden*c.dt, rows*c.ffn*c.dt
	tmp := func(k int64) int32 { return s.alloc(k, CatTemporaries) }
	y := m.t5Norm(rows * c.hidden)
	var g int32
	if c.arch.GatedFFN {
		w0 := tmp(f)
		a := m.geluNew(f)
		s.free(w0)
		w1 := tmp(f)
		g = tmp(f)
		s.free(a, w1)
	} else {
		w := tmp(f)
		g = tmp(f) // relu
		s.free(w)
	}
	o := tmp(n)
	s.free(g)
	r := s.alloc(n, CatActivations) // o + x: the caller frees x
	s.free(o, y)
	return r
}

// t5DecoderStep is T5Stack (decoder) over one new token a sequence: the
// embedding, per layer self-attention over the grown cache (its position
// bias recomputed for the new row; math kernel), cross-attention over the
// encoded prompt (keys and values projected and cached at the first step;
// a zeros bias; fused kernel) and the MLP; the final norm.
func (m *model) t5DecoderStep(kv *cache, cross []int32) int32 {
	c, s := m.c, m.s
	b, d, dt := c.batch, c.hidden, c.dt
	inner := c.heads * c.headDim
	n := b * d * dt
	tmp := func(k int64) int32 { return s.alloc(k, CatTemporaries) }
	T := b * c.seq
	e := s.alloc(n, CatActivations)
	x := e
	for l := 0; l < int(c.decLayers()); l++ {
		y := m.t5Norm(b * d)
		q, k, v := tmp(b*inner*dt), tmp(b*inner*dt), tmp(b*inner*dt)
		m.update(l, -1, -1, 1, kv)
		s.free(k, v)
		a := m.t5Math(1, kv.n+1)
		o := tmp(n)
		s.free(a, q)
		r := s.alloc(n, CatActivations)
		s.free(o, y)
		if x != e {
			s.free(x)
		}
		y2 := m.t5Norm(b * d)
		cq := tmp(b * inner * dt)
		zb := tmp(c.heads * c.seq * dt) // the cross-attention's zeros bias
		if cross[2*l] < 0 {
			ek, ev := tmp(T*inner*dt), tmp(T*inner*dt)
			cross[2*l] = s.alloc(T*inner*dt, CatKVCache)
			cross[2*l+1] = s.alloc(T*inner*dt, CatKVCache)
			s.free(ek, ev)
		}
		co := tmp(b * inner * dt)
		cp := tmp(n)
		s.free(co, cq, zb)
		r2 := s.alloc(n, CatActivations)
		s.free(cp, y2, r)
		out := m.t5MLP(b)
		s.free(r2)
		x = out
	}
	y := m.t5Norm(b * d)
	s.free(x, e)
	return y
}

package infer

// One decoder layer of the LLaMA-like families under generate, as
// transformers 5 runs it, its variations read from the architecture's
// quirks (memmodel.DecoderQuirks) as training's buildDecoder reads them:
//   - Norm: LLaMA's RMSNorm (""), OLMo 2's with the weight applied in
//     float32 ("f32w"), Gemma's x·(1+w) in float32 ("f32w1p"), OLMo's
//     LayerNorm without parameters ("ln") or nn.LayerNorm ("lnb",
//     StarCoder2);
//   - PlainMLP (StarCoder2): up, activation, down instead of SwiGLU;
//   - NormPlace "post" (OLMo 2): no norm before attention or the MLP, one
//     on each's output before the residual add; "sandwich" (Gemma 2 and
//     3): both;
//   - QKNorm: per head ("head", Qwen3) or over the whole projection
//     ("full", OLMo 2), each projection normed as it comes, or after all
//     three (QKNormLate, Gemma 3);
//   - a sliding layer (Gemma 2 and 3) attends its window's keys under its
//     own mask;
//   - ResidScale (Granite): each branch's output multiplied by a constant
//     before the residual add, one more tensor;
//   - LearnedPos (OPT): no rotary embedding; QScale: the query projection
//     multiplied by 1/√head_dim, a new tensor; NormPlace "after"
//     (OPT-350m): each LayerNorm after its residual add.

// decoderBlock is one decoder layer: norm, q/k/v projections (and their
// norms), rotary, cache update, attention, o_proj, residual add, norm,
// SwiGLU MLP, residual add. It returns the new hidden states and frees the
// old.
func (m *model) decoderBlock(l int, x int32, in layerIn) int32 {
	q, kv, kvLen, mask := in.q, in.kv, in.kvLen, in.mask
	c, s := m.c, m.s
	quirks := &c.arch.Decoder
	if quirks.Sliding(l) {
		kvLen, mask = in.slideKV, in.slideMask
	}
	post := quirks.NormPlace == "post" || quirks.NormPlace == "after"
	after := quirks.NormPlace == "after"
	b, h := c.batch, c.hidden
	T := b * q
	qd, kd := c.heads*c.headDim, c.kvHeads*c.headDim
	// the normed input stays referenced by the layer until self_attn
	// returns, q_embed until the attention's locals go (after o_proj)
	y := x
	if !post {
		y = m.norm(x, T)
	}
	proj := func(out int64) int32 {
		p := m.linear(y, T, h, out)
		var n int32
		switch quirks.QKNorm {
		case "head":
			n = m.normW(p, T*out/c.headDim, c.headDim)
		case "full":
			n = m.normW(p, T, out)
		default:
			return p
		}
		s.free(p)
		return n
	}
	var qs, ks, vs int32
	if quirks.QKNormLate {
		// Gemma 3 projects all three, then norms q and k per head
		qp, kp := m.linear(y, T, h, qd), m.linear(y, T, h, kd)
		vs = m.linear(y, T, h, kd)
		qs = m.normW(qp, T*qd/c.headDim, c.headDim)
		s.free(qp)
		ks = m.normW(kp, T*kd/c.headDim, c.headDim)
		s.free(kp)
	} else {
		qs = proj(qd)
		if quirks.QScale {
			sc := s.alloc(T*qd*c.dt, CatActivations)
			s.free(qs)
			qs = sc
		}
		ks = proj(kd)
		vs = m.linear(y, T, h, kd)
	}
	qe, ke := qs, ks
	if !quirks.LearnedPos {
		qe, ke = m.castBack(m.rope(qs, T*qd), m.rope(ks, T*kd), T*qd, T*kd)
		s.free(qs, ks)
	}
	k, v := m.update(l, ke, vs, q, kv)
	s.free(ke, vs)
	o := m.attend(qe, k, v, q, kvLen, mask)
	p := m.linear(o, T, qd, h)
	s.free(o, qe)
	if !post {
		s.free(y)
	}
	p = m.branchOut(p, T)
	// the layer's input stays alive until the layer returns: the model's
	// loop still holds it
	r := s.alloc(T*h*c.dt, CatActivations) // residual + hidden_states
	s.free(p)
	if after {
		n := m.norm(r, T)
		s.free(r)
		r = n
	}
	y = r
	if !post {
		y = m.norm(r, T)
	}
	d := m.mlp(y, T)
	if !post {
		s.free(y)
	}
	d = m.branchOut(d, T)
	out := s.alloc(T*h*c.dt, CatActivations)
	s.free(d)
	if after {
		n := m.norm(out, T)
		s.free(out)
		out = n
	}
	s.free(r)
	m.release(x)
	return out
}

// mlp is the layer's MLP on y (T rows): SwiGLU (gate, act, up, their
// product, down) or, with PlainMLP (StarCoder2), up, act, down.
func (m *model) mlp(y int32, T int64) int32 {
	c, s := m.c, m.s
	h := c.hidden
	act := func() int32 { return s.alloc(T*c.ffn*c.dt, CatActivations) }
	if c.arch.Decoder.PlainMLP {
		f := m.linear(y, T, h, c.ffn)
		a := act()
		s.free(f)
		d := m.linear(a, T, c.ffn, h)
		s.free(a)
		return d
	}
	g := m.linear(y, T, h, c.ffn)
	a := act() // act_fn(gate)
	s.free(g)
	u := m.linear(y, T, h, c.ffn)
	pr := act() // act * up
	s.free(a, u)
	d := m.linear(pr, T, c.ffn, h)
	s.free(pr)
	return d
}

// branchOut is what a layer does to an attention or MLP output before the
// residual add: OLMo 2's post-norm (Gemma 2 and 3's second norm of the
// sandwich), Granite's residual_multiplier; each a new tensor, the old
// freed.
func (m *model) branchOut(p int32, T int64) int32 {
	quirks := &m.c.arch.Decoder
	if quirks.NormPlace == "post" || quirks.NormPlace == "sandwich" {
		n := m.norm(p, T)
		m.s.free(p)
		p = n
	}
	if quirks.ResidScale {
		sc := m.s.alloc(T*m.c.hidden*m.c.dt, CatActivations)
		m.s.free(p)
		p = sc
	}
	return p
}

// norm is the family's norm over T rows of the hidden width.
func (m *model) norm(x int32, T int64) int32 {
	return m.normW(x, T, m.c.hidden)
}

// normW is the family's norm over T rows of width h (q/k norms: head_dim
// or the projection's width).
func (m *model) normW(x int32, T, h int64) int32 {
	c, s := m.c, m.s
	dt := c.dt
	act := func(n int64) int32 { return s.alloc(n, CatActivations) }
	if c.arch.Decoder.Norm == "lnb" {
		// nn.LayerNorm with weight and bias (StarCoder2): one kernel
		return m.layerNorm(x, T)
	}
	up := x
	if dt != 4 {
		up = act(T * h * 4) // hidden_states.to(torch.float32)
	}
	if c.arch.Decoder.Norm == "ln" {
		// OlmoLayerNorm: F.layer_norm without weight or bias in float32
		// (native_layer_norm also returns the mean and rstd), cast back
		n := act(T * h * 4)
		mean, rstd := act(T*4), act(T*4)
		s.free(mean, rstd)
		if up != x {
			s.free(up)
		}
		if dt == 4 {
			return n
		}
		y := act(T * h * dt)
		s.free(n)
		return y
	}
	if c.arch.Decoder.Norm == "f32w1p" {
		return m.normOnePlus(x, up, T, h)
	}
	f32w := c.arch.Decoder.Norm == "f32w"
	sq := act(T * h * 4) // pow(2)
	v := act(T * 4)      // mean(-1, keepdim=True)
	s.free(sq)
	ve := act(T * 4) // + eps
	r := act(T * 4)  // rsqrt
	if f32w {
		// Olmo2RMSNorm keeps the variance until it returns (dev71's
		// trace)
		s.free(ve)
	} else {
		s.free(v, ve)
	}
	n := act(T * h * 4) // hidden_states * rsqrt
	s.free(r)
	if up != x {
		s.free(up)
	}
	if dt == 4 {
		y := act(T * h * dt) // weight * hidden_states
		s.free(n)
		if f32w {
			s.free(v)
		}
		return y
	}
	if f32w {
		// (weight * hidden_states).to(input_dtype), the product in
		// float32
		w := act(T * h * 4)
		y := act(T * h * dt)
		s.free(w, n, v)
		return y
	}
	low := act(T * h * dt) // .to(input_dtype)
	y := act(T * h * dt)   // weight * ...
	s.free(low, n)
	return y
}

// normOnePlus is Gemma's RMSNorm on x (up: x in float32, x itself when
// it is): _norm(x.float()) returns x·rsqrt(mean(x²)+eps) in float32, its
// intermediates gone; the weight is made float32 and one added to it
// (two vectors), the product taken in float32 and cast back (type_as).
func (m *model) normOnePlus(x, up int32, T, h int64) int32 {
	c, s := m.c, m.s
	dt := c.dt
	act := func(n int64) int32 { return s.alloc(n, CatActivations) }
	sq := act(T * h * 4) // pow(2)
	v := act(T * 4)      // mean(-1, keepdim=True)
	s.free(sq)
	ve := act(T * 4) // + eps
	s.free(v)
	r := act(T * 4) // rsqrt
	s.free(ve)
	n := act(T * h * 4) // x * rsqrt
	s.free(r)
	if up != x {
		s.free(up)
	}
	wf := int32(-1)
	if dt != 4 {
		wf = act(h * 4) // self.weight.float()
	}
	w1 := act(h * 4) // 1.0 + ...
	if wf >= 0 {
		s.free(wf)
	}
	p := act(T * h * 4) // output * (1 + w)
	s.free(w1, n)
	if dt == 4 {
		return p
	}
	y := act(T * h * dt) // type_as(x)
	s.free(p)
	return y
}

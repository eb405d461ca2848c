package infer

import "github.com/vramkit/vramkit/internal/memmodel"

// The layers of the BART-like encoder-decoders (BART, mBART, MarianMT,
// Whisper) under generate, one code path with the layout of each: where
// the LayerNorms sit and what each attention copies.

// encDecLayout is how one family's encoder-decoder layers allocate.
type encDecLayout struct {
	// preNorm: a LayerNorm before each sublayer, whose residual add is the
	// sublayer's output (mBART, Whisper); otherwise the LayerNorm of the
	// residual sum follows it (BART, Marian)
	preNorm bool
	// scaledQuery: q_proj's output times the scaling is a new tensor
	// (Whisper; BART's family hands the scale to SDPA)
	scaledQuery bool
	// contiguous: over more than one token the query, key and value are
	// copied contiguous after the head split, and SDPA's output after its
	// transpose (Whisper)
	contiguous bool
	// transposed: the encoder's residual stream keeps its input's
	// transposed layout, so each encoder LayerNorm copies its input
	// contiguous first (Whisper's convolution front end)
	transposed bool
}

// lnOut is a LayerNorm's output over n bytes, with its input's contiguous
// copy first where copy is set.
func (m *model) lnOut(n int64, copy bool) int32 {
	s := m.s
	var cp int32 = -1
	if copy {
		cp = s.alloc(n, CatTemporaries)
	}
	y := s.alloc(n, CatActivations)
	if cp >= 0 {
		s.free(cp)
	}
	return y
}

// query is an attention's query over n bytes: q_proj, and per the layout
// the scaling's tensor and the contiguous copy (many tokens).
func (m *model) query(lay *encDecLayout, n int64, many bool) int32 {
	s := m.s
	q := s.alloc(n, CatTemporaries)
	if m.wsPending {
		m.wsPending = false
		m.matmulWorkspaces()
	}
	if lay.scaledQuery {
		sq := s.alloc(n, CatTemporaries)
		s.free(q)
		q = sq
	}
	if lay.contiguous && many {
		cq := s.alloc(n, CatTemporaries)
		s.free(q)
		q = cq
	}
	return q
}

// keyValue is a key or value projection over n bytes, and its
// contiguous copy where the layout makes one (the projection freed).
func (m *model) keyValue(lay *encDecLayout, n int64) int32 {
	s := m.s
	p := s.alloc(n, CatTemporaries)
	if lay.contiguous {
		y := s.alloc(n, CatTemporaries)
		s.free(p)
		p = y
	}
	return p
}

// attnOut is SDPA's output over n bytes, its contiguous transpose where
// the layout makes one (many tokens), and out_proj, which it returns.
func (m *model) attnOut(lay *encDecLayout, n int64, many bool) int32 {
	s := m.s
	o := s.alloc(n, CatTemporaries)
	if lay.contiguous && many {
		oc := s.alloc(n, CatTemporaries)
		s.free(o)
		o = oc
	}
	p := s.alloc(n, CatTemporaries)
	s.free(o)
	return p
}

// residual closes a sublayer whose output is p (n bytes), with done (its
// locals) freed first: the residual add and, post-norm, its LayerNorm;
// it returns the sublayer's result.
func (m *model) residual(lay *encDecLayout, n int64, p int32, done ...int32) int32 {
	s := m.s
	s.free(done...)
	r := s.alloc(n, CatActivations)
	s.free(p)
	if lay.preNorm {
		return r
	}
	y := s.alloc(n, CatActivations)
	s.free(r)
	return y
}

// encDecMLP is the MLP sublayer over rows tokens on x (the caller's): pre-norm,
// the LayerNorm (copying first where copy is set), fc1, the activation,
// fc2 and the residual add; post-norm, the residual add's LayerNorm last.
func (m *model) encDecMLP(lay *encDecLayout, rows int64, copy bool) int32 {
	c, s := m.c, m.s
	n, f := rows*c.hidden*c.dt, rows*c.ffn*c.dt
	var ln int32 = -1
	if lay.preNorm {
		ln = m.lnOut(n, copy)
	}
	f1 := s.alloc(f, CatTemporaries)
	g := s.alloc(f, CatTemporaries)
	s.free(f1)
	if ln >= 0 {
		s.free(ln)
	}
	o := s.alloc(n, CatTemporaries)
	s.free(g)
	return m.residual(lay, n, o)
}

// encLayer is one encoder layer over T rows on x (freed when it
// returns): self-attention, then the MLP; it returns the layer's output.
func (m *model) encLayer(lay *encDecLayout, x int32, T int64) int32 {
	c, s := m.c, m.s
	n := T * c.hidden * c.dt
	var ln int32 = -1
	if lay.preNorm {
		ln = m.lnOut(n, lay.transposed)
	}
	q := m.query(lay, n, true)
	k, v := m.keyValue(lay, n), m.keyValue(lay, n)
	p := m.attnOut(lay, n, true)
	y := m.residual(lay, n, p, q, k, v, ln)
	out := m.encDecMLP(lay, T, lay.transposed)
	s.free(y, x)
	return out
}

// decLayer is decoder layer l over one new token a sequence on x (freed
// when it returns): self-attention over the grown cache kv, then
// cross-attention over the T encoded rows, whose keys and values are
// projected and cached at the first step (cross), then the MLP.
func (m *model) decLayer(lay *encDecLayout, l int, x int32, kv *cache, cross []int32, T int64) int32 {
	c, s := m.c, m.s
	n := c.batch * c.hidden * c.dt
	var ln, ln2 int32 = -1, -1
	if lay.preNorm {
		ln = m.lnOut(n, false)
	}
	q := m.query(lay, n, false)
	k, v := s.alloc(n, CatTemporaries), s.alloc(n, CatTemporaries)
	m.update(l, -1, -1, 1, kv)
	s.free(k, v)
	p := m.attnOut(lay, n, false)
	y := m.residual(lay, n, p, q, ln)
	if lay.preNorm {
		ln2 = m.lnOut(n, false)
	}
	cq := m.query(lay, n, false)
	if cross[2*l] < 0 {
		e := T * c.hidden * c.dt
		ek, ev := m.keyValue(lay, e), m.keyValue(lay, e)
		cross[2*l] = s.alloc(e, CatKVCache)
		cross[2*l+1] = s.alloc(e, CatKVCache)
		s.free(ek, ev)
	}
	p2 := m.attnOut(lay, n, false)
	y2 := m.residual(lay, n, p2, cq, ln2)
	s.free(y)
	out := m.encDecMLP(lay, c.batch, false)
	s.free(y2, x)
	return out
}

// encDecLayerWeights adds one BART-like layer's parameters in
// construction order: the self-attention's k, v, q and out projections
// (k's bias only where kBias: Whisper's k_proj has none) and its
// LayerNorm, the decoder's cross-attention (cross) likewise, fc1, fc2 and
// the final LayerNorm.
func encDecLayerWeights(c *config, w *weights, kBias, cross bool) {
	h := c.hidden
	attn := func() {
		w.dense(c, h, h, kBias)
		for range 3 {
			w.dense(c, h, h, true)
		}
		lnWeights(c, w)
	}
	attn()
	if cross {
		attn()
	}
	w.dense(c, h, c.ffn, true)
	w.dense(c, c.ffn, h, true)
	lnWeights(c, w)
}

// matmulWorkspaces is what the encoder's first biased projection (q_proj)
// allocates right after its output (query, once model.wsPending is set)
// and the handles keep for the life of the process: cuBLAS's workspace
// and cuBLASLt's (memmodel.CublasLtWorkspace), which runs the bias
// epilogue. Ahead of the first layer's LayerNorm copies, as first
// written, it moved a 24 MiB block of dev99's Whisper base float32 trace
// into a segment of its own (-3.5% reserved; -0.3% after q_proj), and
// BART-base b64's (+3.8%; +0.4%).
func (m *model) matmulWorkspaces() {
	m.s.alloc(m.c.gpu.CublasWorkspaceBytes, CatTemporaries)
	m.s.alloc(memmodel.CublasLtWorkspace, CatTemporaries)
}

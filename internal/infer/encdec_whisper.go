package infer

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// Whisper (openai/whisper-*) as transformers 5's
// WhisperForConditionalGeneration runs its own generate, short form
// (dev95's traces): the log-mel window (num_mel_bins × 2·max_source_positions
// frames) and _get_input_segment's copy of it are held for the whole
// call; the encoder runs once inside generate (two Conv1d + GELU, the
// sinusoidal positions, pre-norm layers, layer_norm) and its output is
// held as encoder_outputs; the decoder then runs on encDecLoop as BART's
// does, pre-norm, its cross-attention caching the encoder output's keys
// and values at the first step. The encoder's residual stream keeps the
// convolution's transposed layout, so each of its LayerNorms first copies
// its input contiguous; each attention scales the query after its
// projection (one more tensor) and, over more than one token, makes the
// query, key and value contiguous after the head split.
func init() {
	registerDecoder(&decoder{
		family: "whisper", weights: whisperWeights, encDec: (*model).whisperGenerate, refuse: refuseServeEncDec,
		audio: &audioInput{
			positions: whisperSourceLen,
			input: func(c *config) string {
				return fmt.Sprintf("one 30 s log-mel window (%d×%d features, %d encoder positions)", c.arch.MelBins, 2*c.seq, c.seq)
			},
			note: "Whisper: short-form generate over one 30 s window (longer audio is generated window by window, at this memory); the decoder starts from one token, and a checkpoint's language, task and no-timestamps tokens add up to 3 more (a few KiB)",
		},
	})
}

// whisperSourceLen is the encoder's length: max_source_positions, what
// its two convolutions make of the 30 s window, whatever the prompt.
func whisperSourceLen(c *config) (int64, error) {
	n := int64(c.arch.SourcePos)
	if n <= 0 {
		return 0, fmt.Errorf("%s has no max_source_positions", c.arch.Name)
	}
	if s := int64(c.spec.Seq); s != 0 && s != n {
		return 0, fmt.Errorf("%s's encoder sees one 30 s window, %d positions: leave seq out (got %d)", c.arch.Name, n, s)
	}
	return n, nil
}

// whisperWeights lists WhisperForConditionalGeneration's parameters in
// construction order: the encoder's conv1 and conv2 (with biases), its
// position table, its layers (k, v, q and out projections, k without a
// bias; their LayerNorm; fc1, fc2 and the final LayerNorm) and
// layer_norm; the decoder's token and position tables, its layers (the
// same plus encoder_attn and its LayerNorm) and layer_norm. proj_out is
// the token table once tied; its own weight, built first, is freed then.
func whisperWeights(c *config, w *weights) {
	h, v, dt, ffn := c.hidden, c.vocab, c.dt, c.ffn
	mel := int64(c.arch.MelBins)
	w.add(h*mel*3, h*mel*3*dt)
	w.add(h, h*dt)
	w.add(h*h*3, h*h*3*dt)
	w.add(h, h*dt)
	w.add(c.seq*h, c.seq*h*dt)
	attn := func() {
		w.dense(c, h, h, false)
		for range 3 {
			w.dense(c, h, h, true)
		}
		lnWeights(c, w)
	}
	layers := func(n int64, cross bool) {
		for range n {
			attn()
			if cross {
				attn()
			}
			w.dense(c, h, ffn, true)
			w.dense(c, ffn, h, true)
			lnWeights(c, w)
		}
		lnWeights(c, w)
	}
	layers(c.layers, false)
	pos := int64(max(c.arch.MaxPos, 1))
	w.add(v*h, v*h*dt)
	w.add(pos*h, pos*h*dt)
	layers(c.decLayers(), true)
	w.head, w.embed = v*h*dt, v*h*dt
	w.dropped = append(w.dropped, v*h*dt) // proj_out's own weight, until tie_weights
}

// whisperGenerate is Whisper's generate: the features and their segment
// copy, the encoder pass, then gen decoder steps of one token and the
// head (proj_out, no bias).
func (m *model) whisperGenerate() {
	c, s := m.c, m.s
	feats := func() []int32 {
		n := c.batch * int64(c.arch.MelBins) * 2 * c.seq * c.dt
		return []int32{s.alloc(n, CatTemporaries), s.alloc(n, CatTemporaries)}
	}
	m.encDecLoop(feats, m.whisperEncoder, m.whisperDecoderStep, func(x int32) int32 {
		logits := s.alloc(c.batch*c.vocab*c.dt, CatActivations)
		s.free(x)
		return logits
	})
}

// whisperEncoder is WhisperEncoder over the window: conv1 and its GELU
// over 2·seq frames, conv2 (stride 2) and its GELU over seq, each
// convolution with cuDNN's workspace, the position ids and
// table rows (locals until it returns), their sum, the layers and
// layer_norm, whose output it returns.
func (m *model) whisperEncoder() int32 {
	c, s := m.c, m.s
	T, d, dt := c.batch*c.seq, c.hidden, c.dt
	tmp := func(n int64) int32 { return s.alloc(n, CatTemporaries) }
	mel := int64(c.arch.MelBins)
	// each convolution's output, then cuDNN's workspace for it (asked and
	// freed within the call), then its GELU
	conv := func(in, out, weight int64) int32 {
		y := tmp(out)
		s.free(tmp(memmodel.GeneralConvWorkspace(in, out, weight)))
		return y
	}
	c1 := conv(2*T*mel*dt, 2*T*d*dt, d*mel*3*dt)
	g1 := tmp(2 * T * d * dt)
	s.free(c1)
	c2 := conv(2*T*d*dt, T*d*dt, d*d*3*dt)
	g2 := tmp(T * d * dt)
	s.free(c2, g1)
	ids := tmp(c.seq * 8)
	pos := tmp(c.seq * d * dt)
	x := s.alloc(T*d*dt, CatActivations)
	s.free(pos)
	// the first matmul's cuBLAS workspace and, q_proj having a bias,
	// cuBLASLt's, both kept by their handles
	tmp(c.gpu.CublasWorkspaceBytes)
	tmp(memmodel.CublasLtWorkspace)
	for l := int64(0); l < c.layers; l++ {
		r := m.whisperAttnSub(x, T)
		out := m.whisperMLPSub(r, T, true)
		s.free(r, x)
		x = out
	}
	y := m.whisperNorm(T*d*dt, true)
	s.free(x, g2, ids)
	return y
}

// whisperNorm is a LayerNorm's output over n bytes; contiguous (the
// encoder's transposed residual stream) copies its input first.
func (m *model) whisperNorm(n int64, contiguous bool) int32 {
	s := m.s
	var cp int32 = -1
	if contiguous {
		cp = s.alloc(n, CatTemporaries)
	}
	y := s.alloc(n, CatActivations)
	if cp >= 0 {
		s.free(cp)
	}
	return y
}

// whisperQuery is the query: q_proj, the scaling (a new tensor), and over
// more than one token its contiguous copy after the head split.
func (m *model) whisperQuery(n int64, many bool) int32 {
	s := m.s
	p := s.alloc(n, CatTemporaries)
	q := s.alloc(n, CatTemporaries)
	s.free(p)
	if many {
		cq := s.alloc(n, CatTemporaries)
		s.free(q)
		q = cq
	}
	return q
}

// whisperProj is a key or value projection over many tokens and its
// contiguous copy (the projection freed).
func (m *model) whisperProj(n int64) int32 {
	s := m.s
	p := s.alloc(n, CatTemporaries)
	y := s.alloc(n, CatTemporaries)
	s.free(p)
	return y
}

// whisperAttnSub is an encoder layer's self-attention sublayer on x (T
// rows): the LayerNorm's contiguous copy and output, the query, key and
// value, SDPA's output and its contiguous transpose, out_proj, then the
// residual, which it returns (x is the caller's).
func (m *model) whisperAttnSub(x int32, T int64) int32 {
	c, s := m.c, m.s
	n := T * c.hidden * c.dt
	ln := m.whisperNorm(n, true)
	q := m.whisperQuery(n, true)
	k, v := m.whisperProj(n), m.whisperProj(n)
	p := m.whisperAttnOut(n)
	s.free(q, k, v, ln)
	r := s.alloc(n, CatActivations)
	s.free(p)
	return r
}

// whisperAttnOut is SDPA's output over n bytes, its contiguous transpose
// and out_proj, which it returns.
func (m *model) whisperAttnOut(n int64) int32 {
	s := m.s
	o := s.alloc(n, CatTemporaries)
	oc := s.alloc(n, CatTemporaries)
	s.free(o)
	p := s.alloc(n, CatTemporaries)
	s.free(oc)
	return p
}

// whisperMLPSub is a pre-norm MLP sublayer over rows tokens on the
// residual r (the caller's): the LayerNorm (copying its input first in
// the encoder, contiguous), fc1, GELU, fc2 and the residual add, which it
// returns.
func (m *model) whisperMLPSub(r int32, rows int64, contiguous bool) int32 {
	c, s := m.c, m.s
	n, f := rows*c.hidden*c.dt, rows*c.ffn*c.dt
	ln := m.whisperNorm(n, contiguous)
	f1 := s.alloc(f, CatTemporaries)
	g := s.alloc(f, CatTemporaries)
	s.free(f1, ln)
	o := s.alloc(n, CatTemporaries)
	s.free(g)
	out := s.alloc(n, CatActivations)
	s.free(o)
	return out
}

// whisperDecoderStep is WhisperDecoder over one new token a sequence: the
// token embedding and its position rows (locals until it returns), their
// sum, then per layer self-attention over the grown cache,
// cross-attention over the encoded window (its keys and values projected,
// made contiguous and cached at the first step) and the MLP, each
// pre-norm; layer_norm's output is returned.
func (m *model) whisperDecoderStep(kv *cache, cross []int32) int32 {
	c, s := m.c, m.s
	b, d, dt := c.batch, c.hidden, c.dt
	n := b * d * dt
	tmp := func(k int64) int32 { return s.alloc(k, CatTemporaries) }
	e, pos := tmp(n), tmp(n)
	x := s.alloc(n, CatActivations)
	T := c.batch * c.seq
	for l := 0; l < int(c.decLayers()); l++ {
		ln := m.whisperNorm(n, false)
		q := m.whisperQuery(n, false)
		k, v := tmp(n), tmp(n)
		m.update(l, -1, -1, 1, kv)
		s.free(k, v)
		p := m.whisperAttnOut(n)
		s.free(q, ln)
		r1 := s.alloc(n, CatActivations)
		s.free(p)
		ln2 := m.whisperNorm(n, false)
		cq := m.whisperQuery(n, false)
		if cross[2*l] < 0 {
			ek, ev := m.whisperProj(T*d*dt), m.whisperProj(T*d*dt)
			cross[2*l] = s.alloc(T*d*dt, CatKVCache)
			cross[2*l+1] = s.alloc(T*d*dt, CatKVCache)
			s.free(ek, ev)
		}
		p2 := m.whisperAttnOut(n)
		s.free(cq, ln2)
		r2 := s.alloc(n, CatActivations)
		s.free(p2, r1)
		out := m.whisperMLPSub(r2, b, false)
		s.free(r2, x)
		x = out
	}
	y := m.whisperNorm(n, false)
	s.free(x, e, pos)
	return y
}

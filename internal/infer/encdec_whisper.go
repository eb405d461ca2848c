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
			setup: 1.6e-3, setupPerSeq: 0.5e-3,
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
// the token table.
func whisperWeights(c *config, w *weights) {
	h, v, dt := c.hidden, c.vocab, c.dt
	mel := int64(c.arch.MelBins)
	start := w.bytes
	w.add(h*mel*3, h*mel*3*dt)
	w.add(h, h*dt)
	w.add(h*h*3, h*h*3*dt)
	w.add(h, h*dt)
	w.add(c.seq*h, c.seq*h*dt)
	layers := func(n int64, cross bool) {
		for range n {
			encDecLayerWeights(c, w, false, cross)
		}
		lnWeights(c, w)
	}
	layers(c.layers, false)
	w.encoderDone(start)
	pos := int64(max(c.arch.MaxPos, 1))
	w.add(v*h, v*h*dt)
	w.add(pos*h, pos*h*dt)
	layers(c.decLayers(), true)
	w.head = v * h * dt // the token table, read whole by each step's head
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
	}, false)
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
	m.wsPending = true
	for l := int64(0); l < c.layers; l++ {
		x = m.encLayer(&whisperLayout, x, T)
	}
	y := m.lnOut(T*d*dt, true)
	s.free(x, g2, ids)
	return y
}

// whisperLayout is Whisper's: pre-norm layers, the query scaled into a
// new tensor, the heads' and SDPA's copies, and the encoder's transposed
// residual stream.
var whisperLayout = encDecLayout{preNorm: true, scaledQuery: true, contiguous: true, transposed: true}

// whisperDecoderStep is WhisperDecoder over one new token a sequence: the
// token embedding and its position rows (locals until it returns), their
// sum, the pre-norm layers, and layer_norm's output, which it returns.
func (m *model) whisperDecoderStep(kv *cache, cross []int32) int32 {
	c, s := m.c, m.s
	n := c.batch * c.hidden * c.dt
	e, pos := s.alloc(n, CatTemporaries), s.alloc(n, CatTemporaries)
	x := s.alloc(n, CatActivations)
	for l := 0; l < int(c.decLayers()); l++ {
		x = m.decLayer(&whisperLayout, l, x, kv, cross, c.batch*c.seq)
	}
	y := m.lnOut(n, false)
	s.free(x, e, pos)
	return y
}

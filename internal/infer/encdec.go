package infer

import "fmt"

// BART as transformers 5's BartForConditionalGeneration runs Hugging Face
// generate (dev94's traces): the prompt is the encoder's input, encoded
// once (_prepare_encoder_decoder_kwargs_for_generation) and held as
// encoder_outputs for the whole call; the decoder then runs one token a
// step from its start token, each layer's self-attention growing a
// DynamicCache and its cross-attention projecting the encoder output to
// keys and values once, at the first step, into the EncoderDecoderCache's
// second cache. The LM head is the tied embedding, plus final_logits_bias.
func init() {
	registerDecoder(&decoder{
		family: "bart", weights: bartWeights, encDec: (*model).bartGenerate, refuse: refuseServeEncDec,
	})
}

// refuseServeEncDec is why a serve plan refuses an encoder-decoder family.
func refuseServeEncDec(c *config) error {
	return fmt.Errorf("%s is an encoder-decoder model: vLLM's engine serves decoder-only models; plan Hugging Face generate (--task generate)", c.arch.Name)
}

// bartWeights lists BartForConditionalGeneration's parameters in
// construction order: the shared embedding; per side the learned
// positions (max_position_embeddings + 2 rows), the layers (k, v, q and
// out projections with biases, their LayerNorm, the decoder's
// cross-attention and its LayerNorm, fc1, fc2 and the final LayerNorm)
// and layernorm_embedding; final_logits_bias, a buffer of one row of the
// vocabulary. The head is the shared embedding.
func bartWeights(c *config, w *weights) {
	h, v, dt, ffn := c.hidden, c.vocab, c.dt, c.ffn
	pos := int64(c.arch.MaxPos) + 2
	w.add(v*h, v*h*dt)
	side := func(layers int64, cross bool) {
		w.add(pos*h, pos*h*dt)
		for l := int64(0); l < layers; l++ {
			attn := func() {
				for range 4 {
					w.dense(c, h, h, true)
				}
				lnWeights(c, w)
			}
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
	side(c.layers, false)
	side(c.decLayers(), true)
	w.tensors = append(w.tensors, v*dt) // final_logits_bias
	w.bytes += v * dt
	w.head, w.embed = v*h*dt, v*h*dt
}

// decLayers is the decoder's layer count (the encoder's where the config
// gives none).
func (c *config) decLayers() int64 {
	if c.arch.DecLayers > 0 {
		return int64(c.arch.DecLayers)
	}
	return c.layers
}

// crossKVBytes is the cross-attention cache: every decoder layer's keys
// and values over the prompt's encoded tokens.
func (c *config) crossKVBytes() int64 {
	return 2 * c.batch * c.heads * c.headDim * c.seq * c.dt * c.decLayers()
}

// bartGenerate is generate for BART: the encoder pass, then gen decoder
// steps of one token, the tied head plus final_logits_bias.
func (m *model) bartGenerate() {
	m.encDecLoop(m.promptIDs, m.bartEncoder, m.bartDecoderStep, func(x int32) int32 {
		c, s := m.c, m.s
		logits := s.alloc(c.batch*c.vocab*c.dt, CatActivations)
		s.free(x)
		biased := s.alloc(c.batch*c.vocab*c.dt, CatActivations) // + final_logits_bias
		s.free(logits)
		return biased
	})
}

// promptIDs is a text encoder-decoder's inputs: the prompt's ids and its
// attention mask.
func (m *model) promptIDs() []int32 {
	n := m.c.batch * m.c.seq * 8
	return []int32{m.s.alloc(n, CatTemporaries), m.s.alloc(n, CatTemporaries)}
}

// encDecLoop is an encoder-decoder's generate: its inputs (the prompt's
// ids and mask, or Whisper's features), the encoder's pass (held as encoder_outputs), then per step the
// decoder over one token a sequence (step, growing the self-attention
// cache kv and filling the cross-attention cache at the first step), the
// head on its output (head, which frees it), the float32 copy of the
// logits, the argmax and the decoder's ids grown by a column.
func (m *model) encDecLoop(inputs func() []int32, encoder func() int32, step func(kv *cache, cross []int32) int32, head func(x int32) int32) {
	c, s := m.c, m.s
	b := c.batch
	s.phase = PhaseLoad
	for _, t := range m.w.tensors {
		s.alloc(t, CatWeights)
	}
	for _, t := range m.w.dropped {
		s.free(s.alloc(t, CatWeights))
	}
	s.phase = PhasePrefill
	tmp := func(n int64) int32 { return s.alloc(n, CatTemporaries) }
	heldIn := inputs()
	before, traffic0 := s.n, s.trafficBytes
	enc := encoder()
	dec := tmp(b * 8) // the decoder's ids: its start token, a column a step
	kv, cross := newCache(int(c.decLayers())), make([]int32, 2*c.decLayers())
	for i := range cross {
		cross[i] = -1
	}
	prevL32 := int32(-1)
	for st := int64(0); st < max(c.gen, 1); st++ {
		if st > 0 {
			s.phase = PhaseDecode
			before, traffic0 = s.n, s.trafficBytes
		}
		s.step = int(st)
		in, cs := tmp(b*8), tmp(8)
		logits := head(step(kv, cross))
		kv.n++
		var next int32
		prevL32, next, dec = m.pickNext(prevL32, dec, st+2)
		s.free(logits, cs, in, next)
		m.recordStep(st, before, traffic0)
	}
	s.free(prevL32, enc, dec)
	s.free(heldIn...)
	s.free(cross...)
}

// bartEncoder is BartEncoder over the prompt: the scaled token embedding
// and the learned positions (locals until it returns), their sum through
// layernorm_embedding, then post-norm layers; it returns the last
// layer's output.
func (m *model) bartEncoder() int32 {
	c, s := m.c, m.s
	T, d, dt := c.batch*c.seq, c.hidden, m.c.dt
	tmp := func(n int64) int32 { return s.alloc(n, CatTemporaries) }
	e := tmp(T * d * dt)
	sc := tmp(T * d * dt) // * embed_scale, a new tensor even at 1.0
	s.free(e)
	pos := tmp(T * d * dt)
	sum := tmp(T * d * dt)
	x := s.alloc(T*d*dt, CatActivations) // layernorm_embedding
	s.free(sum)
	tmp(c.gpu.CublasWorkspaceBytes) // the first matmul's, kept by the handle
	for l := int64(0); l < c.layers; l++ {
		x = m.encLayer(&bartLayout, x, T)
	}
	s.free(sc, pos)
	return x
}

// bartLayout is BART's (and Marian's): post-norm layers, the query's
// scale handed to SDPA, nothing copied.
var bartLayout = encDecLayout{}

// bartDecoderStep is BartDecoder over one new token a sequence: the
// scaled embedding, the positions (one row, broadcast), their sum through
// layernorm_embedding, then per layer self-attention over the grown
// cache, cross-attention over the encoded prompt (its keys and values
// projected and cached at the first step) and the MLP, each post-norm.
// It returns the last layer's output (b rows).
func (m *model) bartDecoderStep(kv *cache, cross []int32) int32 {
	c, s := m.c, m.s
	b, d, dt := c.batch, c.hidden, c.dt
	n := b * d * dt
	tmp := func(k int64) int32 { return s.alloc(k, CatTemporaries) }
	e := tmp(n)
	sc := tmp(n) // * embed_scale
	s.free(e)
	pos := tmp(d * dt)
	sum := tmp(n)
	x := s.alloc(n, CatActivations)
	s.free(sum)
	for l := 0; l < int(c.decLayers()); l++ {
		x = m.decLayer(&bartLayout, l, x, kv, cross, c.batch*c.seq)
	}
	s.free(sc, pos)
	return x
}

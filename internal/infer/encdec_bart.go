package infer

// BART and its relatives as transformers 5 runs them under Hugging Face
// generate, on the encoder-decoder loop (encDecLoop): the prompt encoded
// once (_prepare_encoder_decoder_kwargs_for_generation) and held as
// encoder_outputs; the decoder one token a step from its start token,
// each layer's self-attention growing a DynamicCache and its
// cross-attention projecting the encoder output to keys and values once,
// at the first step, into the EncoderDecoderCache's second cache. The LM
// head is the tied embedding plus final_logits_bias. What sets the
// relatives apart is a bartKind, read from memmodel.BARTOpts:
//   - BART (dev94): post-norm layers, learned positions offset by 2,
//     layernorm_embedding;
//   - mBART (dev96): pre-norm layers, layernorm_embedding and a final
//     layer_norm per stack;
//   - MarianMT (dev96): BART's post-norm layers on static sinusoidal
//     positions, no embedding LayerNorm;
//   - Pegasus (dev100): mBART's pre-norm layers and final layer_norms on
//     Marian's embeddings.
//
// Each scales its token embedding into a new tensor (even at 1.0).
func init() {
	for _, f := range []string{"bart", "mbart", "marian", "pegasus"} {
		registerDecoder(&decoder{
			family: f, weights: bartWeights, encDec: bartGenerate, refuse: refuseServeEncDec,
		})
	}
}

// bartKind is what sets one of BART's relatives apart under generate,
// read from the model's layout (memmodel.BARTOpts, the one the training
// builder reads).
type bartKind struct {
	layout *encDecLayout
	// embedLN: layernorm_embedding after each stack's embeddings
	embedLN bool
	// finalLN: a layer_norm at the end of each stack
	finalLN bool
	// sinusoidal: static position tables of max_position_embeddings rows
	// (the encoder's positions one row per token position, broadcast over
	// the batch); otherwise learned tables of 2 more rows read per token
	sinusoidal bool
}

// kindOf is c's model's bartKind.
func kindOf(c *config) *bartKind {
	o := c.arch.BART
	k := &bartKind{layout: &bartLayout, embedLN: !o.NoEmbedNorm, finalLN: o.PreNorm, sinusoidal: o.Sinusoidal}
	if o.PreNorm {
		k.layout = &mbartLayout
	}
	return k
}

// bartLayout is BART's (and Marian's): post-norm layers, the query's
// scale handed to SDPA, nothing copied; mbartLayout is mBART's pre-norm.
var (
	bartLayout  = encDecLayout{}
	mbartLayout = encDecLayout{preNorm: true}
)

// bartWeights is the model's weights (bartKind.weights).
func bartWeights(c *config, w *weights) { kindOf(c).weights(c, w) }

// bartGenerate is the model's generate (bartKind.generate).
func bartGenerate(m *model) { kindOf(m.c).generate(m) }

// weights lists the model's parameters in construction order: the shared
// embedding; per stack the position table, the layers (k, v, q and out
// projections with biases, their LayerNorm, the decoder's cross-attention
// and its LayerNorm, fc1, fc2 and the final LayerNorm), layernorm_embedding
// and layer_norm where the kind has them; final_logits_bias, a buffer of
// one row of the vocabulary. The head is the shared embedding.
func (k *bartKind) weights(c *config, w *weights) {
	h, v, dt := c.hidden, c.vocab, c.dt
	pos := int64(c.arch.MaxPos) + 2
	if k.sinusoidal {
		pos = int64(c.arch.MaxPos)
	}
	w.add(v*h, v*h*dt)
	side := func(layers int64, cross bool) {
		w.add(pos*h, pos*h*dt)
		for range layers {
			encDecLayerWeights(c, w, true, cross)
		}
		if k.embedLN {
			lnWeights(c, w)
		}
		if k.finalLN {
			lnWeights(c, w)
		}
	}
	start := w.bytes
	side(c.layers, false)
	w.encoderDone(start)
	side(c.decLayers(), true)
	w.tensors = append(w.tensors, v*dt) // final_logits_bias
	w.bytes += v * dt
	w.head = v * h * dt // the shared table, read whole by each step's head
}

// generate is the kind's generate: the prompt's ids and mask, the encoder
// pass, then gen decoder steps of one token, the tied head plus
// final_logits_bias.
func (k *bartKind) generate(m *model) {
	m.encDecLoop(m.promptIDs, func() int32 { return k.encoder(m) },
		func(kv *cache, cross []int32) int32 { return k.decoderStep(m, kv, cross) },
		func(x int32) int32 {
			c, s := m.c, m.s
			logits := s.alloc(c.batch*c.vocab*c.dt, CatActivations)
			s.free(x)
			biased := s.alloc(c.batch*c.vocab*c.dt, CatActivations) // + final_logits_bias
			s.free(logits)
			return biased
		}, !m.c.arch.BART.NoForcedEOS)
}

// embed is a stack's input over rows tokens: the token embedding scaled
// into a new tensor (the unscaled one freed), the positions (posRows
// rows), their sum and layernorm_embedding where the kind has it. It
// returns the stack's first input and the locals held until the stack
// returns.
func (k *bartKind) embed(m *model, rows, posRows int64) (x int32, held []int32) {
	c, s := m.c, m.s
	n := rows * c.hidden * c.dt
	e := s.alloc(n, CatTemporaries)
	sc := s.alloc(n, CatTemporaries)
	s.free(e)
	pos := s.alloc(posRows*c.hidden*c.dt, CatTemporaries)
	if !k.embedLN {
		return s.alloc(n, CatActivations), []int32{sc, pos}
	}
	sum := s.alloc(n, CatTemporaries)
	x = s.alloc(n, CatActivations)
	s.free(sum)
	return x, []int32{sc, pos}
}

// encoder is the encoder over the prompt (its positions per token, or
// one row per position on sinusoidal tables), its layers and layer_norm
// where the kind has one; it returns the encoder's output.
func (k *bartKind) encoder(m *model) int32 {
	c, s := m.c, m.s
	T := c.batch * c.seq
	posRows := T
	if k.sinusoidal {
		posRows = c.seq
	}
	x, held := k.embed(m, T, posRows)
	m.wsPending = true
	for l := int64(0); l < c.layers; l++ {
		x = m.encLayer(k.layout, x, T)
	}
	if k.finalLN {
		y := m.lnOut(T*c.hidden*c.dt, false)
		s.free(x)
		x = y
	}
	s.free(held...)
	return x
}

// decoderStep is the decoder over one new token a sequence (its position
// one row, broadcast), the layers over the grown cache and the encoded
// prompt, and layer_norm where the kind has one; it returns the last
// output (b rows).
func (k *bartKind) decoderStep(m *model, kv *cache, cross []int32) int32 {
	c, s := m.c, m.s
	x, held := k.embed(m, c.batch, 1)
	for l := 0; l < int(c.decLayers()); l++ {
		x = m.decLayer(k.layout, l, x, kv, cross, c.batch*c.seq)
	}
	if k.finalLN {
		y := m.lnOut(c.batch*c.hidden*c.dt, false)
		s.free(x)
		x = y
	}
	s.free(held...)
	return x
}

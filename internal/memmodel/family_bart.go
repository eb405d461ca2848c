package memmodel

// The BART family: transformers' BartForConditionalGeneration
// (facebook/bart-base, bart-large and its CNN/XSum fine-tunes; config.json
// model_type bart). A post-norm encoder-decoder: the shared token
// embedding multiplied by embed_scale (a new tensor even at 1.0), learned
// positions offset by 2 (per batch row in the encoder, one row broadcast
// in the decoder), a LayerNorm and dropout on the embeddings; layers of
// q/k/v/out_proj with biases (the query's scale handed to SDPA), dropout
// and a residual add before each LayerNorm, a GELU MLP (fc1, fc2); the
// decoder's cross-attention casts the encoder output in every layer; the
// LM head tied to the shared embedding plus final_logits_bias, a float32
// buffer that promotes the logits to float32 before the loss.
//
// Its relatives share the builder (Arch.BART says how each departs):
// Marian (family_marian.go) and mBART (family_mbart.go); bart_config.go
// reads the three's config.json.

func init() {
	register(&Family{
		Name: "bart", Task: "seq2seq", Attention: true,
		// enable_input_require_grads' leaves, held (dev100)
		InputGradHeld: true,
		ModelTypes:    []string{"bart"},
		// PEFT's default target modules for bart
		LoRATargets: []string{"q_proj", "v_proj"},
		Models:      []Arch{bartArch("bart-base", 768, 6, 12, 3072), bartArch("bart-large", 1024, 12, 16, 4096)},
		Aliases: map[string]string{
			"facebook/bart-base": "bart-base", "facebook/bart-large": "bart-large",
			"facebook/bart-large-cnn": "bart-large", "facebook/bart-large-xsum": "bart-large", "bart-large-cnn": "bart-large",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildBART(b, a, in.Batch, in.Seq) },
		FromHF: bartFromHF,
	})
}

// bartBART is BART itself: the zero layout, GPT-2's vocabulary.
var bartBART = bartKin{family: "bart", class: "BartForConditionalGeneration", vocab: 50265}

func bartArch(name string, d, layers, heads, ffn int) Arch {
	return bartKinArch(bartBART, name, d, layers, heads, ffn)
}

func bartFromHF(_ string, data []byte) (Arch, error) { return bartKinFromHF(data, bartBART) }

// bartAttention is BartAttention with SDPA: q from x, k and v from kv
// (x itself, or the encoder output under cross-attention: each
// projection casts its own input under autocast), out_proj, dropout.
func (b *builder) bartAttention(x, kv Tensor, a *Arch, batch, sq, sk int64, causal bool) Tensor {
	d, heads := int64(a.Hidden), int64(a.Heads)
	q := b.linear(x, d, d, true, "q_proj")
	k := b.linear(kv, d, d, true, "k_proj")
	v := b.linear(kv, d, d, true, "v_proj")
	b.sel = true
	o := b.sdpaMask(q, k, v, -1, attnShape{batch: batch, heads: heads, sq: sq, sk: sk, hd: d / heads, causal: causal,
		dropout: a.AttnDropout})
	b.sel = false
	o = b.linear(o, d, d, true, "out_proj")
	// the module's hidden_states argument (mBART: its LayerNorm's
	// output) is bound until it returns, before the layer's dropout
	b.keep(x)
	return b.dropout(o, a.Dropout)
}

// bartResidual is a post-norm residual step: the branch's output added to
// the residual h (the dropout output dies with the add), then LayerNorm.
func (b *builder) bartResidual(h, branch Tensor, d int64) Tensor {
	s := b.add(h, branch)
	b.keep(branch)
	return b.layerNorm(s, d, true)
}

// bartMLP is fc1, the activation (GELU; Marian's SiLU), activation
// dropout, fc2 and dropout. The input is bound until the activation
// returns (activation_fn(fc1(hidden_states)) is one statement).
func (b *builder) bartMLP(h Tensor, a *Arch) Tensor {
	d, ff := int64(a.Hidden), int64(a.FFN)
	m := b.activation(a.BART.act(), b.linear(h, d, ff, true, "fc1"))
	b.keep(h)
	m = b.dropout(m, a.ActDropout)
	m = b.linear(m, ff, d, true, "fc2")
	return b.dropout(m, a.Dropout)
}

// bartEmbed is the scaled token embedding (a new tensor whatever the
// scale) plus the positions looked up for rows ids, the embeddings'
// LayerNorm (not Marian's) and dropout. It returns the stream and the two
// embeddings the stack holds until it returns.
func (b *builder) bartEmbed(ids, wte, wpe Tensor, a *Arch, rows int64) (Tensor, Tensor, Tensor) {
	d, vocab := int64(a.Hidden), int64(a.Vocab)
	e := b.scale(b.embedding(ids, wte, vocab, d))
	pos := b.g.newTensor(rows, I64, false)
	b.op("positions", nil, []Tensor{pos}, nil).noBackward = true
	pe := b.embedding(pos, wpe, a.BART.posRows(a), d)
	h := b.add(e, pe)
	if !a.BART.NoEmbedNorm {
		h = b.layerNorm(h, d, true)
	}
	h = b.dropout(h, a.Dropout)
	return h, e, pe
}

// bartPositions is a stack's position table: learned (offset by 2) or
// Marian's frozen sinusoids, a parameter autograd never reaches.
func (b *builder) bartPositions(a *Arch) Tensor {
	if !a.BART.Sinusoidal {
		return b.param(a.BART.posRows(a) * int64(a.Hidden))
	}
	fr := b.frozen
	b.frozen = true
	w := b.param(a.BART.posRows(a) * int64(a.Hidden))
	b.frozen = fr
	return w
}

// bartSublayer is one residual step of a layer around branch: post-norm
// (BART, Marian) adds the branch's output to h and normalises the sum;
// pre-norm (mBART) feeds the branch h's LayerNorm and adds its output to
// h.
func (b *builder) bartSublayer(h Tensor, a *Arch, branch func(x Tensor) Tensor) Tensor {
	d := int64(a.Hidden)
	if !a.BART.PreNorm {
		return b.bartResidual(h, branch(h), d)
	}
	br := branch(b.layerNorm(h, d, true))
	s := b.add(h, br)
	b.keep(br)
	return s
}

// bartFinalNorm is mBART's LayerNorm closing each stack (none in BART and
// Marian).
func (b *builder) bartFinalNorm(h Tensor, a *Arch, module string) Tensor {
	if !a.BART.PreNorm {
		return h
	}
	b.block, b.module = -1, module
	return b.layerNorm(h, int64(a.Hidden), true)
}

// buildBART follows transformers 5's BartForConditionalGeneration with
// SDPA as dev85's traces allocate it (the labels as decoder inputs), and
// Marian's and mBART's departures from it as dev96's traces do.
func buildBART(b *builder, a *Arch, batch, seq int64) {
	ids := b.textInput(batch, seq, batch*seq)
	// under LoRA the embeddings and each stack's first layer's frozen
	// projections read nothing requiring grad: autograd saves nothing
	defer b.noGradSaves(len(b.g.ops))
	d, vocab := int64(a.Hidden), int64(a.Vocab)
	b.module = "shared"
	wte := b.param(vocab * d)
	b.module = "encoder"
	wpe := b.bartPositions(a)
	// the encoder's learned positions are expanded per batch row; Marian's
	// sinusoids (and every decoder's positions) are one row broadcast
	rows := batch * seq
	if a.BART.Sinusoidal {
		rows = seq
	}
	h, e, pe := b.bartEmbed(ids, wte, wpe, a, rows)
	attn := func(kv Tensor, causal bool) func(Tensor) Tensor {
		return func(x Tensor) Tensor {
			if kv < 0 {
				return b.bartAttention(x, x, a, batch, seq, seq, causal)
			}
			return b.bartAttention(x, kv, a, batch, seq, seq, causal)
		}
	}
	mlp := func(x Tensor) Tensor { return b.bartMLP(x, a) }
	for l := 0; l < a.Layers; l++ {
		b.block = l
		b.module = layerModule(l, "encoder")
		in := h
		h1 := b.bartSublayer(h, a, attn(-1, false))
		h = b.bartSublayer(h1, a, mlp)
		// the layer's argument and its attention half's output stay
		// bound until the layer returns
		b.keep(in, h1)
	}
	h = b.bartFinalNorm(h, a, "encoder.layer_norm")
	// the decoder's embedding runs outside every checkpointed layer: what
	// it saves is held until backward (dev86's checkpointed fp16 trace:
	// the decoder's embedding sum, dropout output and mask, 54 MiB the
	// replay had dropped when they sat in the last encoder layer)
	b.block = -1
	b.keep(e, pe) // BartEncoder.forward's inputs_embeds and embed_pos
	// the traces (dev85's and dev96's) hold encoder_last_hidden_state in
	// the model output until the loss has run; held here it moves no
	// dev96 peak but BART's reserved placements by +0.2% (late79), so it
	// is left to die after the last cross-attention's projections
	enc := h
	b.module = "decoder"
	wpd := b.bartPositions(a)
	h, e, pe = b.bartEmbed(ids, wte, wpd, a, seq)
	for l := 0; l < a.DecLayers; l++ {
		b.block = a.Layers + l
		b.module = layerModule(l, "decoder")
		in := h
		h1 := b.bartSublayer(h, a, attn(-1, true))
		h2 := b.bartSublayer(h1, a, attn(enc, false))
		b.keep(h1)
		h = b.bartSublayer(h2, a, mlp)
		b.keep(in, h2)
	}
	h = b.bartFinalNorm(h, a, "decoder.layer_norm")
	b.keep(e, pe)
	b.block = -1
	b.g.blocks = a.Layers + a.DecLayers
	b.module = "lm_head"
	head := wte
	if !a.Tied {
		head = b.param(vocab * d) // tie_word_embeddings false
	}
	logits := b.linearWith(h, head, -1, d, vocab)
	// + final_logits_bias, a float32 buffer: float32 logits, the
	// half-precision product freed at once (an add that promotes, as a
	// cast does; its gradient is cast back)
	b.buffer(vocab * 4)
	logits = b.cast(logits, F32)
	b.g.returned = append(b.g.returned, logits)
	b.module = "loss"
	b.g.loss = b.crossEntropy(logits, vocab)
}

// BARTOpts is how a BART relative departs from BART's layout: zero is
// BART (post-norm, learned positions offset by 2, an embedding LayerNorm,
// GELU).
type BARTOpts struct {
	// PreNorm: each sublayer normalises its input and a LayerNorm closes
	// each stack (mBART's normalize_before, add_final_layer_norm).
	PreNorm bool `json:"pre_norm,omitempty"`
	// NoEmbedNorm: no LayerNorm on the embeddings (Marian).
	NoEmbedNorm bool `json:"no_embed_norm,omitempty"`
	// Sinusoidal: max_position_embeddings rows of fixed sinusoids, a
	// parameter that requires no grad, looked up under no_grad for one
	// row of positions (MarianSinusoidalPositionalEmbedding).
	Sinusoidal bool `json:"sinusoidal,omitempty"`
	// Act is the MLP's activation as builder.activation names it ("silu"
	// for Marian's swish); "" is GELU.
	Act string `json:"act,omitempty"`
	// NoForcedEOS: config.json sets forced_eos_token_id null, so generate
	// runs no ForcedEOSTokenLogitsProcessor (every class's default sets
	// one, which at the last step makes a float32 copy of the scores).
	// Training reads nothing of it.
	NoForcedEOS bool `json:"no_forced_eos,omitempty"`
}

func (o BARTOpts) act() string {
	if o.Act == "" {
		return "gelu"
	}
	return o.Act
}

// posRows is the rows of a stack's position table: BART's learned
// positions are offset by 2.
func (o BARTOpts) posRows(a *Arch) int64 {
	if o.Sinusoidal {
		return int64(a.MaxPos)
	}
	return int64(a.MaxPos) + 2
}

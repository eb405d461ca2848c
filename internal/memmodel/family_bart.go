package memmodel

import "fmt"

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

func init() {
	register(&Family{
		Name: "bart", Task: "seq2seq", Attention: true,
		ModelTypes: []string{"bart"},
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

func bartArch(name string, d, layers, heads, ffn int) Arch {
	return Arch{Name: name, Family: "bart", Hidden: d, Layers: layers, DecLayers: layers, Heads: heads, FFN: ffn,
		Vocab: 50265, MaxPos: 1024, DefaultSeq: 1024, Dropout: 0.1, Tied: true}
}

func bartFromHF(modelType string, data []byte) (Arch, error) {
	var h struct {
		hfEncDec
		MaxPos   int      `json:"max_position_embeddings"`
		AttnDrop *float64 `json:"attention_dropout"`
		ActDrop  *float64 `json:"activation_dropout"`
		Act      string   `json:"activation_function"`
		Tie      *bool    `json:"tie_word_embeddings"`
	}
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	if err := h.check(); err != nil {
		return Arch{}, err
	}
	if err := needPositive(hfKey{"vocab_size", h.Vocab}); err != nil {
		return Arch{}, err
	}
	if err := notNegative(hfKey{"max_position_embeddings", h.MaxPos}); err != nil {
		return Arch{}, err
	}
	if h.Act != "" && h.Act != "gelu" {
		return Arch{}, fmt.Errorf("config.json: activation_function %q: BART is modelled with gelu", h.Act)
	}
	if h.DModel%h.EncHeads != 0 {
		return Arch{}, fmt.Errorf("config.json: d_model %d is not a multiple of encoder_attention_heads %d", h.DModel, h.EncHeads)
	}
	a := bartArch(modelType, h.DModel, h.EncLayers, h.EncHeads, h.EncFFN)
	a.DecLayers, a.Vocab = h.DecLayers, h.Vocab
	if h.MaxPos > 0 {
		a.MaxPos, a.DefaultSeq = h.MaxPos, h.MaxPos
	}
	a.Dropout, a.AttnDropout = orF64(h.Dropout, 0.1), orF64(h.AttnDrop, 0)
	a.ActDropout = orF64(h.ActDrop, 0)
	a.Tied = orBool(h.Tie, true)
	return a, nil
}

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
	return b.dropout(o, a.Dropout)
}

// bartResidual is a post-norm residual step: the branch's output added to
// the residual h (the dropout output dies with the add), then LayerNorm.
func (b *builder) bartResidual(h, branch Tensor, d int64) Tensor {
	s := b.add(h, branch)
	b.keep(branch)
	return b.layerNorm(s, d, true)
}

// bartMLP is fc1, GELU, activation dropout, fc2 and dropout.
func (b *builder) bartMLP(h Tensor, a *Arch) Tensor {
	d, ff := int64(a.Hidden), int64(a.FFN)
	m := b.gelu(b.linear(h, d, ff, true, "fc1"))
	m = b.dropout(m, a.ActDropout)
	m = b.linear(m, ff, d, true, "fc2")
	return b.dropout(m, a.Dropout)
}

// bartEmbed is the scaled token embedding plus the learned positions
// (rows of pos rows each), the embeddings' LayerNorm and dropout. It
// returns the stream and the two embeddings the stack holds until it
// returns.
func (b *builder) bartEmbed(ids, wte, wpe Tensor, a *Arch, rows int64) (Tensor, Tensor, Tensor) {
	d, vocab := int64(a.Hidden), int64(a.Vocab)
	e := b.scale(b.embedding(ids, wte, vocab, d))
	pos := b.g.newTensor(rows, I64, false)
	b.op("positions", nil, []Tensor{pos}, nil).noBackward = true
	pe := b.embedding(pos, wpe, int64(a.MaxPos)+2, d)
	h := b.add(e, pe)
	h = b.dropout(b.layerNorm(h, d, true), a.Dropout)
	return h, e, pe
}

// buildBART follows transformers 5's BartForConditionalGeneration with
// SDPA as dev85's traces allocate it (the labels as decoder inputs).
func buildBART(b *builder, a *Arch, batch, seq int64) {
	ids := b.textInput(batch, seq, batch*seq)
	// under LoRA the embeddings and each stack's first layer's frozen
	// projections read nothing requiring grad: autograd saves nothing
	defer b.noGradSaves(len(b.g.ops))
	d, vocab := int64(a.Hidden), int64(a.Vocab)
	b.module = "shared"
	wte := b.param(vocab * d)
	b.module = "encoder"
	wpe := b.param((int64(a.MaxPos) + 2) * d)
	h, e, pe := b.bartEmbed(ids, wte, wpe, a, batch*seq)
	for l := 0; l < a.Layers; l++ {
		b.block = l
		b.module = layerModule(l, "encoder")
		in := h
		h1 := b.bartResidual(h, b.bartAttention(h, h, a, batch, seq, seq, false), d)
		h = b.bartResidual(h1, b.bartMLP(h1, a), d)
		// the layer's argument and its attention half's output stay
		// bound until the layer returns
		b.keep(in, h1)
	}
	// the decoder's embedding runs outside every checkpointed layer: what
	// it saves is held until backward (dev86's checkpointed fp16 trace:
	// the decoder's embedding sum, dropout output and mask, 54 MiB the
	// replay had dropped when they sat in the last encoder layer)
	b.block = -1
	b.keep(e, pe) // BartEncoder.forward's inputs_embeds and embed_pos
	enc := h
	b.module = "decoder"
	wpd := b.param((int64(a.MaxPos) + 2) * d)
	h, e, pe = b.bartEmbed(ids, wte, wpd, a, seq)
	for l := 0; l < a.DecLayers; l++ {
		b.block = a.Layers + l
		b.module = layerModule(l, "decoder")
		in := h
		h1 := b.bartResidual(h, b.bartAttention(h, h, a, batch, seq, seq, true), d)
		h2 := b.bartResidual(h1, b.bartAttention(h1, enc, a, batch, seq, seq, false), d)
		b.keep(h1)
		h = b.bartResidual(h2, b.bartMLP(h2, a), d)
		b.keep(in, h2)
	}
	b.keep(e, pe)
	b.block = -1
	b.g.blocks = a.Layers + a.DecLayers
	b.module = "lm_head"
	logits := b.linearWith(h, wte, -1, d, vocab)
	// + final_logits_bias, a float32 buffer: float32 logits, the
	// half-precision product freed at once (an add that promotes, as a
	// cast does; its gradient is cast back)
	b.buffer(vocab * 4)
	logits = b.cast(logits, F32)
	b.g.returned = append(b.g.returned, logits)
	b.module = "loss"
	b.g.loss = b.crossEntropy(logits, vocab)
}

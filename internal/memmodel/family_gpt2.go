package memmodel

// The GPT-2 family: transformers' GPT2LMHeadModel.

func init() {
	register(&Family{
		Name: "gpt2", Task: "causal-lm", Attention: true, Captured: true, Activation: true,
		ModelTypes:  []string{"gpt2"},
		LoRATargets: []string{"c_attn"},
		Models: []Arch{
			gpt2("gpt2", 768, 12, 12),
			gpt2("gpt2-medium", 1024, 24, 16),
			gpt2("gpt2-large", 1280, 36, 20),
			gpt2("gpt2-xl", 1600, 48, 25),
		},
		Aliases: map[string]string{
			"openai-community/gpt2": "gpt2", "gpt2-small": "gpt2", "openai-community/gpt2-medium": "gpt2-medium",
			"openai-community/gpt2-large": "gpt2-large", "openai-community/gpt2-xl": "gpt2-xl",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildGPT2(b, a, in.Batch, in.Seq, in.Cache) },
		FromHF: gpt2FromHF,
	})
}

func gpt2(name string, hidden, layers, heads int) Arch {
	return Arch{Name: name, Family: "gpt2", Hidden: hidden, Layers: layers, Heads: heads, FFN: 4 * hidden,
		Vocab: 50257, MaxPos: 1024, Dropout: 0.1, AttnDropout: 0.1, Tied: true, DefaultSeq: 1024}
}

func gpt2FromHF(_ string, data []byte) (Arch, error) {
	var h struct {
		NEmbd      int      `json:"n_embd"`
		NLayer     int      `json:"n_layer"`
		NHead      int      `json:"n_head"`
		NInner     *int     `json:"n_inner"`
		NPositions int      `json:"n_positions"`
		Vocab      int      `json:"vocab_size"`
		ResidDrop  *float64 `json:"resid_pdrop"`
		AttnDrop   *float64 `json:"attn_pdrop"`
		Tie        *bool    `json:"tie_word_embeddings"`
		Act        string   `json:"activation_function"`
	}
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	a := gpt2("gpt2", h.NEmbd, h.NLayer, h.NHead)
	if h.NInner != nil && *h.NInner > 0 {
		a.FFN = *h.NInner
	}
	if h.Vocab > 0 {
		a.Vocab = h.Vocab
	}
	if h.NPositions > 0 {
		a.MaxPos, a.DefaultSeq = h.NPositions, h.NPositions
	}
	a.Dropout = orF64(h.ResidDrop, 0.1)
	a.AttnDropout = orF64(h.AttnDrop, 0.1)
	a.Tied = orBool(h.Tie, true)
	// activation_function (default gelu_new): dev80 measured GPT-2 s1024
	// b8 bf16 3.35 GiB lower with gelu_pytorch_tanh
	a.Decoder.Act = hfGelu(h.Act, "gelu_new")
	if err := needPositive(hfKey{"n_embd", h.NEmbd}, hfKey{"n_layer", h.NLayer}, hfKey{"n_head", h.NHead}); err != nil {
		return Arch{}, err
	}
	inner := 0
	if h.NInner != nil {
		inner = *h.NInner
	}
	if err := notNegative(hfKey{"n_inner", inner}, hfKey{"n_positions", h.NPositions}, hfKey{"vocab_size", h.Vocab}); err != nil {
		return Arch{}, err
	}
	return a, nil
}

// buildGPT2 follows transformers' GPT2LMHeadModel with SDPA, the Python
// NewGELU, a DynamicCache filled in training (use_cache is on unless
// checkpointing), and the LM head tied to the token embedding.
func buildGPT2(b *builder, a *Arch, batch, seq int64, cache bool) {
	ids := b.textInput(batch, seq, batch*seq)
	d, heads, ff, vocab := int64(a.Hidden), int64(a.Heads), int64(a.FFN), int64(a.Vocab)
	wte := b.param(vocab * d)
	h := b.embedding(ids, wte, vocab, d)
	wpe := b.param(int64(a.MaxPos) * d)
	pe := b.out(seq*d, b.dt(wpe), wpe)
	b.op("embedding", []Tensor{wpe}, []Tensor{pe}, nil)
	inputsEmbeds := h
	h = b.add(h, pe)
	h = b.dropout(h, a.Dropout)
	for l := 0; l < a.Layers; l++ {
		b.block = l
		y := b.layerNorm(h, d, true)
		qkv := b.linear(y, d, 3*d, true, "c_attn")
		q, k, v := b.view(qkv, batch*seq*d), b.view(qkv, batch*seq*d), b.view(qkv, batch*seq*d)
		if cache {
			flash := b.dt(b.lowp(qkv)) != F32 && b.attn != "mem_efficient"
			k, v = b.cacheCopy(k, flash), b.cacheCopy(v, flash)
		}
		b.sel = true
		att := b.sdpaMask(q, k, v, -1, attnShape{batch: batch, heads: heads, sq: seq, sk: seq, hd: d / heads, causal: true,
			dropout: a.AttnDropout})
		b.sel = false
		att = b.linear(att, d, d, true, "c_proj")
		att = b.dropout(att, a.Dropout)
		// c_attn's output, split into the query, key and value views
		// GPT2Attention.forward names until it returns (in a checkpointed
		// forward, which saves nothing, it would die after SDPA)
		b.keep(qkv)
		h = b.add(att, h)
		// Python's references, as the H200 traces free them (b8 s1024):
		// GPT2Block binds each layer norm's float32 output to
		// hidden_states until the residual add rebinds it, GPT2MLP binds
		// c_fc's output until the activation returns and the activation's
		// until c_proj's output rebinds it, and the attention's and the
		// MLP's outputs are GPT2Block's locals until it returns
		b.keep(y)
		y = b.layerNorm(h, d, true)
		fc := b.linear(y, d, ff, true, "c_fc")
		act := b.activation(a.gpt2Act(), fc)
		b.keep(fc)
		m := b.linear(act, ff, d, true, "c_proj")
		b.keep(act)
		m = b.dropout(m, a.Dropout)
		h = b.add(h, m)
		b.keep(y, att, m)
	}
	b.block = -1
	b.g.blocks = a.Layers
	h = b.layerNorm(h, d, true)
	// GPT2Model.forward's inputs_embeds and position_embeds, locals until
	// it returns (the fixtures' float32 checkpointed trace: both alive
	// through the blocks; freed after their add, the replay's first
	// dropout mask took another hole)
	b.keep(inputsEmbeds, pe)
	logits := b.linearWith(h, wte, -1, d, vocab)
	b.lmLoss(logits, batch, seq, vocab)
}

// cacheCopy is DynamicCache.update's copy of a key or value split off
// c_attn's output and moved to [batch, heads, seq, head_dim]. Flash
// attention's backward allocates that gradient like its input, in that
// layout, so the backward of the view(...).transpose(1, 2) that fed the
// cache copies it (reshape) to reach c_attn's split: a new gradient, not
// the incoming one. The H200 GPT-2 bf16 traces (b8 s1024) make, per layer
// backward, three hidden-size SDPA gradients, two such copies and one
// qkv-size cat; the float32 ones (memory-efficient attention, whose
// gradients come out [batch, seq, heads, head_dim]) no copies.
func (b *builder) cacheCopy(x Tensor, flash bool) Tensor {
	y := b.copy(x)
	if flash {
		b.g.ops[len(b.g.ops)-1].passGrad = nil
	}
	b.g.returned = append(b.g.returned, y)
	return y
}

// gpt2Act is GPT-2's MLP activation as DecoderQuirks.Act spells it: the
// config's activation_function, NewGELU ("gelu_new") when none is given.
func (a *Arch) gpt2Act() string {
	if a.Decoder.Act == "" {
		return "gelu_new"
	}
	return a.Decoder.Act
}

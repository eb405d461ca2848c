package memmodel

// The LLaMA family: transformers' LlamaForCausalLM and the models built
// the same way (Mistral, Qwen2, Qwen3 without its q/k norms).

func init() {
	register(&Family{
		Name: "llama", Task: "causal-lm", Attention: true, AnyLength: true,
		ModelTypes:  []string{"llama", "mistral", "qwen2", "qwen3"},
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			llama("llama-small", 1024, 24, 16, 16, 2816, 32000, false, false),
			llama("llama2-7b", 4096, 32, 32, 32, 11008, 32000, false, false),
			llama("llama2-13b", 5120, 40, 40, 40, 13824, 32000, false, false),
			llama("llama3-8b", 4096, 32, 32, 8, 14336, 128256, false, false),
			llama("llama3.2-1b", 2048, 16, 32, 8, 8192, 128256, true, false),
			llama("mistral-7b", 4096, 32, 32, 8, 14336, 32000, false, false),
			llama("qwen2-0.5b", 896, 24, 14, 2, 4864, 151936, true, true),
			llama("qwen2-1.5b", 1536, 28, 12, 2, 8960, 151936, true, true),
			llama("qwen2-7b", 3584, 28, 28, 4, 18944, 152064, false, true),
		},
		Aliases: map[string]string{
			"meta-llama/llama-2-7b-hf": "llama2-7b", "meta-llama/meta-llama-3-8b": "llama3-8b",
			"meta-llama/llama-3.2-1b": "llama3.2-1b", "mistralai/mistral-7b-v0.1": "mistral-7b",
			"qwen/qwen2-0.5b": "qwen2-0.5b", "qwen/qwen2-1.5b": "qwen2-1.5b", "qwen/qwen2-7b": "qwen2-7b",
			// names people type for the same checkpoints
			"llama-7b": "llama2-7b", "llama-2-7b": "llama2-7b", "llama-2-7b-hf": "llama2-7b", "meta-llama/llama-2-7b": "llama2-7b",
			"llama-13b": "llama2-13b", "llama-2-13b": "llama2-13b", "llama-2-13b-hf": "llama2-13b",
			"meta-llama/llama-2-13b-hf": "llama2-13b", "llama-3-8b": "llama3-8b", "llama3.1-8b": "llama3-8b",
			"meta-llama/llama-3.1-8b": "llama3-8b", "llama-3.2-1b": "llama3.2-1b", "mistral-7b-v0.1": "mistral-7b",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildLlama(b, a, in.Batch, in.Seq, in.Cache) },
		FromHF: llamaFromHF,
	})
}

func llama(name string, hidden, layers, heads, kv, ffn, vocab int, tied, bias bool) Arch {
	return Arch{Name: name, Family: "llama", Hidden: hidden, Layers: layers, Heads: heads, KVHeads: kv, FFN: ffn,
		Vocab: vocab, Tied: tied, AttnBias: bias, MaxPos: 4096, DefaultSeq: 2048}
}

func llamaFromHF(modelType string, data []byte) (Arch, error) {
	var h struct {
		HiddenSize   int   `json:"hidden_size"`
		Layers       int   `json:"num_hidden_layers"`
		Heads        int   `json:"num_attention_heads"`
		KVHeads      int   `json:"num_key_value_heads"`
		HeadDim      int   `json:"head_dim"`
		Intermediate int   `json:"intermediate_size"`
		Vocab        int   `json:"vocab_size"`
		MaxPos       int   `json:"max_position_embeddings"`
		Tie          *bool `json:"tie_word_embeddings"`
		AttnBias     *bool `json:"attention_bias"`
	}
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	// Qwen2 has q/k/v biases without saying so in config.json
	bias := modelType == "qwen2"
	a := llama(modelType, h.HiddenSize, h.Layers, h.Heads, h.KVHeads, h.Intermediate, h.Vocab,
		orBool(h.Tie, false), orBool(h.AttnBias, bias))
	a.HeadDim = h.HeadDim
	if h.MaxPos > 0 {
		a.MaxPos = h.MaxPos
	}
	if err := needPositive(hfKey{"hidden_size", h.HiddenSize}, hfKey{"num_hidden_layers", h.Layers},
		hfKey{"num_attention_heads", h.Heads}, hfKey{"intermediate_size", h.Intermediate}, hfKey{"vocab_size", h.Vocab}); err != nil {
		return Arch{}, err
	}
	return a, nil
}

// buildLlama follows transformers' LlamaForCausalLM (also Mistral, Qwen2):
// RMSNorm in float32, rotary embeddings applied in the hidden dtype, GQA
// through SDPA, SwiGLU MLP, tied or untied LM head.
func buildLlama(b *builder, a *Arch, batch, seq int64, cache bool) {
	ids := b.textInput(batch, seq, batch*seq)
	d, heads, kvh, hd, ff, vocab := int64(a.Hidden), int64(a.Heads), a.kvHeads(), a.headDim(), int64(a.FFN), int64(a.Vocab)
	wte := b.param(vocab * d)
	h := b.embedding(ids, wte, vocab, d)
	// rotary cos/sin, shared by all layers, in the hidden dtype
	cos := b.g.newTensor(batch*seq*hd, b.dt(h), false)
	sin := b.g.newTensor(batch*seq*hd, b.dt(h), false)
	b.op("rotary", []Tensor{ids}, []Tensor{cos, sin}, nil).noBackward = true
	rope := func(x Tensor, nh int64) Tensor {
		n := batch * nh * seq * hd
		xc := b.mul(x, cos)
		b.tt(xc).numel = n
		rot := b.copy(x) // rotate_half: cat(-x2, x1)
		r := b.mul(rot, sin)
		b.tt(r).numel = n
		return b.add(xc, r)
	}
	for l := 0; l < a.Layers; l++ {
		b.block = l
		y := b.rmsNorm(h, d)
		q := b.linear(y, d, heads*hd, a.AttnBias, "q_proj")
		k := b.linear(y, d, kvh*hd, a.AttnBias, "k_proj")
		v := b.linear(y, d, kvh*hd, a.AttnBias, "v_proj")
		b.sel = true
		q, k = rope(q, heads), rope(k, kvh)
		if cache {
			k, v = b.cacheKV(k, v)
		}
		att := b.sdpa(q, k, v, batch, heads, seq, seq, hd, true)
		b.sel = false
		att = b.linear(att, heads*hd, d, false, "o_proj")
		h = b.add(h, att)
		y = b.rmsNorm(h, d)
		g := b.linear(y, d, ff, false, "gate_proj")
		u := b.linear(y, d, ff, false, "up_proj")
		y = b.mul(b.silu(g), u)
		y = b.linear(y, ff, d, false, "down_proj")
		h = b.add(h, y)
	}
	b.block = -1
	b.g.blocks = a.Layers
	h = b.rmsNorm(h, d)
	var logits Tensor
	if a.Tied {
		logits = b.linearWith(h, wte, -1, d, vocab)
	} else {
		logits = b.linear(h, d, vocab, false, "lm_head")
	}
	b.lmLoss(logits, batch, seq, vocab)
}

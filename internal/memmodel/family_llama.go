package memmodel

// The LLaMA family: transformers' LlamaForCausalLM and the models built
// the same way (Mistral, Qwen2), recorded by buildDecoder with no quirks.

func init() {
	register(&Family{
		Name: "llama", Task: "causal-lm", Attention: true, AnyLength: true, Decoder: true,
		ModelTypes:  []string{"llama", "mistral", "qwen2"},
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			llama("llama-small", 1024, 24, 16, 16, 2816, 32000, false, false),
			llama("llama2-7b", 4096, 32, 32, 32, 11008, 32000, false, false),
			llama("llama2-13b", 5120, 40, 40, 40, 13824, 32000, false, false),
			positions(llama("llama3-8b", 4096, 32, 32, 8, 14336, 128256, false, false), 8192),
			positions(llama("llama3.1-8b", 4096, 32, 32, 8, 14336, 128256, false, false), 131072),
			positions(llama("llama3.2-1b", 2048, 16, 32, 8, 8192, 128256, true, false), 131072),
			mistral7b(),
			positions(llama("qwen2-0.5b", 896, 24, 14, 2, 4864, 151936, true, true), 32768),
			positions(llama("qwen2-1.5b", 1536, 28, 12, 2, 8960, 151936, true, true), 32768),
			positions(llama("qwen2-7b", 3584, 28, 28, 4, 18944, 152064, false, true), 32768),
			// Qwen2.5 keeps Qwen2's architecture (model_type qwen2)
			positions(llama("qwen2.5-0.5b", 896, 24, 14, 2, 4864, 151936, true, true), 32768),
			positions(llama("qwen2.5-1.5b", 1536, 28, 12, 2, 8960, 151936, true, true), 32768),
			positions(llama("qwen2.5-3b", 2048, 36, 16, 2, 11008, 151936, true, true), 32768),
			positions(llama("qwen2.5-7b", 3584, 28, 28, 4, 18944, 152064, false, true), 32768),
			positions(llama("qwen2.5-14b", 5120, 48, 40, 8, 13824, 152064, false, true), 32768),
			positions(llama("qwen2.5-32b", 5120, 64, 40, 8, 27648, 152064, false, true), 32768),
			positions(llama("qwen2.5-72b", 8192, 80, 64, 8, 29568, 152064, false, true), 32768),
			positions(llama("llama3.2-3b", 3072, 28, 24, 8, 8192, 128256, true, false), 131072),
			llama("llama2-70b", 8192, 80, 64, 8, 28672, 32000, false, false),
			positions(llama("llama3-70b", 8192, 80, 64, 8, 28672, 128256, false, false), 8192),
			positions(llama("llama3.1-70b", 8192, 80, 64, 8, 28672, 128256, false, false), 131072),
			// TinyLlama-1.1B (the generate fixtures' and dev98's model)
			positions(llama("tinyllama-1.1b", 2048, 22, 32, 4, 5632, 32000, false, false), 2048),
		},
		Aliases: map[string]string{
			"meta-llama/llama-2-7b-hf": "llama2-7b", "meta-llama/meta-llama-3-8b": "llama3-8b",
			"meta-llama/llama-3.2-1b": "llama3.2-1b", "mistralai/mistral-7b-v0.1": "mistral-7b",
			"qwen/qwen2.5-0.5b": "qwen2.5-0.5b", "qwen/qwen2.5-1.5b": "qwen2.5-1.5b", "qwen/qwen2.5-3b": "qwen2.5-3b",
			"qwen/qwen2.5-7b": "qwen2.5-7b", "qwen/qwen2.5-14b": "qwen2.5-14b",
			"qwen/qwen2.5-32b": "qwen2.5-32b", "qwen/qwen2.5-72b": "qwen2.5-72b", "meta-llama/llama-3.2-3b": "llama3.2-3b",
			"meta-llama/llama-2-70b-hf": "llama2-70b", "meta-llama/meta-llama-3-70b": "llama3-70b",
			"meta-llama/llama-3.1-70b": "llama3.1-70b", "meta-llama/llama-3.1-8b-instruct": "llama3.1-8b",
			"meta-llama/meta-llama-3-8b-instruct": "llama3-8b", "mistralai/mistral-7b-instruct-v0.2": "mistral-7b",
			"qwen/qwen2-0.5b": "qwen2-0.5b", "qwen/qwen2-1.5b": "qwen2-1.5b", "qwen/qwen2-7b": "qwen2-7b",
			"tinyllama/tinyllama-1.1b-chat-v1.0": "tinyllama-1.1b", "tinyllama/tinyllama_v1.1": "tinyllama-1.1b",
			"tinyllama": "tinyllama-1.1b",
			// names people type for the same checkpoints
			"llama-7b": "llama2-7b", "llama-2-7b": "llama2-7b", "llama-2-7b-hf": "llama2-7b", "meta-llama/llama-2-7b": "llama2-7b",
			"llama-13b": "llama2-13b", "llama-2-13b": "llama2-13b", "llama-2-13b-hf": "llama2-13b",
			"meta-llama/llama-2-13b-hf": "llama2-13b", "llama-3-8b": "llama3-8b", "meta-llama/llama-3.1-8b": "llama3.1-8b", "llama-3.2-1b": "llama3.2-1b", "mistral-7b-v0.1": "mistral-7b",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildDecoder(b, a, in.Batch, in.Seq, in.Cache) },
		FromHF: llamaFromHF,
	})
}

func llama(name string, hidden, layers, heads, kv, ffn, vocab int, tied, bias bool) Arch {
	return Arch{Name: name, Family: "llama", Hidden: hidden, Layers: layers, Heads: heads, KVHeads: kv, FFN: ffn,
		Vocab: vocab, Tied: tied, AttnBias: bias, MaxPos: 4096, DefaultSeq: 2048}
}

// positions sets the positions a checkpoint's config.json names
// (max_position_embeddings): Llama 3 8192, Llama 3.1 and 3.2 131072 (the
// Llama-3.2-1B captures' configs); Qwen2 and Qwen2.5 32768, their native
// context (the 0.5B and 1.5B captures' configs; the 7B and larger base
// checkpoints' configs say 131072, reached with YaRN: a config.json
// passed with --hf-config gives its own).
func positions(a Arch, n int) Arch {
	a.MaxPos = n
	return a
}

// mistral7b is Mistral-7B-v0.1, which attends within 4096 tokens.
func mistral7b() Arch {
	a := llama("mistral-7b", 4096, 32, 32, 8, 14336, 32000, false, false)
	a.MaxPos = 32768
	a.Decoder.SlidingWindow, a.Decoder.SlidingEvery = 4096, 1
	return a
}

func llamaFromHF(modelType string, data []byte) (Arch, error) {
	var h struct {
		hfDecoder
		Window    *int  `json:"sliding_window"`
		UseWindow *bool `json:"use_sliding_window"`
	}
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	// Qwen2 has q/k/v biases without saying so in config.json
	bias := modelType == "qwen2"
	a := llama(modelType, h.HiddenSize, h.Layers, h.Heads, h.KVHeads, h.Intermediate, h.Vocab,
		orBool(h.Tie, false), orBool(h.AttnBias, bias))
	a.HeadDim = h.HeadDim
	// Mistral attends within sliding_window tokens (Qwen2 only with
	// use_sliding_window): beyond it SDPA gets a mask
	if h.Window != nil && *h.Window > 0 && (modelType == "mistral" || orBool(h.UseWindow, false)) {
		a.Decoder.SlidingWindow, a.Decoder.SlidingEvery = *h.Window, 1
	}
	if h.MaxPos > 0 {
		a.MaxPos = h.MaxPos
	}
	if err := h.check(); err != nil {
		return Arch{}, err
	}
	if h.Window != nil {
		if err := notNegative(hfKey{"sliding_window", *h.Window}); err != nil {
			return Arch{}, err
		}
	}
	return a, nil
}

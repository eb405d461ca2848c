package memmodel

// The Qwen3 family: transformers' Qwen3ForCausalLM, recorded by
// buildDecoder: LLaMA with an RMSNorm over each head of q and k (their
// float32 casts and products are saved per layer) and no q/k/v biases.

func init() {
	register(&Family{
		Name: "qwen3", Task: "causal-lm", Attention: true, AnyLength: true, Decoder: true, Captured: true,
		ModelTypes:  []string{"qwen3"},
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			qwen3("qwen3-0.6b", 1024, 28, 16, 8, 3072, true),
			qwen3("qwen3-1.7b", 2048, 28, 16, 8, 6144, true),
			qwen3("qwen3-4b", 2560, 36, 32, 8, 9728, true),
			qwen3("qwen3-8b", 4096, 36, 32, 8, 12288, false),
			qwen3("qwen3-14b", 5120, 40, 40, 8, 17408, false),
		},
		Aliases: map[string]string{
			"qwen/qwen3-0.6b": "qwen3-0.6b", "qwen/qwen3-1.7b": "qwen3-1.7b", "qwen/qwen3-4b": "qwen3-4b",
			"qwen/qwen3-8b": "qwen3-8b", "qwen/qwen3-14b": "qwen3-14b", "qwen/qwen3-0.6b-base": "qwen3-0.6b",
			"qwen/qwen3-1.7b-base": "qwen3-1.7b", "qwen/qwen3-4b-base": "qwen3-4b", "qwen/qwen3-8b-base": "qwen3-8b",
			"qwen/qwen3-14b-base": "qwen3-14b",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildDecoder(b, a, in.Batch, in.Seq, in.Cache) },
		FromHF: qwen3FromHF,
	})
}

func qwen3(name string, hidden, layers, heads, kv, ffn int, tied bool) Arch {
	return Arch{Name: name, Family: "qwen3", Hidden: hidden, Layers: layers, Heads: heads, KVHeads: kv, HeadDim: 128,
		FFN: ffn, Vocab: 151936, Tied: tied, MaxPos: 40960, DefaultSeq: 2048, Decoder: DecoderQuirks{QKNorm: "head"}}
}

func qwen3FromHF(modelType string, data []byte) (Arch, error) {
	a, _, err := decoderFromHF("qwen3", modelType, data, false)
	if err != nil {
		return Arch{}, err
	}
	if a.HeadDim == 0 {
		a.HeadDim = 128 // Qwen3Config's default
	}
	a.Decoder = DecoderQuirks{QKNorm: "head"}
	return a, nil
}

package memmodel

// The Granite family: transformers' GraniteForCausalLM, recorded by
// buildDecoder: LLaMA whose embeddings, block outputs and logits are
// multiplied by constants (embedding_multiplier, residual_multiplier,
// 1/logits_scaling). PyTorch allocates each product, including one more
// vocabulary-wide tensor for the scaled logits.

func init() {
	register(&Family{
		Name: "granite", Task: "causal-lm", Attention: true, AnyLength: true, Decoder: true,
		ModelTypes:  []string{"granite"},
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			granite("granite-3-2b", 2048, 40, 32, 8, 8192),
			granite("granite-3-8b", 4096, 40, 32, 8, 12800),
		},
		Aliases: map[string]string{
			"ibm-granite/granite-3.1-2b-base": "granite-3-2b", "ibm-granite/granite-3.1-8b-base": "granite-3-8b",
			"ibm-granite/granite-3.0-2b-base": "granite-3-2b", "ibm-granite/granite-3.0-8b-base": "granite-3-8b",
			"ibm-granite/granite-3.1-2b-instruct": "granite-3-2b", "ibm-granite/granite-3.1-8b-instruct": "granite-3-8b",
			"granite-3.1-2b": "granite-3-2b", "granite-3.1-8b": "granite-3-8b",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildDecoder(b, a, in.Batch, in.Seq, in.Cache) },
		FromHF: graniteFromHF,
	})
}

var graniteQuirks = DecoderQuirks{EmbedScale: true, ResidScale: true, LogitScale: true}

func granite(name string, hidden, layers, heads, kv, ffn int) Arch {
	return Arch{Name: name, Family: "granite", Hidden: hidden, Layers: layers, Heads: heads, KVHeads: kv, FFN: ffn,
		Vocab: 49155, Tied: true, MaxPos: 4096, DefaultSeq: 2048, Decoder: graniteQuirks}
}

func graniteFromHF(modelType string, data []byte) (Arch, error) {
	a, _, err := decoderFromHF("granite", modelType, data, false)
	if err != nil {
		return Arch{}, err
	}
	a.Decoder = graniteQuirks
	return a, nil
}

package memmodel

// The OLMo family: transformers' OlmoForCausalLM (LayerNorm without
// parameters, in float32) and Olmo2ForCausalLM (RMSNorm applied after
// attention and MLP instead of before, its weight multiplied in float32,
// and RMSNorms over the whole q and k projections), recorded by
// buildDecoder. Both take apply_rotary_pos_emb from modeling_olmo, which
// casts the rotated q and k back to the projections' dtype (RopeCastBack;
// the OLMo 2 frames show it, modeling_olmo2.py:185, and modular_olmo2
// imports the function from modeling_olmo).

func init() {
	register(&Family{
		Name: "olmo", Task: "causal-lm", Attention: true, AnyLength: true, Decoder: true,
		ModelTypes:  []string{"olmo", "olmo2"},
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			// OLMo 1B ties its LM head to the embedding (1.18B
			// parameters), OLMo 7B does not (6.89B); both read 2048
			// positions (allenai/OLMo-1B-hf, OLMo-7B-hf config.json)
			olmoTied(olmo("olmo-1b", "olmo", 2048, 16, 16, 8192, 50304)),
			olmo("olmo-7b", "olmo", 4096, 32, 32, 11008, 50304),
			olmo("olmo-2-1b", "olmo2", 2048, 16, 16, 8192, 100352),
			olmo("olmo-2-7b", "olmo2", 4096, 32, 32, 11008, 100352),
			olmo("olmo-2-13b", "olmo2", 5120, 40, 40, 13824, 100352),
		},
		Aliases: map[string]string{
			"allenai/olmo-1b-hf": "olmo-1b", "allenai/olmo-7b-hf": "olmo-7b", "allenai/olmo-2-0425-1b": "olmo-2-1b",
			"allenai/olmo-2-1124-7b": "olmo-2-7b", "allenai/olmo-2-1124-13b": "olmo-2-13b", "olmo2-7b": "olmo-2-7b",
			"olmo2-1b": "olmo-2-1b", "olmo2-13b": "olmo-2-13b",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildDecoder(b, a, in.Batch, in.Seq, in.Cache) },
		FromHF: olmoFromHF,
	})
}

func olmoQuirks(modelType string) DecoderQuirks {
	if modelType == "olmo2" {
		return DecoderQuirks{Norm: "f32w", NormPlace: "post", QKNorm: "full", RopeCastBack: true}
	}
	return DecoderQuirks{Norm: "ln", RopeCastBack: true}
}

func olmo(name, modelType string, hidden, layers, heads, ffn, vocab int) Arch {
	maxPos := 4096
	if modelType == "olmo" {
		maxPos = 2048
	}
	return Arch{Name: name, Family: "olmo", Hidden: hidden, Layers: layers, Heads: heads, FFN: ffn, Vocab: vocab,
		MaxPos: maxPos, DefaultSeq: 2048, Decoder: olmoQuirks(modelType)}
}

func olmoTied(a Arch) Arch {
	a.Tied = true
	return a
}

func olmoFromHF(modelType string, data []byte) (Arch, error) {
	a, _, err := decoderFromHF("olmo", modelType, data, false)
	if err != nil {
		return Arch{}, err
	}
	a.Decoder = olmoQuirks(modelType)
	return a, nil
}

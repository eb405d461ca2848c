package memmodel

// The Mixtral family: transformers' MixtralForCausalLM, recorded by
// buildDecoder with the sparse MoE block of moe.go in place of the MLP
// (num_local_experts experts of intermediate_size, num_experts_per_tok
// per token, no shared expert).

func init() {
	register(&Family{
		Name: "mixtral", Task: "causal-lm", Attention: true, AnyLength: true, Decoder: true, Captured: true,
		ModelTypes:  []string{"mixtral"},
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			mixtral("mixtral-8x7b", 4096, 32, 32, 8, 14336, 8, 2),
			mixtral("mixtral-8x22b", 6144, 56, 48, 8, 16384, 8, 2),
		},
		Aliases: map[string]string{
			"mistralai/mixtral-8x7b-v0.1": "mixtral-8x7b", "mistralai/mixtral-8x7b-instruct-v0.1": "mixtral-8x7b",
			"mistralai/mixtral-8x22b-v0.1": "mixtral-8x22b", "mixtral-8x7b-v0.1": "mixtral-8x7b", "mixtral": "mixtral-8x7b",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildDecoder(b, a, in.Batch, in.Seq, in.Cache) },
		FromHF: mixtralFromHF,
	})
}

func mixtral(name string, hidden, layers, heads, kv, ffn, experts, topk int) Arch {
	return Arch{Name: name, Family: "mixtral", Hidden: hidden, Layers: layers, Heads: heads, KVHeads: kv, FFN: ffn,
		Vocab: 32000, MaxPos: 32768, DefaultSeq: 2048, MoE: MoE{Experts: experts, TopK: topk, FFN: ffn}}
}

func mixtralFromHF(modelType string, data []byte) (Arch, error) {
	a, h, err := decoderFromHF("mixtral", modelType, data, false)
	if err != nil {
		return Arch{}, err
	}
	experts := h.LocalExperts
	if experts == 0 {
		experts = h.Experts
	}
	a.MoE = MoE{Experts: experts, TopK: h.TopK, FFN: h.Intermediate, AuxLoss: h.RouterLogits}
	if a.MoE.Experts == 0 {
		a.MoE.Experts = 8
	}
	if a.MoE.TopK == 0 {
		a.MoE.TopK = 2
	}
	return a, nil
}

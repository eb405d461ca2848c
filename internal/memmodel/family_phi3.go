package memmodel

// The Phi-3 family: transformers' Phi3ForCausalLM, recorded by
// buildDecoder. Its projections are fused: qkv_proj and gate_up_proj each
// produce one tensor whose slices are views, so saving any slice (SDPA
// saves v) keeps the whole fused output alive; apply_rotary_pos_emb
// concatenates the rotated part with the (possibly empty) pass-through
// part, one more copy of q and k.

func init() {
	register(&Family{
		Name: "phi3", Task: "causal-lm", Attention: true, AnyLength: true, Decoder: true, Captured: true,
		ModelTypes:  []string{"phi3"},
		LoRATargets: []string{"qkv_proj"},
		Models: []Arch{
			phi3("phi-3-mini", 3072, 32, 32, 32, 8192),
			phi3("phi-3-medium", 5120, 40, 40, 10, 17920),
		},
		Aliases: map[string]string{
			"microsoft/phi-3-mini-4k-instruct": "phi-3-mini", "microsoft/phi-3-mini-128k-instruct": "phi-3-mini",
			"microsoft/phi-3-medium-4k-instruct": "phi-3-medium", "microsoft/phi-3-medium-128k-instruct": "phi-3-medium",
			"phi-3-mini-4k": "phi-3-mini", "phi3-mini": "phi-3-mini", "phi-3": "phi-3-mini", "phi3": "phi-3-mini",
			"phi-3-mini-4k-instruct": "phi-3-mini",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildDecoder(b, a, in.Batch, in.Seq, in.Cache) },
		FromHF: phi3FromHF,
	})
}

var phi3Quirks = DecoderQuirks{FusedQKV: true, FusedGateUp: true, RopeCat: true}

func phi3(name string, hidden, layers, heads, kv, ffn int) Arch {
	return Arch{Name: name, Family: "phi3", Hidden: hidden, Layers: layers, Heads: heads, KVHeads: kv, FFN: ffn,
		Vocab: 32064, MaxPos: 4096, DefaultSeq: 2048, Decoder: phi3Quirks}
}

func phi3FromHF(modelType string, data []byte) (Arch, error) {
	a, _, err := decoderFromHF("phi3", modelType, data, false)
	if err != nil {
		return Arch{}, err
	}
	a.Decoder = phi3Quirks
	return a, nil
}

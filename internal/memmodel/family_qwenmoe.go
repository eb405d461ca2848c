package memmodel

// The Qwen MoE family: transformers' Qwen2MoeForCausalLM (q/k/v biases, a
// shared expert of shared_expert_intermediate_size behind a sigmoid gate,
// the DeepSeek-style layout) and Qwen3MoeForCausalLM (per-head q/k norms,
// no shared expert), recorded by buildDecoder with the MoE block of
// moe.go. Layers listed in mlp_only_layers, or off the
// decoder_sparse_step grid, keep a dense MLP of intermediate_size.

func init() {
	register(&Family{
		Name: "qwen-moe", Task: "causal-lm", Attention: true, AnyLength: true, Decoder: true, Captured: true,
		ModelTypes:  []string{"qwen2_moe", "qwen3_moe"},
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			qwenMoE("qwen1.5-moe-a2.7b", "qwen2_moe", 2048, 24, 16, 16, 0, 5632, 60, 4, 1408, 5632),
			qwenMoE("qwen3-30b-a3b", "qwen3_moe", 2048, 48, 32, 4, 128, 6144, 128, 8, 768, 0),
		},
		Aliases: map[string]string{
			"qwen/qwen1.5-moe-a2.7b": "qwen1.5-moe-a2.7b", "qwen/qwen3-30b-a3b": "qwen3-30b-a3b",
			"qwen/qwen3-30b-a3b-base": "qwen3-30b-a3b", "qwen2-moe": "qwen1.5-moe-a2.7b", "qwen3-moe": "qwen3-30b-a3b",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildDecoder(b, a, in.Batch, in.Seq, in.Cache) },
		FromHF: qwenMoEFromHF,
	})
}

func qwenMoE(name, modelType string, hidden, layers, heads, kv, hd, ffn, experts, topk, moeFFN, shared int) Arch {
	a := Arch{Name: name, Family: "qwen-moe", Hidden: hidden, Layers: layers, Heads: heads, KVHeads: kv, HeadDim: hd,
		FFN: ffn, Vocab: 151936, MaxPos: 32768, DefaultSeq: 2048,
		MoE: MoE{Experts: experts, TopK: topk, FFN: moeFFN, SharedFFN: shared, SharedGate: shared > 0}}
	if modelType == "qwen2_moe" {
		a.AttnBias = true
	} else {
		a.Decoder.QKNorm = "head"
	}
	return a
}

func qwenMoEFromHF(modelType string, data []byte) (Arch, error) {
	a, h, err := decoderFromHF("qwen-moe", modelType, data, false)
	if err != nil {
		return Arch{}, err
	}
	// transformers 5 writes Qwen3-MoE's num_experts as num_local_experts
	experts := h.Experts
	if experts == 0 {
		experts = h.LocalExperts
	}
	a.MoE = MoE{Experts: experts, TopK: h.TopK, FFN: h.MoEFFN, AuxLoss: h.RouterLogits}
	if modelType == "qwen2_moe" {
		a.AttnBias = orBool(h.QKVBias, true)
		a.MoE.SharedFFN, a.MoE.SharedGate = h.SharedFFN, h.SharedFFN > 0
	} else {
		a.Decoder.QKNorm = "head"
		if a.HeadDim == 0 {
			a.HeadDim = 128
		}
	}
	if err := needPositive(hfKey{"num_experts", experts}, hfKey{"num_experts_per_tok", h.TopK},
		hfKey{"moe_intermediate_size", h.MoEFFN}); err != nil {
		return Arch{}, err
	}
	a.MoE.DenseLayers = denseLayers(a.Layers, h.SparseStep, h.MLPOnlyLayers)
	return a, nil
}

// denseLayers lists the layers that keep a dense MLP: those in
// mlp_only_layers and those not on the decoder_sparse_step grid.
func denseLayers(layers, step int, only []int) []int {
	var out []int
	for l := 0; l < layers; l++ {
		dense := step > 1 && (l+1)%step != 0
		for _, o := range only {
			dense = dense || o == l
		}
		if dense {
			out = append(out, l)
		}
	}
	return out
}

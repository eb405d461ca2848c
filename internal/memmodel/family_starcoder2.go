package memmodel

// The StarCoder2 family: transformers' Starcoder2ForCausalLM (bigcode's
// starcoder2-3b, 7b, 15b), recorded by buildDecoder: LLaMA's layer with
// grouped-query attention whose projections carry biases (use_bias),
// nn.LayerNorm with bias in place of RMSNorm, an ungated MLP (c_fc,
// gelu_pytorch_tanh, c_proj) with biases, dropout after the embedding
// (embedding_dropout) and after each branch (residual_dropout) and in
// the attention (attention_dropout), every layer attending within a
// 4096-token sliding window.

import "fmt"

func init() {
	register(&Family{
		Name: "starcoder2", Task: "causal-lm", Attention: true, AnyLength: true, Decoder: true,
		ModelTypes: []string{"starcoder2"},
		// PEFT has no default targets for starcoder2 (get_peft_model
		// asks for them); q_proj/v_proj as for LLaMA
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			// bigcode/starcoder2-3b, 7b, 15b config.json: 3b and 7b tie
			// the LM head to the embedding, 15b does not (3.03B, 7.17B,
			// 15.96B parameters)
			starcoder2("starcoder2-3b", 3072, 30, 24, 2, 12288, true),
			starcoder2("starcoder2-7b", 4608, 32, 36, 4, 18432, true),
			starcoder2("starcoder2-15b", 6144, 40, 48, 4, 24576, false),
		},
		Aliases: map[string]string{
			"bigcode/starcoder2-3b": "starcoder2-3b", "bigcode/starcoder2-7b": "starcoder2-7b",
			"bigcode/starcoder2-15b": "starcoder2-15b", "starcoder2": "starcoder2-3b",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildDecoder(b, a, in.Batch, in.Seq, in.Cache) },
		FromHF: starcoder2FromHF,
	})
}

// starcoder2Quirks are StarCoder2's, with its MLP's module names.
func starcoder2Quirks(window int, embedDrop float64, act string) DecoderQuirks {
	return DecoderQuirks{Norm: "lnb", Act: act, PlainMLP: true, Bias: true, EmbedDropout: embedDrop,
		SlidingWindow: window, SlidingEvery: 1, Names: map[string]string{"up": "c_fc", "down": "c_proj"}}
}

func starcoder2(name string, hidden, layers, heads, kv, ffn int, tied bool) Arch {
	return Arch{Name: name, Family: "starcoder2", Hidden: hidden, Layers: layers, Heads: heads, KVHeads: kv, FFN: ffn,
		Vocab: 49152, Tied: tied, AttnBias: true, MaxPos: 16384, DefaultSeq: 4096, Dropout: 0.1, AttnDropout: 0.1,
		Decoder: starcoder2Quirks(4096, 0.1, "gelu_tanh")}
}

// hfStarcoder2 holds the config.json keys of StarCoder2 beyond hfDecoder's.
type hfStarcoder2 struct {
	UseBias   *bool    `json:"use_bias"`
	ResidDrop *float64 `json:"residual_dropout"`
	EmbedDrop *float64 `json:"embedding_dropout"`
	AttnDrop  *float64 `json:"attention_dropout"`
	Window    *int     `json:"sliding_window"`
}

func starcoder2FromHF(modelType string, data []byte) (Arch, error) {
	a, hd, err := decoderFromHF("starcoder2", modelType, data, true)
	if err != nil {
		return Arch{}, err
	}
	var h hfStarcoder2
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	window := 0
	if h.Window != nil {
		window = *h.Window
	}
	if window < 0 {
		return Arch{}, fmt.Errorf("config.json: sliding_window %d: want a positive window or null", window)
	}
	a.AttnBias = orBool(h.UseBias, true)
	a.Dropout, a.AttnDropout = orF64(h.ResidDrop, 0), orF64(h.AttnDrop, 0)
	a.Decoder = starcoder2Quirks(window, orF64(h.EmbedDrop, 0), hfGelu(hd.HiddenAct, "gelu_tanh"))
	a.Decoder.Bias = a.AttnBias
	return a, nil
}

package memmodel

import "fmt"

// The Phi family: transformers' PhiForCausalLM (microsoft/phi-1,
// phi-1_5, phi-2), recorded by buildDecoder. One LayerNorm's output feeds
// both the attention and the MLP, which run in parallel and join the
// residual stream together; separate q/k/v projections with biases; part
// of each head rotated (partial_rotary_factor) and concatenated back with
// the rest; CLIP's ungated MLP (fc1, NewGELU written as Python ops, fc2);
// resid_pdrop dropout on both branches' outputs; an LM head with a bias.

func init() {
	register(&Family{
		Name: "phi", Task: "causal-lm", Attention: true, AnyLength: true, Decoder: true,
		ModelTypes: []string{"phi"},
		// PEFT's default target modules for phi
		LoRATargets: []string{"q_proj", "v_proj", "fc1", "fc2"},
		Models: []Arch{
			// microsoft/phi-1, phi-1_5, phi-2 config.json
			phi("phi-1", 2048, 24, 8192, 0.5, 0),
			phi("phi-1.5", 2048, 24, 8192, 0.5, 0),
			phi("phi-2", 2560, 32, 10240, 0.4, 0.1),
		},
		Aliases: map[string]string{
			"microsoft/phi-1": "phi-1", "microsoft/phi-1_5": "phi-1.5", "microsoft/phi-2": "phi-2",
			"phi-1_5": "phi-1.5", "phi1.5": "phi-1.5", "phi2": "phi-2", "phi-15": "phi-1.5",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildDecoder(b, a, in.Batch, in.Seq, in.Cache) },
		FromHF: phiFromHF,
	})
}

// phiQuirks are Phi's, with its module names.
func phiQuirks(rotary, embedDrop float64, act string) DecoderQuirks {
	return DecoderQuirks{Norm: "lnb", Act: act, Parallel: "one-norm", PlainMLP: true, Bias: true, HeadBias: true,
		PartialRotary: rotary, EmbedDropout: embedDrop, Names: map[string]string{"o": "dense", "up": "fc1", "down": "fc2"}}
}

func phi(name string, hidden, layers, ffn int, rotary, resid float64) Arch {
	return Arch{Name: name, Family: "phi", Hidden: hidden, Layers: layers, Heads: 32, FFN: ffn, Vocab: 51200,
		MaxPos: 2048, DefaultSeq: 2048, AttnBias: true, Dropout: resid, Decoder: phiQuirks(rotary, 0, "gelu_new")}
}

// hfPhi holds the config.json keys of Phi beyond hfDecoder's.
type hfPhi struct {
	ResidDrop   *float64 `json:"resid_pdrop"`
	EmbedDrop   *float64 `json:"embd_pdrop"`
	AttnDrop    *float64 `json:"attention_dropout"`
	QKLayerNorm bool     `json:"qk_layernorm"`
}

func phiFromHF(modelType string, data []byte) (Arch, error) {
	a, hd, err := decoderFromHF("phi", modelType, data, false)
	if err != nil {
		return Arch{}, err
	}
	var h hfPhi
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	if h.QKLayerNorm {
		return Arch{}, fmt.Errorf("config.json: qk_layernorm true is not planned (no Phi checkpoint sets it)")
	}
	rot := hd.partialRotary(0.5, nil)
	if rot <= 0 || rot > 1 {
		return Arch{}, fmt.Errorf("config.json: partial_rotary_factor %g: want a fraction in (0, 1]", rot)
	}
	a.AttnBias = true
	a.Dropout, a.AttnDropout = orF64(h.ResidDrop, 0), orF64(h.AttnDrop, 0)
	a.Decoder = phiQuirks(rot, orF64(h.EmbedDrop, 0), hfGelu(hd.HiddenAct, "gelu_new"))
	return a, nil
}

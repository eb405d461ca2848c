package memmodel

import "fmt"

// The GPT-NeoX family: transformers' GPTNeoXForCausalLM (EleutherAI's
// Pythia suite and GPT-NeoX-20B), recorded by buildDecoder. Attention and
// MLP run in parallel off the residual stream, each behind its own
// LayerNorm (use_parallel_residual; sequential when it is off); one fused
// query_key_value projection, interleaved per head, whose slices are
// views of its output; a quarter of each head rotated (rotary_pct) and
// concatenated back with the rest; an ungated GELU MLP; biases on every
// projection; an untied output embedding (embed_out).

func init() {
	register(&Family{
		Name: "gpt-neox", Task: "causal-lm", Attention: true, AnyLength: true, Decoder: true,
		ModelTypes:  []string{"gpt_neox"},
		LoRATargets: []string{"query_key_value"},
		Models: []Arch{
			// EleutherAI/pythia-* and gpt-neox-20b config.json
			pythia("pythia-70m", 512, 6, 8, 50304),
			pythia("pythia-160m", 768, 12, 12, 50304),
			pythia("pythia-410m", 1024, 24, 16, 50304),
			pythia("pythia-1b", 2048, 16, 8, 50304),
			pythia("pythia-1.4b", 2048, 24, 16, 50304),
			pythia("pythia-2.8b", 2560, 32, 32, 50304),
			pythia("pythia-6.9b", 4096, 32, 32, 50432),
			pythia("pythia-12b", 5120, 36, 40, 50688),
			pythia("gpt-neox-20b", 6144, 44, 64, 50432),
		},
		Aliases: map[string]string{
			"eleutherai/pythia-70m": "pythia-70m", "eleutherai/pythia-160m": "pythia-160m",
			"eleutherai/pythia-410m": "pythia-410m", "eleutherai/pythia-1b": "pythia-1b",
			"eleutherai/pythia-1.4b": "pythia-1.4b", "eleutherai/pythia-2.8b": "pythia-2.8b",
			"eleutherai/pythia-6.9b": "pythia-6.9b", "eleutherai/pythia-12b": "pythia-12b",
			"eleutherai/gpt-neox-20b": "gpt-neox-20b", "neox-20b": "gpt-neox-20b", "pythia-1.4": "pythia-1.4b",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildDecoder(b, a, in.Batch, in.Seq, in.Cache) },
		FromHF: neoxFromHF,
	})
}

// neoxQuirks are GPT-NeoX's, with its module names.
func neoxQuirks(parallel bool, rotary, dropout float64, act string) DecoderQuirks {
	q := DecoderQuirks{Norm: "lnb", Act: act, FusedQKV: true, PlainMLP: true, Bias: true, PartialRotary: rotary,
		EmbedDropout: dropout, Names: map[string]string{"qkv": "query_key_value", "o": "dense",
			"up": "dense_h_to_4h", "down": "dense_4h_to_h", "head": "embed_out"}}
	if parallel {
		q.Parallel = "two-norm"
	}
	return q
}

func pythia(name string, hidden, layers, heads, vocab int) Arch {
	return Arch{Name: name, Family: "gpt-neox", Hidden: hidden, Layers: layers, Heads: heads, FFN: 4 * hidden,
		Vocab: vocab, MaxPos: 2048, DefaultSeq: 2048, AttnBias: true, Decoder: neoxQuirks(true, 0.25, 0, "gelu")}
}

// hfNeox holds the config.json keys of GPT-NeoX beyond hfDecoder's.
type hfNeox struct {
	RotaryPct  *float64 `json:"rotary_pct"`
	Parallel   *bool    `json:"use_parallel_residual"`
	HiddenDrop *float64 `json:"hidden_dropout"`
	AttnDrop   *float64 `json:"attention_dropout"`
	AttnBias   *bool    `json:"attention_bias"`
}

func neoxFromHF(modelType string, data []byte) (Arch, error) {
	a, hd, err := decoderFromHF("gpt-neox", modelType, data, false)
	if err != nil {
		return Arch{}, err
	}
	var h hfNeox
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	rot := hd.partialRotary(0.25, h.RotaryPct)
	if rot <= 0 || rot > 1 {
		return Arch{}, fmt.Errorf("config.json: rotary_pct %g: want a fraction in (0, 1]", rot)
	}
	drop := orF64(h.HiddenDrop, 0)
	a.Dropout, a.AttnDropout = drop, orF64(h.AttnDrop, 0)
	a.AttnBias = orBool(h.AttnBias, true)
	a.Decoder = neoxQuirks(orBool(h.Parallel, true), rot, drop, hfGelu(hd.HiddenAct, "gelu"))
	return a, nil
}

package memmodel

import "fmt"

// The Falcon family: transformers' FalconForCausalLM (tiiuae/falcon-7b,
// falcon-40b), recorded by buildDecoder. Attention and MLP run in parallel
// off the residual stream (parallel_attn): behind one input LayerNorm in
// the original architecture, behind ln_attn and ln_mlp in the new one
// (falcon-40b); one fused query_key_value projection with a single
// key/value head (multi_query) or num_kv_heads groups; full rotary; no
// biases; a GELU MLP (dense_h_to_4h, dense_4h_to_h); the LM head tied to
// the word embedding. ALiBi Falcons (falcon-rw) are refused.

func init() {
	register(&Family{
		Name: "falcon", Task: "causal-lm", Attention: true, AnyLength: true, Decoder: true,
		ModelTypes: []string{"falcon"},
		// PEFT's default target modules for falcon
		LoRATargets: []string{"query_key_value"},
		Models: []Arch{
			// tiiuae/falcon-7b and falcon-40b config.json
			falconArch("falcon-7b", 4544, 32, 71, 1, false),
			falconArch("falcon-40b", 8192, 60, 128, 8, true),
		},
		Aliases: map[string]string{
			"tiiuae/falcon-7b": "falcon-7b", "tiiuae/falcon-7b-instruct": "falcon-7b",
			"tiiuae/falcon-40b": "falcon-40b", "tiiuae/falcon-40b-instruct": "falcon-40b",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildDecoder(b, a, in.Batch, in.Seq, in.Cache) },
		FromHF: falconFromHF,
	})
}

// falconQuirks are Falcon's, with its module names: parallel behind one
// norm (the original architecture) or two (the new one), or sequential.
func falconQuirks(parallel, twoNorms, bias bool) DecoderQuirks {
	q := DecoderQuirks{Norm: "lnb", Act: "gelu", FusedQKV: true, PlainMLP: true, Bias: bias, MathAttn: true,
		Names: map[string]string{"qkv": "query_key_value", "o": "dense", "up": "dense_h_to_4h", "down": "dense_4h_to_h"}}
	switch {
	case parallel && twoNorms:
		q.Parallel = "two-norm"
	case parallel:
		q.Parallel = "one-norm"
	}
	return q
}

func falconArch(name string, hidden, layers, heads, kv int, newArch bool) Arch {
	return Arch{Name: name, Family: "falcon", Hidden: hidden, Layers: layers, Heads: heads, KVHeads: kv, FFN: 4 * hidden,
		Vocab: 65024, MaxPos: 2048, DefaultSeq: 2048, Tied: true, Decoder: falconQuirks(true, newArch, false)}
}

func falconFromHF(modelType string, data []byte) (Arch, error) {
	var h struct {
		Hidden     int      `json:"hidden_size"`
		Layers     int      `json:"num_hidden_layers"`
		Heads      int      `json:"num_attention_heads"`
		KVHeads    int      `json:"num_kv_heads"`
		MultiQuery *bool    `json:"multi_query"`
		Parallel   *bool    `json:"parallel_attn"`
		NewArch    bool     `json:"new_decoder_architecture"`
		LNs        *int     `json:"num_ln_in_parallel_attn"`
		Bias       bool     `json:"bias"`
		Alibi      bool     `json:"alibi"`
		FFN        int      `json:"ffn_hidden_size"`
		Act        string   `json:"activation"`
		Vocab      int      `json:"vocab_size"`
		MaxPos     int      `json:"max_position_embeddings"`
		Tie        *bool    `json:"tie_word_embeddings"`
		Dropout    *float64 `json:"hidden_dropout"`
		AttnDrop   *float64 `json:"attention_dropout"`
		HeadDimKey int      `json:"head_dim"`
	}
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	if err := needPositive(hfKey{"hidden_size", h.Hidden}, hfKey{"num_hidden_layers", h.Layers},
		hfKey{"num_attention_heads", h.Heads}, hfKey{"vocab_size", h.Vocab}); err != nil {
		return Arch{}, err
	}
	if err := notNegative(hfKey{"num_kv_heads", h.KVHeads}, hfKey{"ffn_hidden_size", h.FFN},
		hfKey{"max_position_embeddings", h.MaxPos}); err != nil {
		return Arch{}, err
	}
	switch {
	case h.Alibi:
		return Arch{}, fmt.Errorf("config.json: alibi: ALiBi Falcons (falcon-rw) are not modelled; rotary ones are")
	case h.Act != "" && h.Act != "gelu":
		return Arch{}, fmt.Errorf("config.json: activation %q: Falcon is modelled with gelu", h.Act)
	case h.Hidden%h.Heads != 0:
		return Arch{}, fmt.Errorf("config.json: hidden_size %d is not a multiple of num_attention_heads %d", h.Hidden, h.Heads)
	}
	kv := h.Heads
	switch {
	case h.NewArch:
		kv = max(h.KVHeads, 1)
	case orBool(h.MultiQuery, true):
		kv = 1
	}
	twoNorms := h.NewArch && (h.LNs == nil || *h.LNs == 2)
	a := falconArch(modelType, h.Hidden, h.Layers, h.Heads, kv, twoNorms)
	a.Decoder = falconQuirks(orBool(h.Parallel, true) || h.NewArch, twoNorms, h.Bias)
	a.AttnBias = h.Bias
	if h.FFN > 0 {
		a.FFN = h.FFN
	}
	a.Vocab = h.Vocab
	if h.MaxPos > 0 {
		a.MaxPos, a.DefaultSeq = h.MaxPos, h.MaxPos
	}
	a.Tied = orBool(h.Tie, true)
	a.Dropout, a.AttnDropout = orF64(h.Dropout, 0), orF64(h.AttnDrop, 0)
	return a, nil
}

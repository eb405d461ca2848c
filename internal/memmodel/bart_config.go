package memmodel

import (
	"encoding/json"
	"fmt"
	"strings"
)

// bartKin is one of BART's relatives as config.json describes it: the
// family, the transformers class whose layout it is, its fixed layout and
// its default vocabulary.
type bartKin struct {
	family, class string
	layout        BARTOpts
	vocab         int
}

// bartActs are the activation_function values the BART builders model,
// as builder.activation names them (ACT2FN's swish is SiLU).
var bartActs = map[string]string{"gelu": "gelu", "swish": "silu", "silu": "silu", "relu": "relu",
	"gelu_new": "gelu_new", "gelu_pytorch_tanh": "gelu_tanh"}

// bartKinFromHF reads a BART, Marian or mBART config.json. The layout
// keys transformers 3's BartConfig read (normalize_before,
// add_final_layer_norm, normalize_embedding, static_position_embeddings)
// are still in the released checkpoints' files but no class reads them
// now: each model_type runs one layout, so a key that says otherwise
// describes a model this class would not run and is refused.
func bartKinFromHF(data []byte, k bartKin) (Arch, error) {
	var h struct {
		hfEncDec
		MaxPos   int      `json:"max_position_embeddings"`
		AttnDrop *float64 `json:"attention_dropout"`
		ActDrop  *float64 `json:"activation_dropout"`
		Act      string   `json:"activation_function"`
		Tie      *bool    `json:"tie_word_embeddings"`
		// forced_eos_token_id: absent is the class's default (set); null
		// turns generate's ForcedEOSTokenLogitsProcessor off
		ForcedEOS json.RawMessage `json:"forced_eos_token_id"`
		// scale_embedding only sets the factor: the multiply (a new
		// tensor) runs at 1.0 too, so it changes no memory
		Scale      *bool `json:"scale_embedding"`
		NormBefore *bool `json:"normalize_before"`
		FinalNorm  *bool `json:"add_final_layer_norm"`
		EmbedNorm  *bool `json:"normalize_embedding"`
		Static     *bool `json:"static_position_embeddings"`
		Share      *bool `json:"share_encoder_decoder_embeddings"`
		DecVocab   int   `json:"decoder_vocab_size"`
	}
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	if err := h.check(); err != nil {
		return Arch{}, err
	}
	if err := needPositive(hfKey{"vocab_size", h.Vocab}); err != nil {
		return Arch{}, err
	}
	if err := notNegative(hfKey{"max_position_embeddings", h.MaxPos}, hfKey{"decoder_vocab_size", h.DecVocab}); err != nil {
		return Arch{}, err
	}
	lay := k.layout
	act, ok := bartActs[orStr(h.Act, "gelu")]
	if !ok {
		return Arch{}, fmt.Errorf("config.json: activation_function %q is not modelled for %s (modelled: %s)",
			h.Act, k.family, strings.Join(sortedKeys(bartActs), ", "))
	}
	// the file's activation replaces the kin's default (Marian's swish,
	// Pegasus' ReLU): "" is GELU
	lay.Act = act
	if act == "gelu" {
		lay.Act = ""
	}
	for _, c := range []struct {
		key  string
		v    *bool
		runs bool
	}{
		{"normalize_before", h.NormBefore, lay.PreNorm}, {"add_final_layer_norm", h.FinalNorm, lay.PreNorm},
		{"normalize_embedding", h.EmbedNorm, !lay.NoEmbedNorm}, {"static_position_embeddings", h.Static, lay.Sinusoidal},
	} {
		if c.v != nil && *c.v != c.runs {
			return Arch{}, fmt.Errorf("config.json: %s %v: transformers' %s runs %s = %v whatever the key says; a model of the other layout is not modelled (is model_type right?)",
				c.key, *c.v, k.class, c.key, c.runs)
		}
	}
	if h.Share != nil && !*h.Share {
		return Arch{}, fmt.Errorf("config.json: share_encoder_decoder_embeddings false (a separate %d-token decoder embedding) is not modelled for %s",
			h.DecVocab, k.family)
	}
	if h.DModel%h.EncHeads != 0 {
		return Arch{}, fmt.Errorf("config.json: d_model %d is not a multiple of encoder_attention_heads %d", h.DModel, h.EncHeads)
	}
	a := bartKinArch(k, k.family, h.DModel, h.EncLayers, h.EncHeads, h.EncFFN)
	a.BART = lay
	a.DecLayers, a.Vocab = h.DecLayers, h.Vocab
	if h.MaxPos > 0 {
		a.MaxPos, a.DefaultSeq = h.MaxPos, h.MaxPos
	}
	a.Dropout, a.AttnDropout = orF64(h.Dropout, 0.1), orF64(h.AttnDrop, 0)
	a.ActDropout = orF64(h.ActDrop, 0)
	a.Tied = orBool(h.Tie, true)
	a.BART.NoForcedEOS = string(h.ForcedEOS) == "null"
	return a, nil
}

// bartKinArch is a catalog shape of the relative k: d_model, layers per
// stack, heads and FFN width, 1024 positions (the caller sets others).
func bartKinArch(k bartKin, name string, d, layers, heads, ffn int) Arch {
	return Arch{Name: name, Family: k.family, Hidden: d, Layers: layers, DecLayers: layers, Heads: heads, FFN: ffn,
		Vocab: k.vocab, MaxPos: 1024, DefaultSeq: 1024, Dropout: 0.1, Tied: true, BART: k.layout}
}

func orStr(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

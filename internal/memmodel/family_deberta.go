package memmodel

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The DeBERTa-v2 family: transformers' DebertaV2ForSequenceClassification
// (and its MaskedLM, TokenClassification and QuestionAnswering heads) for
// config.json model_type "deberta-v2": microsoft/deberta-v3-xsmall, -small,
// -base, -large, mdeberta-v3-base and deberta-v2-xlarge, -xxlarge. A BERT-like
// post-norm encoder whose attention adds disentangled relative-position
// scores (deberta_build.go): no absolute positions, no token types, the
// relative embeddings normalised once per forward and projected in every
// layer by its own query and key projections. The sequence-classification
// head is ContextPooler (dense and GELU on the first token) and a classifier.

func init() {
	register(&Family{
		Name: "deberta-v2", Task: "sequence-classification",
		Heads:      []string{"masked-lm", "token-classification", "question-answering"},
		Attention:  true,
		AnyLength:  true, // relative positions only: any sequence length runs
		ModelTypes: []string{"deberta-v2"},
		// PEFT's default target modules for deberta-v2
		LoRATargets: []string{"query_proj", "value_proj"},
		Models: []Arch{
			debertaV3("deberta-v3-xsmall", 384, 12, 6, 1536, 128100),
			debertaV3("deberta-v3-small", 768, 6, 12, 3072, 128100),
			debertaV3("deberta-v3-base", 768, 12, 12, 3072, 128100),
			debertaV3("deberta-v3-large", 1024, 24, 16, 4096, 128100),
			debertaV3("mdeberta-v3-base", 768, 12, 12, 3072, 251000),
			debertaV2("deberta-v2-xlarge", 24), debertaV2("deberta-v2-xxlarge", 48),
		},
		Aliases: map[string]string{
			"microsoft/deberta-v3-xsmall": "deberta-v3-xsmall", "microsoft/deberta-v3-small": "deberta-v3-small",
			"microsoft/deberta-v3-base": "deberta-v3-base", "microsoft/deberta-v3-large": "deberta-v3-large",
			"microsoft/mdeberta-v3-base":  "mdeberta-v3-base",
			"microsoft/deberta-v2-xlarge": "deberta-v2-xlarge", "microsoft/deberta-v2-xxlarge": "deberta-v2-xxlarge",
			"microsoft/deberta-v2-xlarge-mnli": "deberta-v2-xlarge", "microsoft/deberta-v2-xxlarge-mnli": "deberta-v2-xxlarge",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildDeberta(b, a, in.Batch, in.Seq) },
		FromHF: debertaFromHF,
	})
}

// Deberta is what DeBERTa-v2's config.json sets beyond BERT's sizes
// (Arch.Deberta; zero for other families).
type Deberta struct {
	// Span is the relative attention span (pos_ebd_size: position_buckets,
	// else max_relative_positions); the relative embedding has 2·Span rows.
	// 0: relative_attention off.
	Span int `json:"span,omitempty"`
	// Buckets > 0: relative positions are log-bucketed (position_buckets).
	Buckets int `json:"buckets,omitempty"`
	// C2P and P2C are pos_att_type's content-to-position and
	// position-to-content scores.
	C2P bool `json:"c2p,omitempty"`
	P2C bool `json:"p2c,omitempty"`
	// OwnPosProj: share_att_key false, so each layer has pos_key_proj (c2p)
	// and pos_query_proj (p2c) for the relative embeddings.
	OwnPosProj bool `json:"own_pos_proj,omitempty"`
	// NormRel: norm_rel_ebd "layer_norm" normalises the relative embeddings.
	NormRel bool `json:"norm_rel,omitempty"`
	// AbsPositions: position_biased_input, absolute position embeddings
	// added to the tokens'.
	AbsPositions bool `json:"abs_positions,omitempty"`
	// EmbedSize is embedding_size where it differs from the hidden size
	// (embed_proj); 0 otherwise.
	EmbedSize int `json:"embed_size,omitempty"`
	// ConvKernel > 0: the ConvLayer after the first layer (deberta-v2-xlarge
	// and -xxlarge), with ConvAct.
	ConvKernel int    `json:"conv_kernel,omitempty"`
	ConvAct    string `json:"conv_act,omitempty"`
	// Act is hidden_act, PoolerAct pooler_hidden_act (as debertaActName
	// spells them); PoolerDropout and ClsDropout the two classification
	// dropouts.
	Act           string  `json:"act,omitempty"`
	PoolerAct     string  `json:"pooler_act,omitempty"`
	PoolerDropout float64 `json:"pooler_dropout,omitempty"`
	ClsDropout    float64 `json:"cls_dropout,omitempty"`
}

// debertaV3 is a microsoft/deberta-v3-* checkpoint's shape.
func debertaV3(name string, hidden, layers, heads, ffn, vocab int) Arch {
	return Arch{Name: name, Family: "deberta-v2", Hidden: hidden, Layers: layers, Heads: heads, FFN: ffn,
		Vocab: vocab, MaxPos: 512, Dropout: 0.1, AttnDropout: 0.1, Labels: 2, DefaultSeq: 512,
		Deberta: Deberta{Span: 256, Buckets: 256, C2P: true, P2C: true, NormRel: true, Act: "gelu", PoolerAct: "gelu",
			ClsDropout: 0.1}}
}

// debertaV2 is microsoft/deberta-v2-xlarge's shape at the given depth
// (-xxlarge has 48 layers): 1536 wide, 24 heads, the ConvLayer after the
// first layer.
func debertaV2(name string, layers int) Arch {
	a := debertaV3(name, 1536, layers, 24, 6144, 128100)
	a.Deberta.ConvKernel, a.Deberta.ConvAct = 3, "gelu"
	return a
}

// debertaFromHF reads DebertaV2Config's keys.
func debertaFromHF(modelType string, data []byte) (Arch, error) {
	var h struct {
		Hidden       int               `json:"hidden_size"`
		Layers       int               `json:"num_hidden_layers"`
		Heads        int               `json:"num_attention_heads"`
		HeadSize     int               `json:"attention_head_size"`
		Inter        int               `json:"intermediate_size"`
		Vocab        int               `json:"vocab_size"`
		MaxPos       int               `json:"max_position_embeddings"`
		TypeVocab    int               `json:"type_vocab_size"`
		EmbedSize    int               `json:"embedding_size"`
		Act          string            `json:"hidden_act"`
		HiddenDrop   *float64          `json:"hidden_dropout_prob"`
		AttnDrop     *float64          `json:"attention_probs_dropout_prob"`
		Relative     bool              `json:"relative_attention"`
		Buckets      int               `json:"position_buckets"`
		MaxRel       int               `json:"max_relative_positions"`
		PosAtt       json.RawMessage   `json:"pos_att_type"`
		ShareKey     bool              `json:"share_att_key"`
		NormRel      string            `json:"norm_rel_ebd"`
		AbsPositions *bool             `json:"position_biased_input"`
		ConvKernel   int               `json:"conv_kernel_size"`
		ConvGroups   int               `json:"conv_groups"`
		ConvAct      string            `json:"conv_act"`
		PoolerSize   int               `json:"pooler_hidden_size"`
		PoolerAct    string            `json:"pooler_hidden_act"`
		PoolerDrop   *float64          `json:"pooler_dropout"`
		ClsDrop      *float64          `json:"cls_dropout"`
		NumLabels    int               `json:"num_labels"`
		ID2Label     map[string]string `json:"id2label"`
	}
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	if err := needPositive(hfKey{"hidden_size", h.Hidden}, hfKey{"num_hidden_layers", h.Layers},
		hfKey{"num_attention_heads", h.Heads}, hfKey{"intermediate_size", h.Inter}, hfKey{"vocab_size", h.Vocab}); err != nil {
		return Arch{}, err
	}
	if err := notNegative(hfKey{"max_position_embeddings", h.MaxPos}, hfKey{"type_vocab_size", h.TypeVocab},
		hfKey{"attention_head_size", h.HeadSize}, hfKey{"embedding_size", h.EmbedSize}, hfKey{"conv_kernel_size", h.ConvKernel},
		hfKey{"pooler_hidden_size", h.PoolerSize}, hfKey{"num_labels", h.NumLabels}); err != nil {
		return Arch{}, err
	}
	if h.PoolerSize > 0 && h.PoolerSize != h.Hidden {
		return Arch{}, fmt.Errorf("config.json: pooler_hidden_size %d differs from hidden_size %d: ContextPooler's dense reads the hidden state, so transformers cannot run it",
			h.PoolerSize, h.Hidden)
	}
	a := debertaV3(modelType, h.Hidden, h.Layers, h.Heads, h.Inter, h.Vocab)
	a.HeadDim, a.TypeVocab = h.HeadSize, h.TypeVocab
	if h.MaxPos > 0 {
		a.MaxPos = h.MaxPos
	}
	a.Dropout, a.AttnDropout = orF64(h.HiddenDrop, 0.1), orF64(h.AttnDrop, 0.1)
	a.Labels = max(h.NumLabels, len(h.ID2Label), 2)
	d := Deberta{AbsPositions: orBool(h.AbsPositions, true), OwnPosProj: !h.ShareKey,
		PoolerDropout: orF64(h.PoolerDrop, 0), ClsDropout: orF64(h.ClsDrop, a.Dropout)}
	if h.EmbedSize > 0 && h.EmbedSize != h.Hidden {
		d.EmbedSize = h.EmbedSize
	}
	var err error
	if d.Act, err = debertaActName("hidden_act", h.Act); err != nil {
		return Arch{}, err
	}
	if d.PoolerAct, err = debertaActName("pooler_hidden_act", h.PoolerAct); err != nil {
		return Arch{}, err
	}
	if h.Relative {
		// DisentangledSelfAttention's pos_ebd_size
		d.Span = h.MaxRel
		if d.Span < 1 {
			d.Span = a.MaxPos
		}
		if h.Buckets > 0 {
			d.Span, d.Buckets = h.Buckets, h.Buckets
		}
		types, err := debertaPosAtt(h.PosAtt)
		if err != nil {
			return Arch{}, err
		}
		for _, t := range types {
			switch t {
			case "c2p":
				d.C2P = true
			case "p2c":
				d.P2C = true
			case "p2p", "":
				// p2p is accepted and never computed by transformers
			default:
				return Arch{}, fmt.Errorf("config.json: pos_att_type %q: want c2p, p2c or both", t)
			}
		}
		for _, n := range strings.Split(strings.ToLower(h.NormRel), "|") {
			d.NormRel = d.NormRel || strings.TrimSpace(n) == "layer_norm"
		}
	}
	if h.ConvKernel > 0 {
		if h.ConvGroups > 1 {
			return Arch{}, fmt.Errorf("config.json: conv_groups %d: the ConvLayer is modelled as a dense Conv1d (conv_groups 1, every released checkpoint)", h.ConvGroups)
		}
		d.ConvKernel = h.ConvKernel
		act := h.ConvAct
		if act == "" {
			act = "tanh"
		}
		if d.ConvAct, err = debertaActName("conv_act", act); err != nil {
			return Arch{}, err
		}
	}
	a.Deberta = d
	return a, nil
}

// debertaPosAtt reads pos_att_type: a list (DeBERTa-v3's configs) or a
// "|"-separated string (deberta-v2-xlarge's), lower-cased as
// DebertaV2Config does.
func debertaPosAtt(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		for i := range list {
			list[i] = strings.ToLower(strings.TrimSpace(list[i]))
		}
		return list, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("config.json: pos_att_type: want a list or a \"|\"-separated string, got %s", raw)
	}
	list = strings.Split(s, "|")
	for i := range list {
		list[i] = strings.ToLower(strings.TrimSpace(list[i]))
	}
	return list, nil
}

// debertaActName maps an activation name of the config to b.activation's.
func debertaActName(key, act string) (string, error) {
	switch act {
	case "", "gelu":
		return "gelu", nil
	case "gelu_new", "gelu_fast", "gelu_python":
		return "gelu_new", nil
	case "gelu_pytorch_tanh":
		return "gelu_tanh", nil
	case "relu", "tanh":
		return act, nil
	case "silu", "swish":
		return "silu", nil
	}
	return "", fmt.Errorf("config.json: %s %q: DeBERTa-v2 is modelled with gelu, gelu_new, relu, tanh or silu", key, act)
}

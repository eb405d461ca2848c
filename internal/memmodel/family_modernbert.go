package memmodel

import "fmt"

// The ModernBERT family: transformers' ModernBertFor{SequenceClassification,
// MaskedLM,TokenClassification,QuestionAnswering} (answerdotai/ModernBERT-base
// and -large, config.json model_type modernbert), as transformers 5 runs it
// under SDPA (dev92's traces). A pre-norm encoder: the token embedding and a
// LayerNorm (no positions), then layers of a fused Wqkv projection, rotary
// embeddings computed in float32 (q.float() twice, rotate_half, the sum cast
// back), SDPA — no mask on the global layers (flash in half precision), a
// sliding-window bias on the others (the memory-efficient kernel, a batch ×
// seq² bias in the compute dtype per layer) — the Wo projection, a float32
// residual, a second LayerNorm, a GeGLU MLP (Wi's output chunked, GELU of the
// first half times the second, Wo), the residual; a final LayerNorm; the
// prediction head (dense, GELU, LayerNorm) on the first token, the mean of
// all, or every token, and the classifier or the tied decoder. The first
// layer's attention norm is the identity. Norms and projections carry no
// biases by default.

func init() {
	register(&Family{
		Name: "modernbert", Task: "sequence-classification",
		Heads:     []string{"masked-lm", "token-classification", "question-answering"},
		Attention: true, ModelTypes: []string{"modernbert"},
		// PEFT has no default for modernbert: its fused attention input
		// projection, what fine-tuning recipes name
		LoRATargets: []string{"Wqkv"},
		Models: []Arch{
			modernBERT("modernbert-base", 768, 22, 12, 1152),
			modernBERT("modernbert-large", 1024, 28, 16, 2624),
		},
		Aliases: map[string]string{
			"answerdotai/modernbert-base": "modernbert-base", "answerdotai/modernbert-large": "modernbert-large",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildModernBERT(b, a, in.Batch, in.Seq) },
		FromHF: modernBERTFromHF,
	})
}

// ModernBERTOpts are the config.json switches of a ModernBERT model.
type ModernBERTOpts struct {
	NormBias       bool `json:"norm_bias,omitempty"`
	MLPBias        bool `json:"mlp_bias,omitempty"`
	ClassifierBias bool `json:"classifier_bias,omitempty"` // the head's dense
	DecoderBias    bool `json:"decoder_bias,omitempty"`    // the MLM decoder's
	// MeanPool: classifier_pooling "mean" (else the first token)
	MeanPool bool `json:"mean_pool,omitempty"`
	// EmbedDropout, MLPDropout, HeadDropout: embedding_dropout,
	// mlp_dropout, classifier_dropout
	EmbedDropout float64 `json:"embed_dropout,omitempty"`
	MLPDropout   float64 `json:"mlp_dropout,omitempty"`
	HeadDropout  float64 `json:"head_dropout,omitempty"`
}

func modernBERT(name string, hidden, layers, heads, ffn int) Arch {
	a := Arch{Name: name, Family: "modernbert", Hidden: hidden, Layers: layers, Heads: heads, FFN: ffn, Vocab: 50368,
		MaxPos: 8192, Labels: 2, DefaultSeq: 8192, Tied: true,
		ModernBERT: ModernBERTOpts{DecoderBias: true, ClassifierBias: false}}
	a.Decoder.SlidingWindow, a.Decoder.LayerTypes = 128, modernBERTLayers(layers, 3)
	return a
}

// modernBERTLayers are the layer types global_attn_every_n_layers makes:
// layer i is global when i is a multiple of every.
func modernBERTLayers(layers, every int) []string {
	t := make([]string, layers)
	for i := range t {
		t[i] = "sliding_attention"
		if every > 0 && i%every == 0 {
			t[i] = "full_attention"
		}
	}
	return t
}

func modernBERTFromHF(modelType string, data []byte) (Arch, error) {
	var h struct {
		Hidden     int               `json:"hidden_size"`
		Layers     int               `json:"num_hidden_layers"`
		Heads      int               `json:"num_attention_heads"`
		Inter      int               `json:"intermediate_size"`
		Vocab      int               `json:"vocab_size"`
		MaxPos     int               `json:"max_position_embeddings"`
		Every      *int              `json:"global_attn_every_n_layers"`
		Local      *int              `json:"local_attention"`
		LayerTypes []string          `json:"layer_types"`
		Act        string            `json:"hidden_activation"`
		NormBias   *bool             `json:"norm_bias"`
		AttnBias   *bool             `json:"attention_bias"`
		MLPBias    *bool             `json:"mlp_bias"`
		ClsBias    *bool             `json:"classifier_bias"`
		DecBias    *bool             `json:"decoder_bias"`
		Pooling    string            `json:"classifier_pooling"`
		EmbDrop    *float64          `json:"embedding_dropout"`
		MLPDrop    *float64          `json:"mlp_dropout"`
		AttnDrop   *float64          `json:"attention_dropout"`
		ClsDrop    *float64          `json:"classifier_dropout"`
		NumLabels  int               `json:"num_labels"`
		ID2Label   map[string]string `json:"id2label"`
	}
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	if err := needPositive(hfKey{"hidden_size", h.Hidden}, hfKey{"num_hidden_layers", h.Layers},
		hfKey{"num_attention_heads", h.Heads}, hfKey{"intermediate_size", h.Inter}, hfKey{"vocab_size", h.Vocab}); err != nil {
		return Arch{}, err
	}
	if err := notNegative(hfKey{"max_position_embeddings", h.MaxPos}, hfKey{"num_labels", h.NumLabels}); err != nil {
		return Arch{}, err
	}
	if h.Hidden%h.Heads != 0 || (h.Hidden/h.Heads)%2 != 0 {
		return Arch{}, fmt.Errorf("config.json: hidden_size %d over num_attention_heads %d: want an even head size", h.Hidden, h.Heads)
	}
	if h.Act != "" && h.Act != "gelu" {
		return Arch{}, fmt.Errorf("config.json: hidden_activation %q: ModernBERT is modelled with gelu", h.Act)
	}
	if h.Pooling != "" && h.Pooling != "cls" && h.Pooling != "mean" {
		return Arch{}, fmt.Errorf("config.json: classifier_pooling %q: want cls or mean", h.Pooling)
	}
	a := modernBERT(modelType, h.Hidden, h.Layers, h.Heads, h.Inter)
	a.Vocab = h.Vocab
	if h.MaxPos > 0 {
		a.MaxPos, a.DefaultSeq = h.MaxPos, h.MaxPos
	}
	every := 3
	if h.Every != nil {
		every = *h.Every
	}
	a.Decoder.LayerTypes = modernBERTLayers(h.Layers, every)
	if len(h.LayerTypes) > 0 {
		if len(h.LayerTypes) != h.Layers {
			return Arch{}, fmt.Errorf("config.json: layer_types lists %d layers, num_hidden_layers is %d", len(h.LayerTypes), h.Layers)
		}
		for _, t := range h.LayerTypes {
			if t != "sliding_attention" && t != "full_attention" {
				return Arch{}, fmt.Errorf("config.json: layer_types: %q: want sliding_attention or full_attention", t)
			}
		}
		a.Decoder.LayerTypes = h.LayerTypes
	}
	if h.Local != nil {
		if *h.Local <= 0 {
			return Arch{}, fmt.Errorf("config.json: local_attention %d: want a positive window", *h.Local)
		}
		a.Decoder.SlidingWindow = *h.Local
	}
	a.AttnBias = orBool(h.AttnBias, false)
	a.ModernBERT = ModernBERTOpts{NormBias: orBool(h.NormBias, false), MLPBias: orBool(h.MLPBias, false),
		ClassifierBias: orBool(h.ClsBias, false), DecoderBias: orBool(h.DecBias, true), MeanPool: h.Pooling == "mean",
		EmbedDropout: orF64(h.EmbDrop, 0), MLPDropout: orF64(h.MLPDrop, 0), HeadDropout: orF64(h.ClsDrop, 0)}
	a.AttnDropout = orF64(h.AttnDrop, 0)
	a.Labels = max(h.NumLabels, len(h.ID2Label), 2)
	return a, nil
}

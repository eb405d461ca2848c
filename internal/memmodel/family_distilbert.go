package memmodel

import "fmt"

// The DistilBERT family: transformers' DistilBertForSequenceClassification
// (distilbert-base-uncased and -cased, distilbert-base-multilingual-cased),
// recorded by buildBERT with DistilBERT's layout. BERT's post-norm layer
// at 6 layers, without token types and without dropout after the
// attention's output projection; its classification head is
// pre_classifier, ReLU, dropout (seq_classif_dropout) and classifier on the
// first token; its QA head drops out (qa_dropout) before qa_outputs.

func init() {
	register(&Family{
		Name: "distilbert", Task: "sequence-classification", Heads: []string{"masked-lm", "token-classification", "question-answering"},
		Attention:  true,
		ModelTypes: []string{"distilbert"},
		// PEFT's default target modules for distilbert
		LoRATargets: []string{"q_lin", "v_lin"},
		Models: []Arch{
			distilbert("distilbert-base", 30522),
			distilbert("distilbert-base-cased", 28996),
			distilbert("distilbert-base-multilingual", 119547),
		},
		Aliases: map[string]string{
			"distilbert-base-uncased": "distilbert-base", "distilbert/distilbert-base-uncased": "distilbert-base",
			"distilbert/distilbert-base-cased":                "distilbert-base-cased",
			"distilbert-base-multilingual-cased":              "distilbert-base-multilingual",
			"distilbert/distilbert-base-multilingual-cased":   "distilbert-base-multilingual",
			"distilbert-base-uncased-finetuned-sst-2-english": "distilbert-base",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildBERT(b, a, in.Batch, in.Seq, &distilLayout) },
		FromHF: distilbertFromHF,
	})
}

// distilLayout is DistilBERT's encoder as buildBERT records it.
var distilLayout = encoderLayout{
	names: map[string]string{"query": "q_lin", "key": "k_lin", "value": "v_lin", "dense": "out_lin",
		"intermediate": "lin1", "output": "lin2", "pooler": "pre_classifier", "transform": "vocab_transform"},
	noTokenTypes: true, clsAct: "relu", qaDropout: true,
}

func distilbert(name string, vocab int) Arch {
	return Arch{Name: name, Family: "distilbert", Hidden: 768, Layers: 6, Heads: 12, FFN: 3072, Vocab: vocab,
		MaxPos: 512, Dropout: 0.1, AttnDropout: 0.1, Labels: 2, DefaultSeq: 512}
}

func distilbertFromHF(modelType string, data []byte) (Arch, error) {
	var h struct {
		Dim        int               `json:"dim"`
		Layers     int               `json:"n_layers"`
		Heads      int               `json:"n_heads"`
		HiddenDim  int               `json:"hidden_dim"`
		Vocab      int               `json:"vocab_size"`
		MaxPos     int               `json:"max_position_embeddings"`
		Dropout    *float64          `json:"dropout"`
		AttnDrop   *float64          `json:"attention_dropout"`
		Activation string            `json:"activation"`
		NumLabels  int               `json:"num_labels"`
		ID2Label   map[string]string `json:"id2label"`
	}
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	if err := needPositive(hfKey{"dim", h.Dim}, hfKey{"n_layers", h.Layers}, hfKey{"n_heads", h.Heads},
		hfKey{"hidden_dim", h.HiddenDim}, hfKey{"vocab_size", h.Vocab}); err != nil {
		return Arch{}, err
	}
	if err := notNegative(hfKey{"max_position_embeddings", h.MaxPos}, hfKey{"num_labels", h.NumLabels}); err != nil {
		return Arch{}, err
	}
	if h.Activation != "" && h.Activation != "gelu" {
		return Arch{}, fmt.Errorf("config.json: activation %q: DistilBERT is modelled with gelu", h.Activation)
	}
	a := Arch{Name: modelType, Family: "distilbert", Hidden: h.Dim, Layers: h.Layers, Heads: h.Heads, FFN: h.HiddenDim,
		Vocab: h.Vocab, MaxPos: h.MaxPos, Dropout: orF64(h.Dropout, 0.1), AttnDropout: orF64(h.AttnDrop, 0.1),
		Labels: max(h.NumLabels, len(h.ID2Label), 2), DefaultSeq: 512}
	if a.MaxPos == 0 {
		a.MaxPos = 512
	}
	return a, nil
}

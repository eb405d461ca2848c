package memmodel

// The ELECTRA family: transformers' ElectraForSequenceClassification
// (and its token-classification and question-answering heads), the
// discriminators people fine-tune (google/electra-small/base/large-
// discriminator). ELECTRA's encoder is BERT's post-norm layer; its
// embeddings are embedding_size wide and, where that is not the hidden
// size (ELECTRA-small: 128 into 256), a Linear (embeddings_project) widens
// them before the first layer. There is no pooler: the classification
// head is dropout, dense, GELU, dropout and out_proj on the first token.

func init() {
	register(&Family{
		Name: "electra", Task: "sequence-classification", Heads: []string{"token-classification", "question-answering"},
		Attention:  true,
		ModelTypes: []string{"electra"},
		// PEFT's default target modules for electra
		LoRATargets: []string{"query", "value"},
		Models: []Arch{electra("electra-small", 128, 256, 12, 4), electra("electra-base", 768, 768, 12, 12),
			electra("electra-large", 1024, 1024, 24, 16)},
		Aliases: map[string]string{
			"google/electra-small-discriminator": "electra-small", "google/electra-base-discriminator": "electra-base",
			"google/electra-large-discriminator": "electra-large",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildBERT(b, a, in.Batch, in.Seq, &electraLayout) },
		FromHF: electraFromHF,
	})
}

// electraLayout is ELECTRA's encoder as buildBERT records it: BERT's
// modules, the embedding projection, and a GELU head whose dense and
// out_proj take the places of BERT's pooler and classifier.
var electraLayout = encoderLayout{
	names:          map[string]string{"pooler": "dense", "classifier": "out_proj"},
	attnOutDropout: true, interHeld: true, clsAct: "gelu", projected: true,
}

func electra(name string, embed, hidden, layers, heads int) Arch {
	return Arch{Name: name, Family: "electra", EmbedSize: embed, Hidden: hidden, Layers: layers, Heads: heads,
		FFN: 4 * hidden, Vocab: 30522, MaxPos: 512, TypeVocab: 2, Dropout: 0.1, AttnDropout: 0.1, Labels: 2,
		DefaultSeq: 512}
}

// electraFromHF is BERT's config reader plus embedding_size (the hidden
// size where a config omits it, as ElectraConfig's default of 128 applies
// only to the class's own defaults).
func electraFromHF(modelType string, data []byte) (Arch, error) {
	a, err := bertFromHF(modelType, data)
	if err != nil {
		return Arch{}, err
	}
	var h struct {
		Embed int `json:"embedding_size"`
	}
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	if err := notNegative(hfKey{"embedding_size", h.Embed}); err != nil {
		return Arch{}, err
	}
	a.Family, a.EmbedSize = "electra", h.Embed
	if a.EmbedSize == 0 {
		a.EmbedSize = a.Hidden
	}
	return a, nil
}

package memmodel

// The BERT family: transformers' BertForSequenceClassification (also
// RoBERTa configs, and XLM-RoBERTa's and CamemBERT's, whose modules are
// RoBERTa's copied under another name).

func init() {
	register(&Family{
		Name: "bert", Task: "sequence-classification", Heads: []string{"masked-lm", "token-classification", "question-answering"},
		Attention: true, Captured: true,
		ModelTypes:  []string{"bert", "roberta", "xlm-roberta", "camembert"},
		LoRATargets: []string{"query", "value"},
		// bert-tiny is the 2-layer, 128-wide BERT of the fixtures' capture
		// script (../shared/fixtures/capture/capture.py) and of
		// prajjwal1/bert-tiny (google/bert_uncased_L-2_H-128_A-2).
		Models: []Arch{bert("bert-tiny", 128, 2, 2), bert("bert-base", 768, 12, 12), bert("bert-large", 1024, 24, 16),
			roberta("roberta-base", 768, 12, 12, 50265), roberta("roberta-large", 1024, 24, 16, 50265),
			roberta("xlm-roberta-base", 768, 12, 12, 250002), roberta("xlm-roberta-large", 1024, 24, 16, 250002)},
		Aliases: map[string]string{
			"prajjwal1/bert-tiny": "bert-tiny", "google/bert_uncased_L-2_H-128_A-2": "bert-tiny",
			"bert-base-uncased": "bert-base", "bert-base-cased": "bert-base",
			"bert-large-uncased": "bert-large", "bert-large-cased": "bert-large",
			"google-bert/bert-base-uncased": "bert-base", "google-bert/bert-large-uncased": "bert-large",
			"FacebookAI/roberta-base": "roberta-base", "FacebookAI/roberta-large": "roberta-large",
			"FacebookAI/xlm-roberta-base": "xlm-roberta-base", "FacebookAI/xlm-roberta-large": "xlm-roberta-large",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildBERT(b, a, in.Batch, in.Seq, &bertLayout) },
		FromHF: bertFromHF,
	})
}

func bert(name string, hidden, layers, heads int) Arch {
	return Arch{Name: name, Family: "bert", Hidden: hidden, Layers: layers, Heads: heads, FFN: 4 * hidden,
		Vocab: 30522, MaxPos: 512, TypeVocab: 2, Dropout: 0.1, AttnDropout: 0.1, Labels: 2, DefaultSeq: 512}
}

// roberta is a RoBERTa checkpoint's shape as BERT's modules plan it: 514
// positions (padding_idx + 1 offsets them), one token type, and a
// classification head (dense + out_proj) the size of BERT's pooler and
// classifier.
func roberta(name string, hidden, layers, heads, vocab int) Arch {
	a := bert(name, hidden, layers, heads)
	a.Vocab, a.MaxPos, a.TypeVocab = vocab, 514, 1
	return a
}

func bertFromHF(modelType string, data []byte) (Arch, error) {
	var h struct {
		HiddenSize   int               `json:"hidden_size"`
		Layers       int               `json:"num_hidden_layers"`
		Heads        int               `json:"num_attention_heads"`
		Intermediate int               `json:"intermediate_size"`
		Vocab        int               `json:"vocab_size"`
		MaxPos       int               `json:"max_position_embeddings"`
		TypeVocab    int               `json:"type_vocab_size"`
		HiddenDrop   *float64          `json:"hidden_dropout_prob"`
		AttnDrop     *float64          `json:"attention_probs_dropout_prob"`
		NumLabels    int               `json:"num_labels"`
		ID2Label     map[string]string `json:"id2label"`
	}
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	a := Arch{Name: modelType, Family: "bert", Hidden: h.HiddenSize, Layers: h.Layers, Heads: h.Heads,
		FFN: h.Intermediate, Vocab: h.Vocab, MaxPos: h.MaxPos, TypeVocab: h.TypeVocab,
		Dropout: orF64(h.HiddenDrop, 0.1), AttnDropout: orF64(h.AttnDrop, 0.1), Labels: max(h.NumLabels, len(h.ID2Label), 2), DefaultSeq: 512}
	if err := needPositive(hfKey{"hidden_size", h.HiddenSize}, hfKey{"num_hidden_layers", h.Layers},
		hfKey{"num_attention_heads", h.Heads}, hfKey{"intermediate_size", h.Intermediate}, hfKey{"vocab_size", h.Vocab}); err != nil {
		return Arch{}, err
	}
	if err := notNegative(hfKey{"max_position_embeddings", h.MaxPos}, hfKey{"type_vocab_size", h.TypeVocab},
		hfKey{"num_labels", h.NumLabels}); err != nil {
		return Arch{}, err
	}
	if a.MaxPos == 0 {
		a.MaxPos = 512
	}
	return a, nil
}

// encoderLayout is how a BERT-like post-norm encoder departs from BERT's
// modules: its module names by role, whether it embeds token types,
// whether the attention's output
// projection is followed by dropout, the classification head's
// activation, and whether the QA head drops out first.
type encoderLayout struct {
	names          map[string]string
	noTokenTypes   bool
	attnOutDropout bool
	// interHeld: the FFN's intermediate output stays bound until the
	// output LayerNorm returns (BERT's feed_forward_chunk local);
	// DistilBERT's ff_chunk rebinds it at lin2, which frees it there when
	// lin2 is frozen (LoRA: dev83's trace)
	interHeld bool
	clsAct    string
	qaDropout bool
	// projected: the embeddings are Arch.EmbedSize wide and a Linear
	// (embeddings_project) widens them to the hidden size before the
	// encoder (ELECTRA-small); the projection's output, not the
	// embeddings', is then the local held until the encoder returns
	projected bool
}

// name is the module name of role r under the layout.
func (l *encoderLayout) name(r string) string {
	if n, ok := l.names[r]; ok {
		return n
	}
	return r
}

// bertLayout is BERT's (and RoBERTa's): roles are its module names.
var bertLayout = encoderLayout{attnOutDropout: true, interHeld: true, clsAct: "tanh"}

// buildBERT follows transformers' BertForSequenceClassification with SDPA
// (or BertForMaskedLM, Arch.Head masked-lm: bertMLMHead), or the encoder
// of the same shape that l describes (DistilBERT).
func buildBERT(b *builder, a *Arch, batch, seq int64, lay *encoderLayout) {
	ids := b.encoderInput(a, batch, seq)
	// under LoRA the embeddings and the first layer's frozen projections
	// read nothing requiring grad, and autograd saves nothing for them
	defer b.noGradSaves(len(b.g.ops))
	d, heads, ff := int64(a.Hidden), int64(a.Heads), int64(a.FFN)
	e := d // the embeddings' width
	if lay.projected && a.EmbedSize > 0 {
		e = int64(a.EmbedSize)
	}
	// parameters in BertEmbeddings' registration order (word, position,
	// token type), which is model.parameters()' and so the order Adam
	// makes its state in
	wte := b.param(int64(a.Vocab) * e)
	pos := b.param(int64(a.MaxPos) * e)
	var tt, te Tensor = -1, -1
	h := b.embedding(ids, wte, int64(a.Vocab), e)
	we := h
	if !lay.noTokenTypes {
		// RoBERTa's single token type still embeds; DistilBERT has none
		tt = b.param(int64(max(a.TypeVocab, 1)) * e)
		te = b.embedding(ids, tt, int64(max(a.TypeVocab, 1)), e)
		h = b.add(we, te)
	}
	pe := b.out(seq*e, b.dt(pos), pos)
	b.op("embedding", []Tensor{pos}, []Tensor{pe}, nil)
	h = b.add(h, pe)
	h = b.layerNorm(h, e, true)
	h = b.dropout(h, a.Dropout)
	// BertEmbeddings.forward's inputs_embeds, token_type_embeddings and
	// position_embeddings: locals until it returns (the fixtures'
	// BERT-base checkpointed trace)
	b.keep(we, te, pe)
	if e != d {
		h = b.linear(h, e, d, true, "embeddings_project")
	}
	emb := h
	mask := b.compiledPadMask(batch, seq)
	for l := 0; l < a.Layers; l++ {
		b.block = l
		in := h
		q := b.linear(h, d, d, true, lay.name("query"))
		k := b.linear(h, d, d, true, lay.name("key"))
		v := b.linear(h, d, d, true, lay.name("value"))
		b.sel = true
		att := b.sdpaMask(q, k, v, mask, attnShape{batch: batch, heads: heads, sq: seq, sk: seq, hd: d / heads,
			dropout: a.AttnDropout})
		b.sel = false
		ctx := att
		att = b.linear(att, d, d, true, lay.name("dense"))
		if lay.attnOutDropout {
			att = b.dropout(att, a.Dropout)
		}
		h = b.layerNorm(b.add(att, h), d, true)
		// BertSelfOutput's hidden_states, rebound when LayerNorm returns,
		// and BertAttention's self_outputs (the attention's output), a
		// local until it returns
		b.keep(att, ctx)
		attOut := h
		y := b.linear(h, d, ff, true, lay.name("intermediate"))
		y = b.gelu(y)
		inter := y
		y = b.linear(y, ff, d, true, lay.name("output"))
		y = b.dropout(y, a.Dropout)
		h = b.layerNorm(b.add(y, h), d, true)
		// BertOutput's hidden_states likewise, and feed_forward_chunk's
		// intermediate_output, a local until it returns (in a
		// checkpointed forward, which saves neither, the fixtures' trace
		// frees both after the LayerNorm)
		b.keep(y)
		if lay.interHeld {
			b.keep(inter)
		}
		// BertLayer.forward's hidden_states argument and its
		// attention_output local, until the layer returns. Post-norm:
		// both are LayerNorm outputs, which under autocast no op saves
		// (the projections save their low-precision casts), so without
		// this they would die at their residual adds (late36's BERT-tiny
		// fp16 trace: both alive when the last layer's output is made,
		// the forward's peak).
		b.keep(in, attOut)
	}
	// BertModel.forward's embedding_output, a local until the encoder
	// returns (the same trace: the embeddings' dropout output alive at the
	// end of the last layer)
	b.keep(emb)
	b.block = -1
	b.g.blocks = a.Layers
	switch a.Head {
	case "masked-lm":
		bertMLMHead(b, a, h, wte, lay)
		return
	case "token-classification":
		bertTokenHead(b, a, h, lay)
		return
	case "question-answering":
		bertQAHead(b, a, h, batch, seq, lay)
		return
	}
	// pooler on the [CLS] token, dropout, classifier: hidden_states[:, 0]
	// is a view, which the pooler's dense saves (in float32, where no
	// autocast cast copies it), so the last layer's output lives until the
	// pooler's backward, and SelectBackward then makes zeros of its size
	// (the fixtures' checkpointed float32 BERT trace: both 48 MiB)
	c := b.slice(h, batch*d)
	c = b.linear(c, d, d, true, lay.name("pooler"))
	c = b.unary(lay.clsAct, c, b.dt(c), false, true)
	c = b.dropout(c, a.Dropout)
	classes := int64(max(a.Labels, 2))
	logits := b.linear(c, d, classes, true, lay.name("classifier"))
	b.g.loss = b.crossEntropy(logits, classes)
}

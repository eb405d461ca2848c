package memmodel

import (
	"fmt"
	"slices"
	"strings"
)

// bertMLMHead is BertForMaskedLM's head (RobertaForMaskedLM's and
// XLMRobertaForMaskedLM's RobertaLMHead likewise) on the encoder output h
// of every token: a dense transform, GELU and LayerNorm, then the decoder,
// whose weight is the word embedding's (tied) and whose bias is its own
// vocabulary-sized parameter, into batch × seq × vocab logits; the loss is
// CrossEntropyLoss over every position (MLM labels mark most of them
// ignored, which saves nothing: the logits and their log-softmax are
// whole) on the logits as they are, not upcast first as ForCausalLMLoss
// does: under autocast log_softmax runs in the logits' bf16 and nll_loss
// on a float32 copy, both kept for backward (crossEntropy; dev74's
// traces: 238 MiB then 477 MiB at BERT-base b8 s512, the logits freed as
// the forward returns). BertModel is built without its pooler here
// (add_pooling_layer=False).
func bertMLMHead(b *builder, a *Arch, h, wte Tensor, l *encoderLayout) {
	d, vocab := int64(a.Hidden), int64(a.Vocab)
	// BertLMPredictionHead registers its bias before its submodules'
	// parameters are reached: model.parameters() (and Adam's state) put
	// it first
	bias := b.param(vocab)
	t := b.linear(h, d, d, true, l.name("transform"))
	t = b.gelu(t)
	t = b.layerNorm(t, d, true)
	logits := b.linearWith(t, wte, bias, d, vocab)
	b.holdOutput(logits)
	b.g.returned = append(b.g.returned, logits)
	b.g.loss = b.crossEntropy(logits, vocab)
}

// head is the task the plan trains for: masked-lm, or the family's own.
func (c *config) head() string {
	if c.arch.Head != "" {
		return c.arch.Head
	}
	return c.arch.family().Task
}

// headClassSuffixes are the endings of the transformers classes that put
// each planned head on a model.
var headClassSuffixes = map[string][]string{
	"causal-lm":               {"ForCausalLM", "LMHeadModel"},
	"sequence-classification": {"ForSequenceClassification"},
	"masked-lm":               {"ForMaskedLM"},
	"token-classification":    {"ForTokenClassification"},
	"question-answering":      {"ForQuestionAnswering"},
	"seq2seq":                 {"ForConditionalGeneration"},
	"speech-seq2seq":          {"ForConditionalGeneration"},
}

// headNote says when a config.json was saved from a class whose head is
// not the one planned (LlamaForSequenceClassification planned with the
// LM head, BertForTokenClassification with the sequence-classification
// one), so the logits and loss priced are not that class's.
func (c *config) headNote() string {
	cls, head := c.arch.HFClass, c.head()
	sfx, ok := headClassSuffixes[head]
	if cls == "" || !ok {
		return ""
	}
	for _, s := range sfx {
		if strings.HasSuffix(cls, s) {
			return ""
		}
	}
	msg := fmt.Sprintf("config.json names %s, but the plan prices %s's %s head: that class's logits and loss differ "+
		"(an LM head's logits are batch × seq × vocab, a classification head's a few numbers per sequence or token)",
		cls, c.arch.Family, head)
	if hs := c.arch.family().heads(); len(hs) > 0 {
		msg += "; --head " + strings.Join(append([]string{c.arch.family().Task}, hs...), "|") + " chooses"
	}
	return msg
}

// heads are the heads a training plan of the family can put on its trunk
// besides its task: Heads, and every decoder's score head
// (…ForSequenceClassification, decoderScoreHead).
func (f *Family) heads() []string {
	if f.Decoder {
		return append(append([]string(nil), f.Heads...), "sequence-classification")
	}
	return f.Heads
}

// headOfClass is the head a config.json's class puts on the family's
// trunk where the family plans it, "" for its task's (or an unplanned
// head, which headNote reports).
func (f *Family) headOfClass(cls string) string {
	for _, h := range f.heads() {
		for _, s := range headClassSuffixes[h] {
			if strings.HasSuffix(cls, s) {
				return h
			}
		}
	}
	return ""
}

// resolveHead applies spec key head: the family's task, or one of the
// heads it can put on its trunk instead (Family.heads). Empty keeps what
// the architecture says (a config.json's class, else the family's task).
func (c *config) resolveHead(head string) error {
	f := c.arch.family()
	switch {
	case head == "":
		return nil
	case head == f.Task:
		c.arch.Head = ""
		return nil
	case slices.Contains(f.heads(), head):
		c.arch.Head = head
		return nil
	}
	want := append([]string{f.Task}, f.heads()...)
	return specErr("head", "%q is not a head vramkit plans for %s (%s): want %s", head, c.arch.Name, f.Name, strings.Join(want, "|"))
}

// decoderScoreHead is a decoder's …ForSequenceClassification head (what a
// reward model trains): score, a Linear without bias from the hidden size
// to the labels, on every token's final hidden state, the last non-padding
// token's row picked per sequence (an int mask, positions and an argmax
// over batch × seq), and cross entropy over those rows. No LM head: the
// batch × seq × vocab logits a causal-LM step holds are absent.
func decoderScoreHead(b *builder, a *Arch, h Tensor, batch int64) {
	d, labels := int64(a.Hidden), int64(max(a.Labels, 2))
	b.module = "score"
	logits := b.linear(h, d, labels, false, "score")
	// (the last token's index comes from batch × seq int32 tensors, a few
	// KiB, left out)
	pooled := b.slice(logits, batch*labels)
	b.g.returned = append(b.g.returned, logits)
	b.module = "loss"
	b.g.loss = b.crossEntropy(pooled, labels)
}

// bertTokenHead is BertForTokenClassification's head (RoBERTa's and
// XLM-RoBERTa's likewise: NER, POS tagging) on the encoder output h of
// every token, BertModel built without its pooler: dropout
// (classifier_dropout, else hidden_dropout_prob), the classifier Linear to
// the labels on every token, and CrossEntropyLoss over batch × seq rows.
func bertTokenHead(b *builder, a *Arch, h Tensor, l *encoderLayout) {
	d, labels := int64(a.Hidden), int64(max(a.Labels, 2))
	b.module = "classifier"
	h = b.dropout(h, a.Dropout)
	logits := b.linear(h, d, labels, true, l.name("classifier"))
	b.g.returned = append(b.g.returned, logits)
	b.module = "loss"
	b.g.loss = b.crossEntropy(logits, labels)
}

// bertQAHead is BertForQuestionAnswering's head (extractive QA, SQuAD):
// qa_outputs, a Linear to two numbers per token (no dropout), split into
// start and end logits, each squeezed and made contiguous (a batch × seq
// copy), and the mean of two CrossEntropyLosses over batch rows of seq
// classes (the answer span's start and end positions). DistilBERT's
// drops out first (qa_dropout, encoderLayout.qaDropout).
func bertQAHead(b *builder, a *Arch, h Tensor, batch, seq int64, l *encoderLayout) {
	d := int64(a.Hidden)
	b.module = "qa_outputs"
	if l.qaDropout {
		h = b.dropout(h, a.Dropout)
	}
	logits := b.linear(h, d, 2, true, "qa_outputs")
	start := b.copy(b.slice(logits, batch*seq))
	end := b.copy(b.slice(logits, batch*seq))
	b.g.returned = append(b.g.returned, start, end)
	b.module = "loss"
	ls := b.crossEntropy(start, seq)
	le := b.crossEntropy(end, seq)
	b.g.loss = b.scale(b.add(ls, le))
}

package memmodel

import (
	"slices"
	"strings"
)

// bertMLMHead is BertForMaskedLM's head (RobertaForMaskedLM's and
// XLMRobertaForMaskedLM's RobertaLMHead likewise) on the encoder output h
// of every token: a dense transform, GELU and LayerNorm, then the decoder,
// whose weight is the word embedding's (tied) and whose bias is its own
// vocabulary-sized parameter, into batch × seq × vocab logits; the loss is
// cross entropy over every position (MLM labels mark most of them ignored,
// which saves nothing: the logits and their log-softmax are whole), the
// logits upcast to float32 first (ForMaskedLMLoss; under autocast
// cross_entropy would cast them anyway). BertModel is built without its
// pooler here (add_pooling_layer=False).
func bertMLMHead(b *builder, a *Arch, h, wte Tensor, batch, seq int64) {
	d, vocab := int64(a.Hidden), int64(a.Vocab)
	// BertLMPredictionHead registers its bias before its submodules'
	// parameters are reached: model.parameters() (and Adam's state) put
	// it first
	bias := b.param(vocab)
	t := b.linear(h, d, d, true, "transform")
	t = b.gelu(t)
	t = b.layerNorm(t, d, true)
	logits := b.linearWith(t, wte, bias, d, vocab)
	b.lmLoss(logits, batch, seq, vocab)
}

// head is the task the plan trains for: masked-lm, or the family's own.
func (c *config) head() string {
	if c.arch.MaskedLM {
		return "masked-lm"
	}
	return c.arch.family().Task
}

// resolveHead applies spec key head: the family's task, or one of the
// heads it can put on its trunk instead (Family.Heads). Empty keeps what
// the architecture says (a config.json's class, else the family's task).
func (c *config) resolveHead(head string) error {
	f := c.arch.family()
	switch {
	case head == "":
		return nil
	case head == f.Task:
		c.arch.MaskedLM = false
		return nil
	case head == "masked-lm" && slices.Contains(f.Heads, head):
		c.arch.MaskedLM = true
		return nil
	}
	want := append([]string{f.Task}, f.Heads...)
	return specErr("head", "%q is not a head vramkit plans for %s (%s): want %s", head, c.arch.Name, f.Name, strings.Join(want, "|"))
}

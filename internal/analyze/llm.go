package analyze

import "fmt"

// llmAdvice names the memory a Hugging Face language model's training
// step carries without needing it: the KV cache its forward builds when
// use_cache is on (training never reads it), and the full-vocabulary
// logits the loss copies to fp32 and log-softmaxes (with their gradients
// in backward). Savings are the bytes alive at the steady-state peak.
func (d *dev) llmAdvice(out *Device, at int) []Advice {
	var adv []Advice
	tr := out.Traits
	if !tr.MayTrain() {
		return nil
	}
	if kv := out.Categories.KVCache; kv > 0 {
		adv = append(adv, Advice{Action: "turn the KV cache off in training: model.config.use_cache = False (or use_cache=False in the forward call)",
			Saving: kv, Detail: fmt.Sprintf("the forward pass builds a key/value cache (transformers' cache_utils.update) "+
				"that training never reads: %s of it is alive at the peak", bytesStr(kv))})
	}
	if b, n := d.logitBytes(at); b > 0 && b*20 >= out.CategoriesBytes {
		adv = append(adv, Advice{Action: "compute the loss in chunks or with a fused linear + cross-entropy kernel " +
			"(e.g. Liger's LigerFusedLinearCrossEntropyLoss, Apple's cut-cross-entropy)",
			Saving: b, Detail: fmt.Sprintf("%d tensors of full-vocabulary logits (the logits, their fp32 copy, the "+
				"log-softmax, their gradients) hold %s at the peak; a fused or chunked loss never materialises them "+
				"(estimate: all of it, less one chunk)", n, bytesStr(b))})
	}
	return adv
}

// logitBytes sums the tensors alive at request at that have the size of a
// large tensor the loss made in the same iteration: full-vocabulary logits
// and their copies, whichever phase made them.
func (d *dev) logitBytes(at int) (int64, int) {
	it := d.iterOf(at)
	if it < 1 || it >= len(d.starts) {
		return 0, 0
	}
	a, b := d.t.lifeRange(d.starts[it-1], d.starts[it])
	sizes := map[int64]bool{}
	for k := a; k < b; k++ {
		if l := &d.t.lives[k]; d.facts[l.stack].lib.role == roleLoss && l.size >= 16<<20 {
			sizes[l.size] = true
			// The fp32 copy of bf16 logits is twice their size.
			if l.size%2 == 0 {
				sizes[l.size/2] = true
			}
		}
	}
	if len(sizes) == 0 {
		return 0, 0
	}
	var sum int64
	n := 0
	for _, k := range d.t.liveAt(at) {
		l := &d.t.lives[k]
		if !sizes[l.size] || int(l.alloc) < d.starts[it-1] {
			continue
		}
		switch d.category(k) {
		case catActivations, catTemporaries, catOther:
			sum += l.size
			n++
		}
	}
	return sum, n
}

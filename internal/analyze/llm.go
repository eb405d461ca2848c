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
		var cache []int
		for k := range d.t.lives {
			if d.category(k) == catKVCache {
				cache = append(cache, k)
			}
		}
		if s := out.PeakAllocated - d.peakWithout(cache); s > 0 {
			adv = append(adv, Advice{Action: "turn the KV cache off in training: model.config.use_cache = False (or use_cache=False in the forward call)",
				Saving: s, Detail: fmt.Sprintf("the forward pass builds a key/value cache (transformers' cache_utils.update) "+
					"that training never reads: %s of it is alive at the peak beyond what backward needs (cache tensors that "+
					"attention also saves for backward count as activations: turning the cache off would not free them); "+
					"without it the peak is %s lower (the same trace replayed without the cache's tensors)",
					bytesStr(kv), bytesStr(s))})
		}
	}
	adv = append(adv, d.pythonActivationAdvice(out)...)
	if lives := d.logitLives(); len(lives) > 0 {
		var b int64
		n := 0
		for _, k := range lives {
			if l := &d.t.lives[k]; int(l.alloc) <= at && int(l.free) > at {
				b += l.size
				n++
			}
		}
		if s := out.PeakAllocated - d.peakWithout(lives); s*20 >= out.PeakAllocated {
			adv = append(adv, Advice{Action: "compute the loss in chunks or with a fused linear + cross-entropy kernel " +
				"(e.g. Liger's LigerFusedLinearCrossEntropyLoss, Apple's cut-cross-entropy)",
				Saving: s, Detail: fmt.Sprintf("%d tensors of full-vocabulary logits (the logits, their fp32 copy, the "+
					"log-softmax, their gradients) hold %s at the steady-state peak; a fused or chunked loss never "+
					"materialises them: without them the peak is %s lower (the trace replayed without them; the "+
					"chunks' own memory is not counted)", n, bytesStr(b), bytesStr(s))})
		}
	}
	return adv
}

// logitLives lists, in every iteration, the tensors that have the size
// of a large tensor the loss made in it: full-vocabulary logits and their
// copies, whichever phase made them (their gradients come from backward).
func (d *dev) logitLives() []int {
	var out []int
	for it := 0; it+1 < len(d.starts); it++ {
		a, b := d.t.lifeRange(d.starts[it], d.starts[it+1])
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
			continue
		}
		for k := a; k < b; k++ {
			if !sizes[d.t.lives[k].size] {
				continue
			}
			switch d.category(k) {
			case catActivations, catTemporaries, catOther:
				out = append(out, k)
			}
		}
	}
	return out
}

// peakWithout is peak allocated had the lives ks never been allocated:
// the highest level less what of them is alive at each request. Block
// sizes, as the level counts them.
func (d *dev) peakWithout(ks []int) int64 {
	delta := make([]int64, len(d.t.level)+1)
	for _, k := range ks {
		l := &d.t.lives[k]
		delta[l.alloc] += l.block
		if l.free != never {
			delta[l.free] -= l.block
		}
	}
	var cur, best int64
	for i, lv := range d.t.level {
		cur += delta[i]
		best = max(best, lv-cur)
	}
	return best
}

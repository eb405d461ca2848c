package analyze

import (
	"fmt"
	"sort"
)

// Scores generate keeps for its output. generate(...,
// return_dict_in_generate=True, output_scores=True) appends every step's
// processed scores, and output_logits=True every step's raw float32
// logits, to tuples it returns (transformers' _sample): one float32 batch
// × vocab tensor a step (two when a warper makes the scores a tensor of
// their own and both are asked for), none freed until the caller drops
// the output. A 256-token call of Llama 3.2 1B at batch 16 keeps 1.96 GiB
// (dev103's trace: 255 tensors of 7.83 MiB at its peak, 43% of it).
//
// In a trace they are the allocations generate's own code made (outside
// the model's forward: the logits' float32 copy, the warpers' outputs)
// that stay alive across steps: what the loop needs of a step is freed by
// the step after it (the previous scores and probabilities), so a tensor
// made two or more steps before the peak and alive at it is kept. The
// kept tensors share one size, the scores'; at least minKept of them in
// as many steps make the pattern (a prompt's attention mask or ids, made
// once at the start, are one tensor, not one a step).

// minKept is the fewest kept score tensors, each from its own step, that
// say the output keeps the scores.
const minKept = 4

// keptScores lists the lives of score tensors generate's loop keeps at
// the trace's peak, in ascending order (nil when none), and their size.
func (d *dev) keptScores() ([]int, int64) {
	at := d.t.argmax(0, len(d.t.level))
	peakIt := d.iterationOf(at)
	var cand []int
	for k := range d.t.lives {
		l := &d.t.lives[k]
		if !d.facts[l.stack].lib.genLoop || int(l.alloc) > at || (l.free != never && int(l.free) <= at) {
			continue
		}
		if d.iterationOf(int(l.alloc)) <= peakIt-2 {
			cand = append(cand, k)
		}
	}
	// the score tensors share the most common size of 64 KiB or more
	best := d.scoresSize(cand)
	if best == 0 {
		return nil, 0
	}
	var ks []int
	for _, k := range cand {
		if d.t.lives[k].size == best {
			ks = append(ks, k)
		}
	}
	steps := map[int]bool{}
	for _, k := range ks {
		steps[d.iterationOf(int(d.t.lives[k].alloc))] = true
	}
	if len(steps) < minKept {
		return nil, 0
	}
	return ks, best
}

// iterationOf is the iteration (0-based, in d.starts) request i falls in;
// -1 before the first.
func (d *dev) iterationOf(i int) int {
	return sort.SearchInts(d.starts, i+1) - 1
}

// keptScoresAdvice fills the generation's kept scores and, when they hold
// a twentieth of the peak or more, advises dropping output_scores /
// output_logits, saving the trace replayed without them.
func (d *dev) keptScoresAdvice(out *Device, ks []int, size int64) []Advice {
	g := out.Generation
	if g == nil || len(ks) == 0 {
		return nil
	}
	var held int64
	for _, k := range ks {
		held += d.t.lives[k].size
	}
	g.KeptScores, g.KeptScoresTensors = held, len(ks)
	s := out.PeakAllocated - d.peakWithout(ks)
	if s*20 < out.PeakAllocated {
		return nil
	}
	return []Advice{{Action: "drop output_scores / output_logits from generate (or keep only what you need of each step's scores)",
		Saving: s, Detail: fmt.Sprintf("%d tensors of %s made by generate's loop in earlier steps (transformers/generation, outside the "+
			"model) are alive at the peak, %s: with return_dict_in_generate=True, output_scores=True and output_logits=True keep "+
			"every step's float32 batch × vocab scores in the output until it is dropped, one copy a step (two with both flags under a "+
			"warper). For per-token log-probabilities, a LogitsProcessor can keep each step's log_softmax at a few candidate "+
			"tokens (its top-k) instead of the whole vocabulary; the peak would be %s lower (the trace replayed without them), and what is kept grows with "+
			"batch × new tokens × vocab.",
			len(ks), bytesStr(size), bytesStr(held), bytesStr(s))}}
}

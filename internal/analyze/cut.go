package analyze

import "fmt"

// boundSlack is how far below a rule-of-thumb saving the replayed bound
// must fall before it replaces it: the estimates are quoted at ±30%, so a
// few percent is the same figure.
const boundSlack = 0.1

// activationLives lists every allocation of the trace whose category is
// activations: what checkpointing, autocast or no_grad would shrink.
func (d *dev) activationLives() []int {
	var out []int
	for k := range d.t.lives {
		if d.category(k) == catActivations {
			out = append(out, k)
		}
	}
	return out
}

// peakCut is peak allocated had every life in ks been smaller by share
// of its block, and the request where that lower peak falls. With share 1
// it is peakWithout. A change that shrinks activations lowers the peak
// only while they set it: once they are cut, another moment (an optimizer
// step, the first iteration, the model load) can be the highest.
func (d *dev) peakCut(ks []int, share float64) (int64, int) {
	delta := make([]int64, len(d.t.level)+1)
	for _, k := range ks {
		l := &d.t.lives[k]
		c := int64(share * float64(l.block))
		delta[l.alloc] += c
		if l.free != never {
			delta[l.free] -= c
		}
	}
	var cur, best int64
	at := 0
	for i, lv := range d.t.level {
		cur += delta[i]
		if lv-cur > best {
			best, at = lv-cur, i
		}
	}
	return best, at
}

// activationSaving bounds a rule-of-thumb saving, share of the
// activations act, by what the trace allows: the peak less peakCut of the
// activation lives by the same share. It returns the saving and, when the
// bound is what limits it, a clause for the advice saying which moment
// then sets the peak. Within boundSlack of the rule of thumb the two are
// the same estimate (act is taken at the steady-state peak, the cut over
// blocks), and the rule of thumb stands.
func (d *dev) activationSaving(acts []int, act, peak int64, share float64) (int64, string) {
	est := int64(share * float64(act))
	cut, at := d.peakCut(acts, share)
	if float64(peak-cut) >= (1-boundSlack)*float64(est) {
		return est, ""
	}
	m := d.moment(at)
	where := "before the first iteration"
	if m.Iteration > 0 {
		where = fmt.Sprintf("at iteration %d (%s)", m.Iteration, m.Phase)
	}
	return max(peak-cut, 0), fmt.Sprintf("; only %s of that lowers the peak: with the activations cut by %.0f%% "+
		"throughout the trace, the memory %s, %s, becomes the peak (the same trace replayed)",
		bytesStr(max(peak-cut, 0)), 100*share, where, bytesStr(cut))
}

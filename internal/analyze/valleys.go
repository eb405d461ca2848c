package analyze

import "sort"

// iterationsFromLevels finds iterations without frames, from the allocated
// bytes alone. A training step climbs (forward activations), falls
// (backward frees them, zero_grad frees the gradients) and ends back at a
// floor: parameters plus optimizer state. Iteration boundaries are the
// valleys of the curve that are at least as low as every later valley
// (within tol): that skips the shallower valleys inside a step — between
// transformer layers, between gradient-accumulation micro-steps, which
// keep the gradients — and still follows a floor that rises, as a leak
// makes it. The first iteration starts where the persistent prefix ends:
// the first allocation that is ever freed.
func iterationsFromLevels(t *timeline, o Options) []int {
	n := len(t.level)
	if n == 0 {
		return nil
	}
	start := n
	for k := range t.lives {
		if t.lives[k].free != never {
			start = int(t.lives[k].alloc)
			break
		}
	}
	if start >= n {
		return nil
	}
	peak := t.level[t.argmax(0, n)]
	h := int64(o.ValleyProminence * float64(peak))
	tol := int64(o.FloorTolerance*float64(peak)) + 1<<20
	// Valleys of prominence h on both sides: the curve was h above the
	// valley before it and climbs h above it after.
	type valley struct {
		at    int
		level int64
	}
	var vs []valley
	seekLow := true
	lo, loAt, hiBefore, hi := t.level[start], start, t.level[start], t.level[start]
	for i := start; i < n; i++ {
		x := t.level[i]
		if seekLow {
			if x <= lo {
				lo, loAt = x, i
			}
			if x-lo >= h {
				if hiBefore-lo >= h {
					vs = append(vs, valley{loAt, lo})
				}
				seekLow, hi = false, x
			}
			continue
		}
		if x > hi {
			hi = x
		}
		if hi-x >= h {
			seekLow, lo, loAt, hiBefore = true, x, i, hi
		}
	}
	// Keep valleys at least as low as every later one.
	var bounds []int
	// The trace usually ends on a floor too (after the last step), which
	// rules out valleys inside the last iterations.
	suffixMin := t.level[n-1]
	keep := make([]bool, len(vs))
	for i := len(vs) - 1; i >= 0; i-- {
		keep[i] = vs[i].level <= suffixMin+tol
		suffixMin = min(suffixMin, vs[i].level)
	}
	starts := []int{start}
	for i, v := range vs {
		if keep[i] && v.at > start {
			bounds = append(bounds, v.at+1)
		}
	}
	starts = append(starts, bounds...)
	starts = mergeShort(starts, o.MinIterationShare)
	// The stretch after the last boundary is an iteration only if it
	// climbs like one.
	last := starts[len(starts)-1]
	if len(starts) > 1 && t.level[t.argmax(last, n)]-t.level[last] < h {
		starts = starts[:len(starts)-1]
	}
	return append(starts, n)
}

// mergeShort joins boundaries that would make an iteration much shorter
// (in requests) than the median one to the iteration before: a training
// step runs the same operations every time, whatever the shapes, so a
// stretch of a fraction of a step is a valley inside one — typically the
// first step's optimizer, which creates the optimizer state and so dips
// lower than any later floor.
func mergeShort(starts []int, share float64) []int {
	if len(starts) < 3 {
		return starts
	}
	lens := make([]int, 0, len(starts)-1)
	for i := 1; i < len(starts); i++ {
		lens = append(lens, starts[i]-starts[i-1])
	}
	sort.Ints(lens)
	med := lens[len(lens)/2]
	out := []int{starts[0]}
	for i := 1; i < len(starts); i++ {
		if len(out) > 1 && float64(starts[i]-out[len(out)-1]) < share*float64(med) {
			// The short stretch ends its iteration: drop the boundary
			// before it, not after.
			out[len(out)-1] = starts[i]
			continue
		}
		out = append(out, starts[i])
	}
	return out
}

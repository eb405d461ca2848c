package analyze

import (
	"fmt"
	"slices"
)

// shardedAdvice is what applies to FSDP2 runs beyond the general rules:
// how long unsharded parameters stay alive. With reshard_after_forward
// (the default) a block's all-gathered parameters are freed after its
// forward and gathered again in backward, so at most the running block and
// the one prefetched are unsharded at once; with it off they all stay
// from forward to backward. Each in-flight prefetch holds one more
// block's.
func (d *dev) shardedAdvice(out *Device) []Advice {
	tr := out.Traits
	if !slices.Contains(tr.Sharding, "fsdp2") {
		return nil
	}
	u := out.Categories.UnshardedParameters
	total, largest, block, groups := d.allGathers()
	if d.hasAllGatherOutput() {
		// The all-gather output and the parameters copied out of it are
		// both unshard memory: count each group once.
		total, largest, block = total/2, largest/2, block/2
	}
	if u <= 0 || block <= 0 || groups < 4 {
		return nil
	}
	// The root module (embeddings, head) stays unsharded between forward
	// and backward by design; the blocks are what reshard.
	var adv []Advice
	switch {
	case 2*u >= total && u > largest+2*block:
		keep := largest + 2*block
		adv = append(adv, Advice{Action: "let FSDP reshard after forward: fully_shard(block, reshard_after_forward=True)",
			Saving: max(u-keep, 0),
			Detail: fmt.Sprintf("%s of all-gathered parameters are alive at the peak, %.0f%% of what one forward pass "+
				"gathers (%s over %d groups, a block's about %s): they are kept from forward to backward; resharding frees "+
				"each block's after its forward and gathers it again in backward (one more all-gather per block), "+
				"leaving the root's and about two blocks' unsharded", bytesStr(u), pct(u, total), bytesStr(total),
				groups, bytesStr(block))})
	case u >= largest+block && block*20 >= out.CategoriesBytes:
		adv = append(adv, Advice{Action: "limit FSDP's prefetching (FSDPModule.set_modules_to_forward_prefetch / " +
			"set_modules_to_backward_prefetch with fewer modules)",
			Saving: block,
			Detail: fmt.Sprintf("%s of all-gathered parameters are alive at the peak: the running block's and the "+
				"prefetched ones, about %s each; every prefetch in flight holds one more block unsharded "+
				"(fewer prefetches overlap less communication)", bytesStr(u), bytesStr(block))})
	}
	return adv
}

// allGathers measures what one forward pass unshards: FSDP's unsharded
// parameters (all-gather outputs, or at one rank the storage the shards
// are copied into) made in the reference iteration's forward, grouped in
// bursts — one per fully_shard group, as its pre-forward hook unshards
// it. It returns their total, the largest and median group, and the
// group count.
func (d *dev) allGathers() (total, largest, median int64, n int) {
	lo, hi := d.refIter()
	a, b := d.t.lifeRange(lo, hi)
	var groups []int64
	prev := false
	for k := a; k < b; k++ {
		if d.ph[k] != phForward {
			continue
		}
		l := &d.t.lives[k]
		f := d.facts[l.stack].lib
		un := f.role == roleUnshard
		if f.agIn {
			continue // the cast shard copied in: part of the same burst
		}
		if un {
			if !prev {
				groups = append(groups, 0)
			}
			groups[len(groups)-1] += l.size
			total += l.size
		}
		prev = un
	}
	if len(groups) == 0 {
		return 0, 0, 0, 0
	}
	for _, g := range groups {
		largest = max(largest, g)
	}
	slices.Sort(groups)
	return total, largest, groups[len(groups)/2], len(groups)
}

// hasAllGatherOutput reports whether FSDP all-gathers (more than one
// rank): then each group's unshard burst holds the all-gather output and
// the per-parameter storage it is copied into.
func (d *dev) hasAllGatherOutput() bool {
	for k := range d.t.lives {
		if d.facts[d.t.lives[k].stack].lib.agOut {
			return true
		}
	}
	return false
}

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
	if u <= 0 || block <= 0 || groups < 4 {
		return nil
	}
	// The root module (embeddings, head) stays unsharded between forward
	// and backward by design; the blocks are what reshard.
	var adv []Advice
	switch {
	case 3*u >= total:
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

// allGathers sums the FSDP all-gather outputs of the reference
// iteration's forward pass (every group's unsharded parameters once), and
// gives the largest, the median (a block's) and their count.
func (d *dev) allGathers() (total, largest, median int64, n int) {
	lo, hi := d.refIter()
	a, b := d.t.lifeRange(lo, hi)
	var sizes []int64
	for k := a; k < b; k++ {
		if l := &d.t.lives[k]; d.ph[k] == phForward && d.facts[l.stack].lib.agOut {
			sizes = append(sizes, l.size)
			total += l.size
			largest = max(largest, l.size)
		}
	}
	if len(sizes) == 0 {
		return 0, 0, 0, 0
	}
	slices.Sort(sizes)
	return total, largest, sizes[len(sizes)/2], len(sizes)
}

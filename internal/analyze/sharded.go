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
	block := d.largestAllGather()
	if u <= 0 || block <= 0 {
		return nil
	}
	var adv []Advice
	switch {
	case u > 3*block:
		adv = append(adv, Advice{Action: "let FSDP reshard after forward: fully_shard(block, reshard_after_forward=True)",
			Saving: u - 2*block,
			Detail: fmt.Sprintf("%s of all-gathered parameters are alive at the peak, %.0f blocks' worth (a block's "+
				"all-gather is up to %s): they are kept from forward to backward; resharding frees each after its "+
				"forward and gathers it again in backward (one more all-gather per block), leaving about two blocks "+
				"unsharded", bytesStr(u), float64(u)/float64(block), bytesStr(block))})
	case u >= 2*block && u*20 >= out.CategoriesBytes:
		adv = append(adv, Advice{Action: "limit FSDP's prefetching (FSDPModule.set_modules_to_forward_prefetch / " +
			"set_modules_to_backward_prefetch with fewer modules)",
			Saving: block,
			Detail: fmt.Sprintf("%s of all-gathered parameters are alive at the peak: the running block and the "+
				"prefetched one(s), up to %s each; every prefetch in flight holds one more block unsharded "+
				"(fewer prefetches overlap less communication)", bytesStr(u), bytesStr(block))})
	}
	return adv
}

// largestAllGather is the biggest FSDP all-gather output: one block's
// unsharded parameters, in the all-gather's dtype.
func (d *dev) largestAllGather() int64 {
	var m int64
	for k := range d.t.lives {
		if l := &d.t.lives[k]; d.facts[l.stack].lib.agOut {
			m = max(m, l.size)
		}
	}
	return m
}

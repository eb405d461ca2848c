package memmodel

// Nested activation checkpointing: a checkpointed block that contains
// checkpointed blocks, as transformers' gradient_checkpointing_enable
// makes of Swin, whose SwinStage and each SwinLayer in it are both
// GradientCheckpointingLayers (torch.utils.checkpoint, non-reentrant).
// dev92's checkpointed Swin trace shows what PyTorch does with them:
//
//   - forward keeps only the outer block's input (the stage's): the inner
//     checkpoints' inputs are packed under the outer one's hooks, so the
//     layers' inputs are freed as the stage runs, and whatever the ops
//     outside the inner blocks save (patch merging's) is dropped too;
//   - when backward first needs the stage, the outer checkpoint re-runs
//     it: each layer through its own checkpoint, whose internals go at
//     once and whose input is now kept for the layer's own recomputation,
//     and the ops outside the layers saving as usual, up to the last
//     thing the stage saved (early stop: the last layer's input where the
//     layers end the stage);
//   - each layer then recomputes ahead of its own backward, as a flat
//     checkpointed block does.
//
// A graph marks the enclosing block of each op (op.outer, builder.outer);
// the inner blocks are op.block as usual. The outer blocks are
// checkpointed whenever any block is.

// outerRegion is a run of ops of one enclosing block.
type outerRegion struct {
	start, end int
	// ext are the tensors it reads that come from before it: kept from
	// the forward until the backward leaves the region.
	ext []Tensor
	// stop is the last op the recomputation runs (stopBeforeRun: it only
	// packs, before the kernel); trigger the op whose backward needs the
	// recomputation first (the last layer's recomputation needs its input).
	stop          int
	stopBeforeRun bool
	trigger       int
}

// analyseNested groups the ops of enclosing blocks into outer regions
// (none without checkpointing or under torch.compile) and drops what
// their ops save in forward.
func (gen *generator) analyseNested() {
	g := gen.g
	gen.outers, gen.inOuter = nil, nil
	if len(gen.cfg.ckpt) == 0 || g.compiled {
		return
	}
	cur := -1
	for i := range g.ops {
		o := &g.ops[i]
		if o.outer < 0 {
			cur = -1
			continue
		}
		if gen.inOuter == nil {
			gen.inOuter = make([]int, len(g.ops))
			for j := range gen.inOuter {
				gen.inOuter[j] = -1
			}
		}
		if cur < 0 || gen.outers[cur].end != i-1 || g.ops[i-1].outer != o.outer {
			gen.outers = append(gen.outers, outerRegion{start: i})
			cur = len(gen.outers) - 1
		}
		gen.outers[cur].end = i
		gen.inOuter[i] = cur
		gen.saving[i] = false
	}
	for r := range gen.outers {
		R := &gen.outers[r]
		R.stop, R.trigger = R.start-1, -1
		seen := map[Tensor]bool{}
		for i := R.start; i <= R.end; i++ {
			o := &g.ops[i]
			for _, t := range o.in {
				b := g.tensors[t].base
				if seen[b] || g.tensors[b].param >= 0 {
					continue
				}
				if gen.producer(b) < R.start {
					seen[b] = true
					R.ext = append(R.ext, b)
				}
			}
			if in := gen.inReg[i]; in >= 0 {
				if gen.regions[in].start == i {
					R.stop, R.stopBeforeRun = i, true // the layer's checkpoint packs its input
				}
				R.trigger = max(R.trigger, gen.regions[in].recomputeAt())
			} else if len(o.save) > 0 {
				R.stop, R.stopBeforeRun = i, savesInputsOnly(g, o)
			}
		}
		R.trigger = max(R.trigger, R.stop)
	}
}

// outerOf is the outer region op i belongs to, -1 for none.
func (gen *generator) outerOf(i int) int {
	if gen.inOuter == nil {
		return -1
	}
	return gen.inOuter[i]
}

// recomputeOuter re-runs outer region r ahead of its backward: its inner
// blocks as their checkpoints run them in forward (nothing saved but
// their inputs), its other ops saving as usual, then everything it made
// that nothing saved goes at once.
func (gen *generator) recomputeOuter(r int) {
	R := gen.outers[r]
	g := gen.g
	var held []Tensor
	gen.outerMode = true
	for i := R.start; i <= R.stop; i++ {
		if i == R.stop && R.stopBeforeRun {
			if in := gen.inReg[i]; in >= 0 && gen.regions[in].start == i {
				for _, t := range gen.regions[in].ext {
					gen.save(t)
				}
			} else {
				for _, t := range g.ops[i].save {
					gen.save(t)
				}
			}
			break
		}
		gen.runOp(i, false, R.end, &held)
	}
	gen.outerMode = false
	for i := R.start; i <= R.stop; i++ {
		for _, t := range g.ops[i].out {
			if b := g.tensors[t].base; gen.producer(b) >= R.start {
				gen.release(b)
			}
		}
	}
	for _, h := range held {
		gen.release(h)
	}
}

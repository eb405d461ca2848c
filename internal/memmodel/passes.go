package memmodel

// runOp executes op i forward. In recompute mode (during backward, for a
// checkpointed region ending at regEnd) every op saves what it saves and
// results consumed only after the region are dropped at once.
func (gen *generator) runOp(i int, recompute bool, regEnd int, held *[]Tensor) {
	g := gen.g
	o := &g.ops[i]
	if !recompute {
		// inside an enclosing checkpoint only its own input is kept in
		// forward; the inner checkpoints keep theirs when it recomputes
		R := gen.outerOf(i)
		if R >= 0 && !gen.outerMode && gen.outers[R].start == i {
			for _, t := range gen.outers[R].ext {
				gen.save(t)
			}
		}
		if r := gen.inReg[i]; r >= 0 && gen.regions[r].first == i && (R < 0 || gen.outerMode) {
			for _, t := range gen.regions[r].ext {
				gen.save(t)
			}
		}
	}
	var pre []int32
	if !g.compiled {
		for _, n := range o.fwdHeld {
			pre = append(pre, gen.alloc(n, CatTemporaries, o.kind))
		}
	}
	// cuDNN runs convolutions: the cuBLAS workspace comes with the first
	// linear (ResNet-50's fc, ConvNeXt's first pwconv1, Whisper's first
	// q_proj after its two conv1d in the H200 traces), right after its
	// output, which ATen allocates before it calls cuBLAS
	if o.matmul && o.conv == nil && !o.cudnn && !gen.wsFwd && gen.cfg.cublasWorkspace > 0 {
		gen.wsFwd = true
		gen.workspaceAfterNext(gen.cfg.cublasWorkspace)
	}
	gen.ltWorkspace(o)
	for _, t := range o.out {
		tt := &g.tensors[t]
		if tt.base != t || o.fused {
			continue
		}
		id := gen.alloc(tt.bytes(), CatActivations, o.kind)
		gen.store[t] = &storage{id: id, py: true}
		if !recompute && g.isLeafHeld(t) {
			gen.save(t)
		}
	}
	gen.flushWorkspace()
	if o.savesHeldCopy && len(pre) > 0 && !g.compiled {
		if s := gen.store[g.tensors[o.in[0]].base]; s != nil {
			old := s.id
			s.id, pre = pre[0], pre[1:]
			gen.free(old)
		}
	}
	gen.freeAll(pre)
	for _, n := range o.fwdTemp {
		gen.free(gen.alloc(n, CatTemporaries, o.kind))
	}
	if recompute || gen.saving[i] || (gen.outerMode && gen.inReg[i] < 0) {
		for _, t := range o.save {
			gen.save(t)
		}
	}
	// an autocast-cached weight cast lives until the forward (or recompute) ends
	if o.hold || (!g.compiled && o.kind == "to" && g.tensors[o.in[0]].param >= 0 && g.tensors[o.in[0]].grad) {
		*held = append(*held, o.out[0])
	}
	// a recomputed tensor that forward kept past the region (the block's
	// output) is needed only until its last use inside the region: an
	// in-place chain (ResNet's bn3 → add_ → relu_) keeps it alive until
	// relu_ saves it, and the saved result lives until relu's backward
	var rg *region
	if recompute {
		rg = &gen.regions[gen.inReg[i]]
	}
	for _, t := range o.in {
		b := g.tensors[t].base
		last := gen.lastUse[b] == i
		if rg != nil && gen.lastUse[b] > regEnd && rg.lastIn[b] == i && gen.producer(b) >= rg.start {
			last = true
		}
		if last && !g.tensors[b].input && !gen.isHeld(b, *held) {
			gen.release(b)
		}
	}
	for _, t := range o.out {
		b := g.tensors[t].base
		if b == g.loss || gen.isHeld(b, *held) {
			continue
		}
		lu := gen.lastUse[b]
		if lu <= i || (rg != nil && lu > regEnd && rg.lastIn[b] <= i) {
			gen.release(b)
		}
	}
	for _, b := range gen.releaseAt[i] {
		if !g.tensors[b].input && !gen.isHeld(b, *held) {
			gen.release(b)
		}
	}
}

func (gen *generator) isHeld(b Tensor, held []Tensor) bool {
	for _, h := range held {
		if h == b {
			return true
		}
	}
	return false
}

// forward runs the whole graph once.
func (gen *generator) forward() {
	gen.phase = PhaseForward
	var held []Tensor
	for i := range gen.g.ops {
		gen.enterUnit(i, false)
		gen.runOp(i, false, len(gen.g.ops), &held)
	}
	for _, h := range held {
		gen.release(h)
	}
}

// recompute re-runs a checkpointed region ahead of its backward.
func (gen *generator) recompute(r int) {
	rg := gen.regions[r]
	g := gen.g
	var held []Tensor
	for i := rg.start; i <= rg.stop; i++ {
		if i == rg.stop && rg.stopBeforeRun {
			for _, t := range g.ops[i].save {
				gen.save(t)
			}
			break
		}
		gen.runOp(i, true, rg.end, &held)
	}
	// stopping unwinds the recomputation: what it produced and nothing saved
	// goes at once
	for i := rg.start; i <= rg.stop; i++ {
		for _, t := range g.ops[i].out {
			if b := g.tensors[t].base; gen.producer(b) >= rg.start {
				gen.release(b)
			}
		}
	}
	for _, h := range held {
		gen.release(h)
	}
}

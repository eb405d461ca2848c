package memmodel

// The backward pass of the generator: gradients delivered, joined and freed
// as autograd runs from the loss back to the parameters.

func (gen *generator) dropRef(b *gbuf) {
	b.refs--
	if b.refs == 0 {
		gen.free(b.id)
	}
}

func (gen *generator) newGrad(bytes int64, cat Category, opName string) *gbuf {
	id := gen.alloc(bytes, cat, opName)
	return &gbuf{id: id, refs: 1, bytes: bytes}
}

// deliver hands a gradient to tensor t: accumulates it into a parameter's
// .grad (AccumulateGrad) or into the input buffer of t's producer.
func (gen *generator) deliver(t Tensor, b *gbuf) {
	g := gen.g
	if base := g.tensors[t].base; base != t && gen.producer(t) < 0 {
		// a pure view (a chunk or split of a fused projection): autograd
		// runs its SplitBackward once every piece's gradient is in, just
		// before the base's producer, and cats them into a gradient of
		// the base's size (join). The H200 GPT-2 traces show it: the
		// three 12 MiB q/k/v gradients (b8 s1024) stay live until one
		// 36 MiB cat right before c_attn's backward.
		if !g.tensors[t].slice {
			gen.pieces[base] = append(gen.pieces[base], b)
			return
		}
		// a slice's backward is a node of its own (SelectBackward,
		// SliceBackward), which autograd runs once the node that made
		// the slice's gradient has returned and released what it saved
		// (the fixtures' checkpointed float32 BERT: the pooler's saved
		// view of the last layer's output, 48 MiB, is freed before the
		// [CLS] slice's zeros of that size take its place)
		if gen.inNode {
			gen.sliceLater = append(gen.sliceLater, pendingGrad{t, b})
			return
		}
		// it writes the gradient into one of the base's size at once,
		// which the base's producer then consumes
		if gen.grads[base] == nil {
			gen.grads[base] = gen.newGrad(g.tensors[base].bytes(), CatTemporaries, "view_backward")
			gen.dropRef(b)
			return
		}
		// SliceBackward's own zeros of the base's size, added into the
		// gradient the first slice left once the node has returned and
		// let go of the slice's gradient
		z := gen.alloc(g.tensors[base].bytes(), CatTemporaries, "slice_backward")
		gen.dropRef(b)
		gen.free(z)
		return
	}
	if p := g.tensors[t].param; p >= 0 {
		pi := g.params[p]
		if !pi.trainable {
			gen.dropRef(b)
			return
		}
		if gen.paramGrad[p] != nil {
			gen.dropRef(b) // param.grad += new
			return
		}
		// .grad has the parameter's dtype: under torch.compile with
		// autocast the fused cast's backward writes the float32 gradient
		// from the bf16 one the matmul left (dev23's compiled Llama 3.2 1B:
		// 64 MiB gradients of its 64 MiB MLP weights, not 32)
		full := b.bytes
		if pb := g.tensors[t].bytes(); g.compiled && pb > full {
			full = pb
		}
		keep := int64(float64(full) * gen.cfg.gradShard)
		if gen.cfg.gradBytes > 0 {
			keep = int64(float64(pi.numel) * gen.cfg.gradShard * float64(gen.cfg.gradBytes))
		}
		if b.refs == 1 && keep == full && full == b.bytes && !pi.cloneGrad && gen.cfg.gradStream == 0 {
			gen.tags[b.id].Cat = CatGradients // stolen as .grad
			gen.paramGrad[p] = b
			return
		}
		if gen.cfg.gradStream != 0 {
			// FSDP2: the sharded gradient is a view of the reduce-scatter
			// output, allocated on the reduce-scatter stream
			id := gen.allocOn(maxI64(keep, 1), CatGradients, "grad", gen.cfg.gradStream)
			gen.paramGrad[p] = &gbuf{id: id, refs: 1, bytes: keep}
		} else {
			gen.paramGrad[p] = gen.newGrad(maxI64(keep, 1), CatGradients, "grad")
		}
		gen.dropRef(b)
		return
	}
	if ex := gen.grads[t]; ex != nil {
		if ex.refs == 1 && ex != b && !ex.view {
			gen.dropRef(b) // accumulated in place
			return
		}
		nb := gen.newGrad(ex.bytes, CatTemporaries, "accumulate")
		gen.dropRef(ex)
		gen.dropRef(b)
		gen.grads[t] = nb
		return
	}
	gen.grads[t] = b
}

// pendingGrad is a gradient on its way to tensor t.
type pendingGrad struct {
	t Tensor
	b *gbuf
}

// backward runs autograd from the loss back to the parameters.
func (gen *generator) backward() {
	g := gen.g
	gen.phase = PhaseBackward
	gen.grads = map[Tensor]*gbuf{}
	gen.pieces = map[Tensor][]*gbuf{}
	gen.grads[g.loss] = gen.newGrad(4, CatTemporaries, "ones_like")
	inputs := gen.compiledBackwardInputs()
	for i := len(g.ops) - 1; i >= 0; i-- {
		gen.enterUnit(i, true)
		// non-reentrant checkpointing recomputes when backward first
		// unpacks a tensor the region saved: the ops after the last one
		// that saves (a residual add whose backward casts the gradient
		// to a bf16 branch: ViT-B/16's checkpointed trace) run their
		// backward before the recomputation
		if R := gen.outerOf(i); R >= 0 && gen.outers[R].trigger == i {
			gen.recomputeOuter(R)
		}
		if r := gen.inReg[i]; r >= 0 && gen.regions[r].recomputeAt() == i {
			gen.recompute(r)
		}
		for _, t := range g.ops[i].out {
			gen.join(t)
		}
		gen.backOp(i)
	}
	for t := range gen.pieces {
		gen.join(t) // views of leaves: nothing consumes the joined gradient
		gen.dropRef(gen.grads[t])
		delete(gen.grads, t)
	}
	// the graph goes: the leaves its AccumulateGrad nodes held, and their
	// .grad
	for _, b := range gen.leafGrads {
		gen.dropRef(b)
	}
	gen.leafGrads = nil
	for _, t := range g.leafHeld {
		gen.unsave(t)
	}
	gen.freeAll(inputs)
}

// join runs the SplitBackward of base tensor t: one gradient of t's size
// (a cat of the pieces' gradients, zeros for pieces that got none), then
// the pieces' gradients go; it accumulates into a gradient t already has
// (a slice's).
func (gen *generator) join(t Tensor) {
	ps, ok := gen.pieces[t]
	if !ok {
		return
	}
	delete(gen.pieces, t)
	nb := gen.newGrad(gen.g.tensors[t].bytes(), CatTemporaries, "split_backward")
	for _, p := range ps {
		gen.dropRef(p)
	}
	if ex := gen.grads[t]; ex != nil {
		gen.dropRef(nb) // added into the slice's gradient in place
		return
	}
	gen.grads[t] = nb
}

// scratch emits op o's backward scratch, each freed at once.
func (gen *generator) scratch(o *op) {
	for _, n := range o.bwdTemp {
		gen.free(gen.alloc(n, CatTemporaries, o.kind+"_backward"))
	}
}

func (gen *generator) backOp(i int) {
	g := gen.g
	o := &g.ops[i]
	var gout *gbuf
	var goutT Tensor = -1
	unsaved, scratched := false, false
	gen.inNode = true
	var later []pendingGrad
	// a conv's, a cast's and a linear's input gradients reach their
	// inputs (where a residual stream accumulates them) after the node has
	// returned: its saved tensors and its incoming gradient are gone by
	// then. For a linear (the fixtures' checkpointed float32 BERT trace):
	// the input's gradient and the weight's, the saved LayerNorm output
	// freed, then the input's gradient added into the residual's; added at
	// once instead, best fit put the weight's gradient in the block the
	// input's just left, and the second step took a 192 MiB segment where
	// PyTorch took two 48 MiB ones (-2.0% reserved -> +0.9%)
	deferred := (o.conv != nil || o.kind == "to" || o.kind == "linear" || o.mat2First) && !g.compiled
	for _, t := range o.out {
		if b := gen.grads[t]; b != nil {
			gout, goutT = b, t
			break
		}
	}
	copied := o.heldCopy > 0 && gout != nil && gout.refs == 1 && !g.compiled
	if copied || (gout != nil && o.gradCopy && gout.refs == 1) {
		cp := gen.newGrad(gout.bytes, CatTemporaries, "view_backward")
		gen.dropRef(gout)
		gout = cp
		gen.grads[goutT] = cp
	}
	if gout != nil && !o.noBackward {
		// the backward thread's first cuBLAS call allocates its workspace,
		// after that call's output: for a linear without a bias (an mm) the
		// weight's gradient, which MmBackward computes before the input's
		// (the dev6 Qwen3 SGD and Gemma 2 LoRA traces: lm_head's weight
		// gradient, the 32 MiB workspace, then the input's gradient). Best
		// fit then puts the workspace in what that gradient left of a freed
		// logits block, which it splits for good.
		//
		// Every mm backward runs in that order (the Qwen3 SGD trace's first
		// backward: 1314 of 1500 requests of 4 MB and more in the trace's
		// order with it, 1287 without), but applied to every linear it moved
		// TinyLlama fp32 from +0.6% to +4.3% reserved, out of its band,
		// through unrelated placements, so only the first one is modelled.
		takesWS := o.matmul && o.conv == nil && !o.cudnn && !gen.wsBwd && gen.cfg.cublasWorkspace > 0
		mm := (takesWS && o.kind == "linear" && len(o.in) == 2) || o.mmThenBias
		if o.mmThenBias && !g.compiled {
			gen.scratch(o)
			scratched = true
		}
		if takesWS {
			gen.wsBwd = true
			ws := gen.cfg.cublasWorkspace
			if gen.cfg.bwdWorkspace > 0 {
				ws = gen.cfg.bwdWorkspace
			}
			if mm {
				gen.workspaceAfterNext(ws)
			} else {
				gen.alloc(ws, CatTemporaries, "cublas_workspace")
			}
		}
		var held []int32
		holdHeld := func() {
			if !g.compiled {
				for k, n := range o.bwdHeld {
					if copied && k == o.heldCopy-1 {
						continue // made above, in the gradient's place
					}
					held = append(held, gen.alloc(n, CatTemporaries, o.kind+"_backward"))
				}
			}
		}
		if !o.promotedGrad {
			holdHeld()
		}
		var promoted []Tensor
		var wide []int32
		for k := range o.in {
			j := k
			if mm || o.mat2First {
				j = len(o.in) - 1 - k
			}
			in := o.in[j]
			if !g.tensors[in].grad {
				continue
			}
			tin := &g.tensors[in]
			tout := &g.tensors[goutT]
			fusedGrad := g.compiled && pointwise[o.kind] && tin.numel == tout.numel
			if fusedGrad || (j < len(o.passGrad) && o.passGrad[j] && tin.dt == tout.dt && (tin.numel == tout.numel || o.narrowGrad)) {
				gout.refs++
				gen.deliver(in, gout)
				continue
			}
			if o.promotedGrad && tin.dt != tout.dt && tin.param < 0 {
				promoted = append(promoted, in)
				wide = append(wide, gen.alloc(tin.numel*tout.dt.Size(), CatTemporaries, o.kind+"_backward"))
				continue
			}
			if j < len(o.inTemp) && o.inTemp[j] > 0 && !g.compiled {
				tmp := gen.alloc(o.inTemp[j], CatTemporaries, o.kind+"_backward")
				var staging []int32
				for _, n := range o.inTempScratch {
					staging = append(staging, gen.alloc(n, CatTemporaries, o.kind+"_backward"))
				}
				gen.freeAll(staging)
				gb := gen.newGrad(tin.bytes(), CatTemporaries, o.kind+"_backward")
				gen.free(tmp)
				gen.deliver(in, gb)
				continue
			}
			n := tin.bytes()
			if g.compiled && pointwise[o.kind] {
				n = gen.fusedGradBytes(in)
			}
			gb := gen.newGrad(n, CatTemporaries, o.kind+"_backward")
			gb.view = (o.kind == "linear" && j == 0) || o.viewGrad
			if len(o.gradWork) == 0 && !deferred {
				gen.deliver(in, gb)
				continue
			}
			// cuDNN's backward calls each take their workspace after their
			// output; autograd adds the gradients into what their inputs
			// already have only once the whole convolution backward has
			// returned and released what it saved (the engine accumulates
			// a node's outputs after its apply; the float32 ConvNeXt traces:
			// the depthwise conv's bias reduction, then its saved input
			// and the checkpoint's, then the residual sum)
			if j < len(o.gradWork) && o.gradWork[j] > 0 {
				gen.free(gen.alloc(o.gradWork[j], CatTemporaries, o.kind+"_backward"))
			}
			later = append(later, pendingGrad{in, gb})
		}
		if o.promotedGrad {
			holdHeld()
		}
		gen.flushWorkspace()
		if !deferred {
			for _, p := range later {
				gen.deliver(p.t, p.b)
			}
			later = nil
		}
		if o.promotedGrad && !g.compiled {
			// the saved tensors go before the reduction's scratch, the
			// held product after it, then the cast (see op.promotedGrad)
			for _, t := range o.save {
				gen.unsave(g.tensors[t].base)
			}
			unsaved = true
			gen.scratch(o)
			scratched = true
		}
		gen.freeAll(held)
		if len(promoted) > 0 {
			for k, in := range promoted {
				gen.deliver(in, gen.newGrad(g.tensors[in].bytes(), CatTemporaries, "to_backward"))
				gen.free(wide[k])
			}
		}
	}
	late := o.bwdTempLate && !gen.saving[i]
	if gout != nil && !o.noBackward && !late && !scratched {
		gen.scratch(o)
	}
	if !unsaved {
		for _, t := range o.save {
			gen.unsave(g.tensors[t].base)
		}
	}
	if gout != nil && !o.noBackward && late && !scratched {
		gen.scratch(o)
	}
	// the checkpoint frame goes with the node's saved tensors, before
	// autograd accumulates the node's outputs
	if r := gen.inReg[i]; r >= 0 && gen.regions[r].first == i {
		for _, t := range gen.regions[r].ext {
			gen.unsave(t)
		}
	}
	if R := gen.outerOf(i); R >= 0 && gen.outers[R].start == i {
		for _, t := range gen.outers[R].ext {
			gen.unsave(t)
		}
	}
	for _, t := range o.out {
		if b := gen.grads[t]; b != nil {
			delete(gen.grads, t)
			if g.isLeafHeld(t) {
				gen.leafGrads = append(gen.leafGrads, b) // its .grad
				continue
			}
			gen.dropRef(b)
		}
	}
	for _, p := range later {
		gen.deliver(p.t, p.b)
	}
	gen.inNode = false
	sl := gen.sliceLater
	gen.sliceLater = nil
	// the engine runs ready nodes latest-made first: the slice taken last
	// (v of q, k, v) has its backward run first (the ViT-B/16 traces:
	// v's gradient freed first)
	for k := len(sl) - 1; k >= 0; k-- {
		gen.deliver(sl[k].t, sl[k].b)
	}
}

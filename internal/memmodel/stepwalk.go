package memmodel

import "math"

// Step-time band: the spread of the signed errors on the development
// timings of the calibration machine (−21% … +11%, bench/steptime) with a
// margin, the measurement being up to 1/(1−0.21) ≈ 1.27× the prediction;
// a GPU timed only through a scaled calibration and a strategy whose
// communication is modelled from the interconnect figure alone widen it.
const (
	bandLow, bandHigh = 0.20, 0.30
	bandScaled        = 0.20 // other GPUs: rates scaled by peak FLOP/s and bandwidth
	bandParallel      = 0.15 // DDP/FSDP/TP/PP communication from the catalog's interconnect
)

// setStepTime records step (seconds) in r with its band and says where
// the rates came from.
func (c *config) setStepTime(r *Result, step float64, tm timeModel) {
	lo, hi := bandLow, bandHigh
	r.StepTimeSource = tm.r.describe(c.gpu.Name) + "; " + tm.hostSource()
	if tm.r.scaled {
		lo, hi = lo+bandScaled, hi+bandScaled
	}
	if c.spec.Parallel.GPUs > 1 {
		lo, hi = lo+bandParallel, hi+bandParallel
	}
	r.StepTime = step
	r.StepTimeBand = [2]float64{step * (1 - lo), step * (1 + hi)}
	r.SamplesPerSec = float64(c.spec.Batch*c.spec.Accum*c.dp()) / step
}

// walkStep is the predicted seconds of one steady training step.
func (c *config) walkStep(g *Graph, cfg stepConfig, tm timeModel) float64 {
	s, _ := c.walkStepDetail(g, cfg, tm)
	return s
}

// walkStepDetail is walkStep with how the step splits between host and
// GPU.
func (c *config) walkStepDetail(g *Graph, cfg stepConfig, tm timeModel) (float64, *StepDetail) {
	p, bwdGPU := c.walk(g, cfg, tm)
	step := p.host + c.commTime(g, bwdGPU)
	if pp := c.spec.Parallel; pp.PP > 1 {
		// 1F1B bubble: (pp-1)/micro_batches of idle time
		step *= 1 + float64(pp.PP-1)/float64(pp.MicroBatches)
	}
	return step, p.detail()
}

// inputGradUnderCkpt reports whether the step runs LoRA under gradient
// checkpointing on a Hugging Face model with input embeddings, where
// enable_input_require_grads (builder.inputGrad) makes the first
// layer's input require grad: its backward then runs whole (the frozen
// q/k/v projections' data gradients, the LoRA A data gradients, the
// input norm's backward), which a plain LoRA step skips. dev12's
// profiles of Gemma 3 (e) s1024 b4 LoRA r16 with and without
// checkpointing count five more dgrad GEMMs (nvjet NNN 60 -> 65) beyond
// the recomputed layers' forward GEMMs. Only the step-time walk sees
// this graph: the memory model keeps the plain one (a transient
// [tokens, hidden] gradient of layer 0, not modelled there).
func (c *config) inputGradUnderCkpt() bool {
	f := c.arch.family()
	return c.spec.LoRA != nil && c.ckptEvery > 0 && f.Task != "diffusion"
}

// walk runs one step through the pipeline and returns its clocks and
// the GPU time the backward passes took.
func (c *config) walk(g *Graph, cfg stepConfig, tm timeModel) (pipeline, float64) {
	gen := newGenerator(g, cfg)
	var p pipeline
	var nParams, pElems float64
	for _, pi := range g.params {
		if pi.trainable {
			nParams++
			pElems += float64(pi.numel) * pi.shard
		}
	}
	var bwdGPU float64
	for micro := 0; micro < cfg.accum; micro++ {
		t0 := p.host
		for range g.inputs {
			p.issue(tm.Op, tm.r.launch(), kPointwise, 1) // the batch: randint/randn or a copy
		}
		c.walkForward(g, gen, tm, &p)
		t1 := p.host
		before := p.gpu
		c.walkBackward(g, gen, tm, &p)
		bwdGPU += p.gpu - before
		p.phases[0] += t1 - t0
		if micro > 0 {
			// AccumulateGrad adds into the existing .grad: one add per
			// parameter, each a dispatcher call from the autograd engine
			// (C++, no Python: Issue) and a kernel
			p.issue(nParams*tm.Issue, nParams*tm.r.launch()+tm.r.stream("add", F32, pElems*4*3), kPointwise, nParams)
		}
		p.phases[1] += p.host - t1
	}
	if cfg.scaler {
		// GradScaler: unscale_ checks every gradient for inf/NaN, then
		// step() reads found_inf with .item(), a device sync
		p.issue(nParams*tm.Param, tm.r.stream("copy", F32, pElems*4*2), kOptimizer, 1)
		p.sync()
	}
	// zero_grad(set_to_none) walks the parameters in Python; the
	// optimizer's own Python and kernels follow (optimizerTime)
	gpuOpt, hostOpt, optKernels := c.optimizerTime(tm, pElems*cfg.stateShard, nParams)
	p.issue(tm.Step+nParams*tm.Param+hostOpt, gpuOpt, kOptimizer, optKernels)
	p.phases[2] = p.host - p.phases[0] - p.phases[1]
	p.sync()
	return p, bwdGPU
}

// optimizerTime is the GPU and host time of optimizer.step() and the
// kernels it launches. PyTorch's default implementation for the
// calibrated optimizers (the registry's Calibrated and Impl: foreach or
// fused) is measured: its kernels are memory-bound and its Python loops
// over the parameters; both come from the calibrated steps, the Python
// converted to this host by its per-op issue cost (Issue), the kernels
// counted by the optimizer's Kernels. Other optimizers move their traffic
// at the calibrated bandwidth, a kernel per tensor, and pay a Python loop
// of Param per tensor.
func (c *config) optimizerTime(tm timeModel, elems, tensors float64) (gpuS, hostS, kernels float64) {
	if c.opt.Calibrated != "" {
		if g, ops, ok := tm.r.optimizer(c.opt.Calibrated, c.opt.Impl, elems, tensors); ok {
			return g, ops * tm.Issue, c.opt.Kernels(elems, tensors)
		}
	}
	return tm.r.stream("add", F32, elems*c.opt.Traffic) + tensors*tm.r.launch(), tensors * (tm.Param + c.opt.TensorHost*tm.hostScale()), tensors
}

// foreachKernels is how many kernels a foreach AdamW step launches over
// elems float32 elements in tensors tensors: eight _foreach ops (lerp,
// mul, addcmul, sqrt, div, add, addcdiv and the weight decay's mul), each
// split by multi_tensor_apply into launches of at most 64 tensors (its
// list-depth limit for two and three lists is 48–64) and 320 chunks of
// 65,536 elements. The profiles of testdata/profile count 144 on
// LLaMA-small (219 tensors, 0.37 G elements), 42 on ResNet-101 and 12 on
// a LoRA adapter set.
func foreachKernels(elems, tensors float64) float64 {
	return 8 * fusedKernels(elems, tensors)
}

// fusedKernels is how many kernels a fused optimizer step launches: one
// multi-tensor op, split by multi_tensor_apply as foreachKernels says.
func fusedKernels(elems, tensors float64) float64 {
	return math.Max(math.Ceil(tensors/64), math.Ceil(elems/(320*65536)))
}

// walkForward issues the forward ops; checkpointed regions additionally pack
// every saved tensor through a Python hook. Under torch.compile (compiled)
// Inductor's generated wrapper issues the kernels, a dispatcher call each
// and no module Python, and fused pointwise ops run inside their
// neighbours' kernels: their bytes are not charged again.
func (c *config) walkForward(g *Graph, gen *generator, tm timeModel, p *pipeline) {
	block := -1
	for i := range g.ops {
		o := &g.ops[i]
		if o.fused {
			continue // inside a neighbour's Inductor kernel (see compiled)
		}
		h := tm.hostTime(o)
		if g.compiled {
			h = tm.compiledHost(o)
		} else if o.block >= 0 && o.block != block {
			h += tm.layerHost(c.arch.family().Name) // the layer's container modules (HostCosts.Block)
		}
		block = o.block
		if r := gen.inReg[i]; r >= 0 {
			h += float64(len(o.save)) * tm.Hook
			if gen.regions[r].start == i {
				h += c.ckptCost(g, tm) * ckptEntryShare // checkpoint's entry (ckptRegionCost)
			}
		}
		tm.issueForward(o, g, h, p)
		tm.compiledSplitLaunches(o, g, false, p)
	}
}

// walkBackward issues the backward nodes in reverse; entering a
// checkpointed region from its end first recomputes the region's forward.
// The unpack hook that triggers it runs checkpoint's own bookkeeping (the
// RNG fork and restore, the autocast contexts: the backward's share of
// HostCosts.Ckpt) and then the region's Python forward on the autograd
// engine's device thread, which issues nothing else meanwhile. Nothing
// in it synchronises with the GPU (torch/utils/checkpoint.py: the RNG
// states are host copies), so the kernels queued before it keep running:
// the recomputation's Python is hidden when the backward is GPU-bound and
// exposed when it is not. (Until round 15 the walk drained the GPU before
// each recomputation, which stood in for the missing ckptRegionCost: the
// checkpointed host-bound steps of dev9/host were 21-40% short with it.)
// A tensor that fed several ops receives several gradients, which the
// autograd engine sums with one add kernel per extra use (the residual
// stream, a Python GELU's x used three times).
func (c *config) walkBackward(g *Graph, gen *generator, tm timeModel, p *pipeline) {
	graded, accumulated := map[Tensor]bool{}, map[Tensor]bool{}
	views := newViewBackward(g, gen)
	for i := len(g.ops) - 1; i >= 0; i-- {
		if R := gen.outerOf(i); R >= 0 && gen.outers[R].trigger == i {
			o := gen.outers[R] // an enclosing checkpoint's re-run (nested.go)
			c.recompute(g, &region{start: o.start, end: o.end, stop: o.stop, stopBeforeRun: o.stopBeforeRun}, tm, p)
		}
		if r := gen.inReg[i]; r >= 0 && gen.regions[r].recomputeAt() == i {
			c.recompute(g, &gen.regions[r], tm, p)
		}
		o := &g.ops[i]
		if o.noBackward || o.bwdFlops+o.bytes == 0 || o.fused {
			continue
		}
		if !c.needsGrad(o, g) {
			continue
		}
		h := tm.Bwd
		switch {
		case g.compiled:
			h = tm.compiledHost(o)
		case o.kind == "to":
			h = tm.Cast
		}
		h += tm.routingHost(o, true) + tm.bnb4bitHost(o)
		tm.issueContigIn(o, g, p)
		tm.issueExtra(o, true, p)
		if groupedFallback(o, g) {
			tm.issueGroupedBackward(o, g, h, p)
		} else {
			d, n := tm.backward(o, g)
			if k := formulaKernels(o, g); k > 0 {
				// the formula's bytes (backward's estimate) spread
				// over its kernels, each at least a launch's GPU time;
				// their dispatch is inside HostCosts.Bwd, fitted per
				// node on steps whose nodes launched them
				d = math.Max(d, (n+k)*tm.r.launch())
				n += k
			}
			p.issue(h, d, classOf(o), n)
		}
		tm.compiledSplitLaunches(o, g, true, p)
		if b, ok := tm.r.linearBiasGrad(o, g); ok {
			p.issue(0, b, kPointwise, 1)
		}
		if !g.compiled {
			// the Linear's transpose and views (steptime_nodes.go)
			p.issue(linearNodes(o, g, c.batch)*tm.Node, 0, classOf(o), 0)
		}
		views.issueOp(o, tm, p)
		for _, t := range o.in {
			if x := &g.tensors[t]; x.grad && x.param < 0 {
				if graded[t] {
					p.issue(tm.Issue, tm.r.stream("add", x.dt, 3*float64(x.bytes())), kPointwise, 1)
				}
				graded[t] = true
			}
			views.issue(t, tm, p)
		}
		tm.accumulateGrad(o, g, accumulated, p)
	}
}

// recompute issues checkpointed region rg's recomputation, which the
// backward of its last op that saves anything triggers (recomputeAt: the
// ops after it need no saved tensor, their backward ran first).
// checkpoint's unpack hook runs its share of the bookkeeping (see
// walkBackward), then the region's forward again, each saved tensor
// packed once more and unpacked by its backward, up to early stop
// (torch.utils.checkpoint's default): recomputation ends once the last
// saved tensor is back, so the ops after rg.stop are not rerun, nor the
// kernel of rg.stop itself when it saves only its inputs, which are
// packed before it runs (stopBeforeRun: a ViT block stops at fc2's
// input, a Llama layer at down_proj's, without either GEMM or the
// residual add). The memory model replays the same ops (recompute).
// Until round 16 the walk reran the whole region.
func (c *config) recompute(g *Graph, rg *region, tm timeModel, p *pipeline) {
	if rg.stop < rg.start {
		return // nothing saved: nothing to unpack, nothing recomputed
	}
	p.issue(c.ckptCost(g, tm)*(1-ckptEntryShare), 0, kPointwise, 0)
	for j := rg.start; j <= rg.stop; j++ {
		o := &g.ops[j]
		// recompute packs each saved tensor again; backward unpacks it
		h := tm.hostTime(o) + 2*float64(len(o.save))*tm.Hook
		if j == rg.start && o.block >= 0 && !g.compiled && (j == 0 || g.ops[j-1].block != o.block) {
			h += tm.layerHost(c.arch.family().Name) // the recomputed layer's containers run again (a region from its start)
		}
		if j == rg.stop && rg.stopBeforeRun {
			// the module's Python runs up to the op, whose saved
			// inputs are packed before the kernel would launch
			p.issue(h, 0, classOf(o), 0)
			break
		}
		tm.issueForward(o, g, h, p)
	}
}

// issueForward issues op o's forward (or recomputed) kernels with h of
// host time: its input's contiguous copy, its own kernel, its extra
// kernels; a fallback grouped_mm (groupedFallback) waits for the GPU and
// launches one GEMM per expert.
func (tm *timeModel) issueForward(o *op, g *Graph, h float64, p *pipeline) {
	h += tm.routingHost(o, false)
	tm.issueContigIn(o, g, p)
	d := tm.forward(o, g)
	if groupedFallback(o, g) {
		_, _, _, e := groupedShape(o, g)
		tm.issueGrouped(h, d, e, p)
	} else {
		p.issue(h, d, classOf(o), kernels(d))
	}
	tm.issueExtra(o, false, p)
}

// ckptCost is what one checkpointed region's torch.utils.checkpoint
// bookkeeping costs the host: HostCosts.Ckpt in eager (for a family with
// a CkptRegion, that share of the calibration machine's region scaled by
// the host's issue cost), nothing under torch.compile, where Dynamo
// traces checkpoint into the graph and AOTAutograd's compiled backward
// recomputes without running checkpoint.py.
func (c *config) ckptCost(g *Graph, tm timeModel) float64 {
	if g.compiled {
		return 0
	}
	if f := c.arch.family().CkptRegion; f > 0 {
		return f * ckptRegionCost * tm.Issue / CalibrationHostCosts().Issue
	}
	return tm.Ckpt
}

// needsGrad reports whether autograd runs a backward node for o: some
// input requires grad (frozen parameters and the batch do not).
func (c *config) needsGrad(o *op, g *Graph) bool {
	for _, t := range o.in {
		if g.tensors[t].grad {
			return true
		}
	}
	return false
}

// commTime is the gradient/parameter traffic a strategy adds per step
// beyond what overlaps with the backward pass: DDP's bucketed all-reduce
// and FSDP's reduce-scatter run on a side stream while backward computes,
// but at least the last bucket (commExposed of the traffic) waits for the
// backward to end. bwdGPU is the step's backward GPU time.
func (c *config) commTime(g *Graph, bwdGPU float64) float64 {
	p := c.spec.Parallel
	if p.GPUs <= 1 {
		return 0
	}
	var gradBytes float64
	for _, pi := range g.params {
		if pi.trainable {
			gradBytes += float64(pi.numel) * 4
		}
	}
	bw := c.gpu.InterconnectGBps * 1e9
	n := float64(c.dp())
	ring := 2 * (n - 1) / n
	var t float64
	switch p.Strategy {
	case "ddp", "zero1", "zero2":
		t = gradBytes * ring / bw
	case "zero3", "fsdp":
		// all-gather in forward and backward, reduce-scatter in backward
		t = gradBytes * 1.5 * ring / bw
	}
	t = maxF(t-bwdGPU, commExposed*t)
	if p.TP > 1 {
		// two all-reduces of the activations per layer, forward and
		// backward, on the critical path
		act := float64(c.batch*max(c.seq, 1)) * float64(c.arch.Hidden) * 2
		t += 4 * float64(c.arch.Layers) * act * 2 * float64(p.TP-1) / float64(p.TP) / bw
	}
	return t
}

// commExposed is the share of gradient communication that cannot overlap
// with backward (the last bucket, the optimizer's wait on it).
const commExposed = 0.2

func maxF(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

package memmodel

import (
	"math"

	"github.com/vramkit/vramkit/internal/allocsim"
)

// generate produces the stream of cfg.steps training steps of graph g,
// starting from an empty allocator: model load, then per step accum
// micro-batches of forward+backward, the optimizer step and zero_grad.
func generate(g *Graph, cfg stepConfig) *Stream { return generateSchedule([]*Graph{g}, cfg) }

// generateSchedule is generate with step i running graph gs[i%len(gs)]:
// the same model at a different input shape (dynamic padding), so
// parameters, gradients and optimizer state carry over while activations
// change size from step to step.
func generateSchedule(gs []*Graph, cfg stepConfig) *Stream {
	g := gs[0]
	gen := newGenerator(g, cfg)
	// Presize the event list: a step emits a few events per op (outputs,
	// saved tensors, gradients) and growing a slice of millions of events
	// by appending dominated --fit's profile.
	n := (8*len(g.ops) + 4*len(g.params) + 64) * max(cfg.steps, 1) * max(cfg.accum, 1)
	gen.ev = make([]allocsim.Request, 0, n)
	gen.tags = make([]Tag, 1, n/2+1)
	gen.paramGrad = make([]*gbuf, len(g.params))
	gen.paramID = make([]int32, len(g.params))
	gen.phase = PhaseLoad
	order := g.loadOrder
	if order == nil {
		order = make([]int, len(g.params))
		for i := range order {
			order[i] = i
		}
	}
	size := func(i int, shard float64) int64 {
		p := g.params[i]
		el := p.dt.Size()
		if cfg.paramBytes > 0 {
			el = cfg.paramBytes
		}
		if p.quant > 0 {
			return maxI64(int64(math.Ceil(float64(p.numel)*shard*p.quant)), 1)
		}
		return maxI64(int64(float64(p.numel)*shard)*el, 1)
	}
	if cfg.fsdpWorld > 1 && !cfg.fsdpMeta {
		gen.loadSharded(order, size)
	} else {
		// one GPU, or FSDP2 from the meta device: to_empty allocates
		// each sharded parameter in module order
		for _, i := range order {
			gen.paramID[i] = gen.alloc(size(i, g.params[i].shard), CatParameters, "param")
		}
	}
	for _, n := range g.buffers {
		gen.alloc(n, CatParameters, "buffer")
	}
	var comm int32
	if cfg.extraPersistent > 0 {
		comm = gen.alloc(cfg.extraPersistent, CatTemporaries, "comm_buffers")
	}
	if cfg.warm {
		gen.optimizerState()
	}
	st := &Stream{}
	rebuildAt := 1
	if cfg.warm {
		rebuildAt = 0
	}
	var held []int32 // the batch Python still names (heldInputs)
	for step := 0; step < cfg.steps; step++ {
		if g = gs[step%len(gs)]; g != gen.g {
			gen.use(g)
		}
		st.StepStart = append(st.StepStart, len(gen.ev))
		var oldComm int32
		if cfg.rebuildPersistent && step == rebuildAt && comm != 0 {
			// DDP rebuilds its buckets in gradient-ready order before the
			// second forward (cfg.rebuilt, into the blocks zero_grad just
			// freed). The construction-time buffer (one tensor) goes when
			// the last reference to it does, which NCCL's work for the
			// first step holds until a watchdog pass sees it done: at the
			// rebuild (12 of 17 runs or ranks: Llama-small at world size 1,
			// TinyLlama plain on two GPUs) or 29-41 ms into the second
			// step (GPT-2 medium on two GPUs, TinyLlama at world size 1),
			// after a short forward's peak. One rank of a run may do one,
			// the other the other. The model keeps it through the step,
			// the safe side, unless its forward outlasts NCCL's watchdog
			// period (ddpRelease): freed at the rebuild, the world-size-1
			// TinyLlama step (testdata/dev30, kept) came out 12% under;
			// kept, runs that freed it come out up to 17% over.
			gen.phase = PhaseForward
			oldComm = comm
			if cfg.releaseAtRebuild {
				gen.free(oldComm)
				oldComm = 0
			}
			for _, b := range cfg.rebuilt {
				comm = gen.alloc(b, CatTemporaries, "comm_buffers")
			}
		}
		for micro := 0; micro < cfg.accum; micro++ {
			gen.phase = PhaseForward
			for _, in := range g.inputs {
				id := gen.alloc(g.tensors[in].bytes(), CatInputs, "input")
				gen.store[in] = &storage{id: id, py: true}
			}
			// the previous micro-batch goes when its names are rebound to
			// this one (see heldInputs)
			gen.freeAll(held)
			held = nil
			var tr, side int32
			if cfg.extraTransient > 0 {
				tr = gen.alloc(cfg.extraTransient, CatTemporaries, "gathered_params")
			}
			if cfg.sideTransient > 0 {
				side = gen.allocOn(cfg.sideTransient, CatTemporaries, "all_gather_buffers", cfg.sideStream)
			}
			gen.forward()
			gen.backward()
			gen.endUnits()
			if tr != 0 {
				gen.free(tr)
			}
			if side != 0 {
				gen.free(side)
			}
			gen.release(g.loss)
			held = gen.heldInputs()
			// anything still stored leaked through a rule gap; free it so
			// steps do not drift
			for b := range gen.store {
				s := gen.store[b]
				s.py, s.saves = false, 0
				gen.maybeFree(b)
			}
		}
		if oldComm != 0 {
			gen.free(oldComm)
		}
		if step >= cfg.skipSteps {
			gen.optimizerStep(step == cfg.skipSteps && !cfg.warm)
		}
		if !cfg.keepGrads {
			for i, b := range gen.paramGrad {
				if b != nil {
					gen.dropRef(b)
					gen.paramGrad[i] = nil
				}
			}
		}
		// the step's function returns: its last batch goes
		gen.freeAll(held)
		held = nil
	}
	st.Requests, st.Tags = gen.ev, gen.tags
	return st
}

// optimizerStep emits the optimizer's state creation (first step) and the
// scratch its foreach kernels allocate.
func (gen *generator) optimizerStep(first bool) {
	g := gen.g
	gen.phase = PhaseOptimizer
	if gen.cfg.scaler {
		// GradScaler.unscale_: found_inf and the inverse scale
		a, b := gen.alloc(4, CatTemporaries, "unscale"), gen.alloc(4, CatTemporaries, "unscale")
		gen.free(a)
		gen.free(b)
	}
	var trainable []int
	for i, p := range g.params {
		if p.trainable {
			trainable = append(trainable, i)
		}
	}
	if first {
		gen.optimizerState()
	}
	opt := gen.cfg.optimizer
	if opt.Scratch == nil {
		return
	}
	var ids []int32
	for _, i := range trainable {
		for _, t := range opt.Scratch(paramStateDT(gen.cfg.stateDT, g.params[i])) {
			ids = append(ids, gen.alloc(gen.tensorSize(i, t), CatTemporaries, t.Name))
		}
		if !opt.Foreach {
			ids = gen.freeAll(ids)
		}
	}
	gen.freeAll(ids)
}

// freeAll frees ids in order and returns the emptied slice.
func (gen *generator) freeAll(ids []int32) []int32 {
	for _, id := range ids {
		gen.free(id)
	}
	return ids[:0]
}

// optimizerState allocates the optimizer's per-parameter state, as the
// first successful step (or a warm start) does.
func (gen *generator) optimizerState() {
	g := gen.g
	gen.state = make([][]int32, len(g.params))
	opt := gen.cfg.optimizer
	if !opt.Stateful() {
		return
	}
	for i, p := range g.params {
		if !p.trainable {
			continue
		}
		for _, t := range opt.State(p.numel, paramStateDT(gen.cfg.stateDT, p)) {
			gen.state[i] = append(gen.state[i], gen.alloc(gen.tensorSize(i, t), CatOptimizer, t.Name))
		}
	}
}

// paramStateDT is the dtype of parameter p's optimizer state: torch.optim
// makes state like the parameter, so a float32 parameter among bf16 ones
// (PEFT's upcast adapters in a pure-bf16 model) keeps float32 state.
func paramStateDT(stateDT DType, p paramInfo) DType {
	if p.dt == F32 && stateDT == BF16 {
		return F32
	}
	return stateDT
}

// tensorSize is the bytes of optimizer tensor t of parameter i on this rank.
func (gen *generator) tensorSize(i int, t StateTensor) int64 {
	if t.Fixed > 0 {
		return t.Fixed
	}
	return gen.stateSize(i, t.PerElem)
}

// stateSize is the bytes of a state tensor of parameter i at bytesPerElem.
func (gen *generator) stateSize(i int, bytesPerElem float64) int64 {
	p := gen.g.params[i]
	n := float64(p.numel) * p.shard * gen.cfg.stateShard
	return maxI64(int64(math.Ceil(n*bytesPerElem)), 1)
}

// heldInputs takes the micro-batch's inputs out of the step's bookkeeping
// once backward is done, without freeing them: the training loop's names
// (gt_work.py's step(): inp, tgt = batch() in the accumulation loop) hold
// a batch until they are rebound to the next micro-batch, after it is
// allocated, or until the step returns, after the optimizer step and
// zero_grad. An image batch is the one input large enough to matter: the
// ViT-L/16 b128 fp16 trace (testdata/dev23) frees its 73.5 MiB image after
// Adam's last kernel, where the model freed it before Adam's first.
func (gen *generator) heldInputs() []int32 {
	var ids []int32
	for _, in := range gen.g.inputs {
		if s := gen.store[in]; s != nil && s.saves == 0 {
			ids = append(ids, s.id)
			delete(gen.store, in)
		} else {
			gen.release(in)
		}
	}
	return ids
}

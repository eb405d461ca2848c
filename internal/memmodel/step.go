package memmodel

import "math"

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
	gen.ev = make([]Event, 0, (8*len(g.ops)+4*len(g.params)+64)*max(cfg.steps, 1)*max(cfg.accum, 1))
	gen.paramGrad = make([]*gbuf, len(g.params))
	gen.paramID = make([]int32, len(g.params))
	gen.phase = PhaseLoad
	for i, p := range g.params {
		el := p.dt.Size()
		if cfg.paramBytes > 0 {
			el = cfg.paramBytes
		}
		gen.paramID[i] = gen.alloc(maxI64(int64(float64(p.numel)*p.shard)*el, 1), CatParameters, "param")
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
	for step := 0; step < cfg.steps; step++ {
		if g = gs[step%len(gs)]; g != gen.g {
			gen.use(g)
		}
		st.StepStart = append(st.StepStart, len(gen.ev))
		var oldComm int32
		if cfg.rebuildPersistent && step == rebuildAt && comm != 0 {
			// DDP rebuilds its buckets in gradient-ready order before the
			// second forward; the construction-time ones go during that
			// backward, so both sets are live across its peak (a warm
			// start stands for that second step)
			gen.phase = PhaseForward
			oldComm, comm = comm, gen.alloc(cfg.extraPersistent, CatTemporaries, "comm_buffers")
		}
		for micro := 0; micro < cfg.accum; micro++ {
			gen.phase = PhaseForward
			for _, in := range g.inputs {
				id := gen.alloc(g.tensors[in].bytes(), CatInputs, "input")
				gen.store[in] = &storage{id: id, py: true}
			}
			var tr int32
			if cfg.extraTransient > 0 {
				tr = gen.alloc(cfg.extraTransient, CatTemporaries, "gathered_params")
			}
			gen.forward()
			gen.backward()
			if tr != 0 {
				gen.free(tr)
			}
			gen.release(g.loss)
			for _, in := range g.inputs {
				gen.release(in)
			}
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
	}
	st.Events = gen.ev
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
	dt := gen.cfg.stateDT
	var trainable []int
	for i, p := range g.params {
		if p.trainable {
			trainable = append(trainable, i)
		}
	}
	size := gen.stateSize
	if first {
		gen.optimizerState()
	}
	switch gen.cfg.optimizer {
	case "adamw", "adam":
		// _multi_tensor_adam: one scratch tensor per parameter (the
		// denominator sqrt(v)), all alive at once
		var ids []int32
		for _, i := range trainable {
			ids = append(ids, gen.alloc(size(i, float64(dt.Size())), CatTemporaries, "adam_denom"))
		}
		for _, id := range ids {
			gen.free(id)
		}
	case "adafactor":
		// per-parameter loop: the update and grad² live one parameter at a time
		for _, i := range trainable {
			a := gen.alloc(size(i, 4), CatTemporaries, "adafactor_update")
			b := gen.alloc(size(i, 4), CatTemporaries, "adafactor_update")
			gen.free(a)
			gen.free(b)
		}
	}
}

// optimizerState allocates the optimizer's per-parameter state, as the
// first successful step (or a warm start) does.
func (gen *generator) optimizerState() {
	g := gen.g
	dt := gen.cfg.stateDT
	size := gen.stateSize
	gen.state = make([][]int32, len(g.params))
	for i, p := range g.params {
		if !p.trainable {
			continue
		}
		switch gen.cfg.optimizer {
		case "adamw", "adam":
			gen.state[i] = []int32{
				gen.alloc(size(i, float64(dt.Size())), CatOptimizer, "exp_avg"),
				gen.alloc(size(i, float64(dt.Size())), CatOptimizer, "exp_avg_sq"),
			}
		case "sgd-momentum":
			gen.state[i] = []int32{gen.alloc(size(i, float64(dt.Size())), CatOptimizer, "momentum_buffer")}
		case "adamw-8bit":
			if g.params[i].numel >= 4096 {
				gen.state[i] = []int32{
					gen.alloc(size(i, 1), CatOptimizer, "state1"),
					gen.alloc(size(i, 1), CatOptimizer, "state2"),
					gen.alloc(size(i, 8.0/256), CatOptimizer, "absmax"),
				}
			} else {
				gen.state[i] = []int32{
					gen.alloc(size(i, 4), CatOptimizer, "state1"),
					gen.alloc(size(i, 4), CatOptimizer, "state2"),
				}
			}
		case "adafactor":
			n := float64(g.params[i].numel)
			gen.state[i] = []int32{gen.alloc(maxI64(int64(2*math.Sqrt(n)*4), 4), CatOptimizer, "exp_avg_sq_factored")}
		}
	}
}

// stateSize is the bytes of a state tensor of parameter i at bytesPerElem.
func (gen *generator) stateSize(i int, bytesPerElem float64) int64 {
	p := gen.g.params[i]
	n := float64(p.numel) * p.shard * gen.cfg.stateShard
	return maxI64(int64(math.Ceil(n*bytesPerElem)), 1)
}

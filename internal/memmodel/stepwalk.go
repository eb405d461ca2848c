package memmodel

// stepTime fills r's step time, its band and throughput by walking one
// training step through the host/GPU pipeline (see timeModel).
func (c *config) stepTime(g *Graph, cfg stepConfig, r *Result) {
	step := c.walkStep(g, cfg, defaultTimeModel())
	r.StepTime = step
	r.StepTimeBand = [2]float64{step * 0.75, step * 1.33}
	r.SamplesPerSec = float64(c.spec.Batch*c.spec.Accum*c.dp()) / step
}

// walkStep is the predicted seconds of one steady training step.
func (c *config) walkStep(g *Graph, cfg stepConfig, tm timeModel) float64 {
	gen := newGenerator(g, cfg)
	var p pipeline
	var nParams, pBytes float64
	for _, pi := range g.params {
		if pi.trainable {
			nParams++
			pBytes += float64(pi.numel) * pi.shard
		}
	}
	bw := c.gpu.BandwidthGBps * 1e9 * tm.effBandwidth
	for micro := 0; micro < cfg.accum; micro++ {
		for range g.inputs {
			p.issue(tm.hostOp, tm.launch) // the batch: randint/randn or a copy
		}
		c.walkForward(g, gen, tm, &p)
		c.walkBackward(g, gen, tm, &p)
		if micro > 0 {
			// AccumulateGrad adds into existing .grad: one kernel per parameter
			p.issue(0, pBytes*4*3/bw+nParams*tm.launch)
		}
	}
	if cfg.scaler {
		// GradScaler: unscale_ checks every gradient for inf/NaN, then
		// step() reads found_inf with .item(), a device sync
		p.issue(nParams*tm.hostParam, pBytes*4*2/bw)
		p.sync()
	}
	// foreach optimizer: reads param, grad and state, writes param and state
	p.issue(tm.hostStep+2*nParams*tm.hostParam, pBytes*cfg.optimizer.Traffic*cfg.stateShard/bw)
	p.sync()
	step := p.host + c.commTime(g)
	if pp := c.spec.Parallel; pp.PP > 1 {
		// 1F1B bubble: (pp-1)/micro_batches of idle time
		step *= 1 + float64(pp.PP-1)/float64(pp.MicroBatches)
	}
	return step
}

// walkForward issues the forward ops; checkpointed regions additionally pack
// every saved tensor through a Python hook.
func (c *config) walkForward(g *Graph, gen *generator, tm timeModel, p *pipeline) {
	for i := range g.ops {
		o := &g.ops[i]
		h := tm.hostTime(o)
		if gen.inReg[i] >= 0 {
			h += float64(len(o.save)) * tm.hostHook
		}
		p.issue(h, tm.kernelTime(c, o, g, false))
	}
}

// walkBackward issues the backward nodes in reverse; entering a
// checkpointed region from its end first recomputes the region's forward.
func (c *config) walkBackward(g *Graph, gen *generator, tm timeModel, p *pipeline) {
	for i := len(g.ops) - 1; i >= 0; i-- {
		if r := gen.inReg[i]; r >= 0 && gen.regions[r].end == i {
			for j := gen.regions[r].start; j <= i; j++ {
				o := &g.ops[j]
				// recompute packs each saved tensor again; backward unpacks it
				h := tm.hostTime(o) + 2*float64(len(o.save))*tm.hostHook
				p.issue(h, tm.kernelTime(c, o, g, false))
			}
		}
		o := &g.ops[i]
		if o.noBackward || o.bwdFlops+o.bytes == 0 {
			continue
		}
		h := tm.hostBwd
		if o.kind == "to" {
			h = tm.hostCast
		}
		p.issue(h, tm.kernelTime(c, o, g, true))
	}
}

// commTime is the gradient/parameter traffic a strategy adds per step, not
// overlapped with compute (a pessimistic simplification).
func (c *config) commTime(g *Graph) float64 {
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
		t = gradBytes * ring / bw * 0.5 // half overlapped with backward
	case "zero3", "fsdp":
		t = gradBytes * 1.5 * ring / bw * 0.5
	}
	if p.TP > 1 {
		// two all-reduces of the activations per layer, forward and backward
		act := float64(c.batch*max(c.seq, 1)) * float64(c.arch.Hidden) * 2
		t += 4 * float64(c.arch.Layers) * act * 2 * float64(p.TP-1) / float64(p.TP) / bw
	}
	return t
}

func maxF(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

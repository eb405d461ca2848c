package memmodel

// Parallel strategies are modelled per rank: the graph of one rank's
// micro-batch (heads, FFN and vocabulary split for tensor parallelism, a
// pipeline stage's layers for pipeline parallelism) plus the sharding of
// parameters, gradients and optimizer state that ZeRO/FSDP apply.

// checkParallel validates the parallel section and fills derived sizes.
func (c *config) checkParallel() error {
	p := &c.spec.Parallel
	switch p.Strategy {
	case "none", "ddp", "fsdp", "zero1", "zero2", "zero3", "tp", "pp":
	default:
		return specErr("parallel.strategy", "want none|ddp|fsdp|zero1|zero2|zero3|tp|pp, got %q", p.Strategy)
	}
	if p.GPUs < 1 || p.TP < 1 || p.PP < 1 || p.MicroBatches < 1 {
		return specErr("parallel", "gpus, tp, pp and micro_batches must be at least 1")
	}
	if p.Strategy == "tp" && p.TP == 1 {
		p.TP = p.GPUs
	}
	if p.Strategy == "pp" && p.PP == 1 {
		p.PP = p.GPUs
	}
	if p.Strategy == "none" && p.GPUs > 1 && p.TP == 1 && p.PP == 1 {
		return specErr("parallel.strategy", "%d GPUs need a strategy (ddp, fsdp, zero1-3, tp, pp)", p.GPUs)
	}
	if p.GPUs%(p.TP*p.PP) != 0 {
		return specErr("parallel.gpus", "%d GPUs are not divisible by tp×pp = %d", p.GPUs, p.TP*p.PP)
	}
	a := &c.arch
	if p.TP > 1 {
		if !a.Attention() {
			return specErr("parallel.tp", "tensor parallelism is not supported for %s", a.Family)
		}
		if a.Heads%p.TP != 0 {
			return specErr("parallel.tp", "tp=%d does not divide the %d attention heads", p.TP, a.Heads)
		}
		if a.KVHeads > 0 && a.KVHeads%p.TP != 0 {
			return specErr("parallel.tp", "tp=%d does not divide the %d key/value heads", p.TP, a.KVHeads)
		}
	}
	if p.PP > 1 {
		layers := a.Layers + a.DecLayers
		if f := a.family(); f.PipelineLayers != nil {
			layers = f.PipelineLayers(a)
		}
		if p.PP > layers {
			return specErr("parallel.pp", "pp=%d is more than the model's %d layers", p.PP, layers)
		}
	}
	return nil
}

// dp is the data-parallel degree.
func (c *config) dp() int {
	p := c.spec.Parallel
	return p.GPUs / (p.TP * p.PP)
}

// rankArch is the architecture one rank holds: heads, FFN and vocabulary
// split by tp, the layers of the heaviest pipeline stage.
func (c *config) rankArch() Arch {
	a := c.arch
	p := c.spec.Parallel
	if p.TP > 1 {
		if a.HeadDim == 0 && a.Heads > 0 {
			a.HeadDim = a.Hidden / a.Heads
		}
		a.Heads /= p.TP
		if a.KVHeads > 0 {
			a.KVHeads /= p.TP
		}
		a.FFN /= p.TP
		a.Vocab = (a.Vocab + p.TP - 1) / p.TP
	}
	if p.PP > 1 {
		a.Layers = (a.Layers + p.PP - 1) / p.PP
		if a.DecLayers > 0 {
			a.DecLayers = (a.DecLayers + p.PP - 1) / p.PP
		}
		for i := range a.Blocks {
			a.Blocks[i] = (a.Blocks[i] + p.PP - 1) / p.PP
		}
	}
	return a
}

// applySharding sets what each rank keeps of parameters, gradients and
// optimizer state.
func (c *config) applySharding(g *Graph, cfg *stepConfig) {
	dp := float64(c.dp())
	cfg.gradShard, cfg.stateShard = 1, 1
	var gradBytes int64
	for _, p := range g.params {
		if p.trainable {
			gradBytes += p.numel * 4
		}
	}
	switch c.spec.Parallel.Strategy {
	case "ddp":
		if dp > 1 {
			// DDP's flat gradient buckets, rebuilt once in gradient-ready
			// order at the second iteration (GPT-2 DDP snapshot: 498 MB at
			// construction, a second 498 MB in _pre_forward of iteration 2,
			// the first freed during its backward)
			cfg.extraPersistent = gradBytes
			cfg.rebuildPersistent = true
		}
	case "zero1":
		cfg.stateShard = 1 / dp
	case "zero2":
		cfg.stateShard, cfg.gradShard = 1/dp, 1/dp
		cfg.extraTransient = minI64(gradBytes, 2*500_000_000) // reduce buckets
	case "zero3", "fsdp":
		cfg.gradShard = 1 / dp
		for i := range g.params {
			g.params[i].shard = 1 / dp
		}
		// all-gathered parameters of the current and the prefetched block
		var full int64
		for _, p := range g.params {
			full += p.numel * p.dt.Size()
		}
		blocks := int64(max(g.blocks, 1))
		cfg.extraTransient = 2*full/blocks + full/blocks/2
	}
}

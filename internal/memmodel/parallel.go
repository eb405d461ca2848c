package memmodel

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/units"
)

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
	switch p.Schedule {
	case "", "1f1b", "gpipe":
	default:
		return specErr("parallel.schedule", "want 1f1b|gpipe, got %q", p.Schedule)
	}
	switch {
	case p.Init != "" && p.Init != "gpu" && p.Init != "meta":
		return specErr("parallel.init", "want gpu|meta, got %q", p.Init)
	case p.Init == "meta" && p.Strategy != "fsdp":
		return specErr("parallel.init", "meta-device init is planned for fsdp (fully_shard), not %s", p.Strategy)
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
	// keys only a pipeline (or FSDP) reads are refused elsewhere rather
	// than planned as if they were absent
	if p.PP == 1 && p.MicroBatches > 1 {
		return specErr("parallel.micro_batches", "%d micro-batches split a pipeline's batch, but pp is 1 (gradient accumulation is accum)", p.MicroBatches)
	}
	if p.PP == 1 && p.Schedule != "" {
		return specErr("parallel.schedule", "%s schedules a pipeline, but pp is 1", p.Schedule)
	}
	if p.ReshardAfterForward != nil && p.Strategy != "fsdp" && p.Strategy != "zero3" {
		return specErr("parallel.reshard_after_forward", "is FSDP's (fsdp, zero3), not %s's", p.Strategy)
	}
	if p.GPUs%(p.TP*p.PP) != 0 {
		return specErr("parallel.gpus", "%d GPUs are not divisible by tp×pp = %d", p.GPUs, p.TP*p.PP)
	}
	a := &c.arch
	if a.family().Audio && (p.TP > 1 || p.PP > 1) {
		// the feature encoder, positional conv and heads would be whole on
		// every rank and the stages' split is not modelled
		return specErr("parallel", "tensor and pipeline parallelism are not modelled for %s (its convolutional feature encoder); use ddp, fsdp or zero1-3", a.Family)
	}
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

// rankArch is the architecture one rank holds: heads and FFN split by
// tp, the layers of the heaviest pipeline stage.
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
		// the vocabulary stays whole: transformers' _tp_plan makes
		// lm_head "colwise_rep", whose output is gathered (Replicate),
		// so every rank holds the full logits and their gradient, which
		// dominate with checkpointing. The head's weight, its gradient
		// and optimizer state are then counted whole although sharded:
		// (1-1/tp)·vocab·hidden·16 bytes too many under AdamW, the safe
		// side.
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

// fsdpReduceStream stands for FSDP2's reduce-scatter stream.
const fsdpReduceStream = 1

// fsdpGatherStream stands for FSDP2's all-gather stream.
const fsdpGatherStream = 2

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
		// DDP's gradient buckets (every trainable parameter in its
		// dtype), also at world size 1: one buffer at construction,
		// rebuilt once in gradient-ready order at the second iteration
		// as buckets of about 25 MiB (ddpBuckets). When the
		// construction-time buffer goes is NCCL's business: kept
		// through the second step unless its forward outlasts the
		// watchdog's period (ddpRelease, generateSchedule).
		cfg.rebuilt = ddpBuckets(g.params)
		cfg.extraPersistent = 0
		for _, b := range cfg.rebuilt {
			cfg.extraPersistent += b
		}
		cfg.rebuildPersistent = true
	case "tp":
		// torch.optim steps DTensor parameters one tensor at a time: the
		// world-size-1 TP snapshot of Llama-small (testdata/captures/
		// sharded1) rises 0.24 GiB above the gradients' level in its
		// optimizer step (the embedding's scratch), its DDP twin 1.45 GiB
		// (foreach scratch for every parameter at once). With foreach
		// scratch the checkpointed TP runs, whose peak is the optimizer
		// step, came out 15-21% high (heldout Llama-small, late30's
		// TinyLlama).
		if cfg.optimizer != nil && cfg.optimizer.Foreach {
			o := *cfg.optimizer
			o.Foreach = false
			cfg.optimizer = &o
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
		var full int64
		for _, p := range g.params {
			full += p.numel * p.dt.Size()
		}
		blocks := int64(max(g.blocks, 1))
		if c.spec.Parallel.Strategy == "fsdp" && g.blocks > 0 {
			// FSDP2 gathers unit by unit, with its all-gather buffers
			// per gather on several GPUs (fsdp.go)
			cfg.fsdpUnits = true
			cfg.fsdpWorld = int(dp)
			cfg.fsdpMeta = c.spec.Parallel.Init == "meta"
			r := c.spec.Parallel.ReshardAfterForward
			cfg.fsdpReshard = r == nil || *r
		} else {
			// all-gathered parameters of the current and the prefetched
			// unit, and the all-gather buffer of one in flight
			cfg.extraTransient = 2*full/blocks + full/blocks/2
			if r := c.spec.Parallel.ReshardAfterForward; r != nil && !*r {
				// reshard_after_forward=False: every unit's gathered
				// parameters stay from its forward to its backward
				cfg.extraTransient = full + full/blocks/2
			}
			if dp > 1 {
				// the all-gather inputs and outputs of the unit in flight
				// and the prefetched one live on the all-gather stream
				// (GPT-2 FSDP2 on two GPUs: 114 MiB of segments there); at
				// world size 1 FSDP2 copies instead of gathering
				cfg.sideTransient = int64(float64(2*full/blocks) * (1 + 1/dp))
				cfg.sideStream = fsdpGatherStream
			}
		}
		if c.spec.Parallel.Strategy == "fsdp" {
			// FSDP2 (fully_shard) makes each sharded gradient a view of
			// its unit's reduce-scatter output, allocated on the
			// reduce-scatter stream: kept until zero_grad in that
			// stream's own segments (ws1 LLaMA snapshot: 1.43 GB there)
			cfg.gradStream = fsdpReduceStream
		}
	}
}

// NCCL's memory outside PyTorch's allocator, measured on the H200 at world
// size 1 as NVML process memory minus peak reserved minus the CUDA context
// of an undistributed run (794.8 MB): a process group adds 70 MiB; its
// first collective creates the communicator, which adds 488 MiB more (DDP,
// tensor parallelism and ZeRO-1 broadcast at construction; FSDP2 at world
// size 1 copies instead of gathering and never creates it).
//
// On two H200s (late44, NVML process memory of every rank) the process
// holds 1604 MiB beyond peak reserved under DDP, FSDP2 and ZeRO-1 on both
// ranks: NCCL 846 MiB beside the context, its buffers for the peer; under
// DTensor tensor parallelism (a device mesh's communicators besides the
// default group) 1726 MiB on rank 0 and 1982 on rank 1: NCCL 968 and 1224
// MiB, the larger taken.
const (
	ncclGroupBytes  = 70 << 20
	ncclCommBytes   = 488 << 20
	ncclPeerBytes   = 846 << 20
	ncclPeerTPBytes = 1224 << 20
)

// NCCLCommBytes is what one NCCL communicator with a peer holds outside
// PyTorch's allocator on an H200 (late44: 846 MiB a rank beside the CUDA
// context), for planners of other programs (infer's vLLM serve plan).
const NCCLCommBytes = ncclPeerBytes

// ncclBytes is what NCCL holds outside the caching allocator on one rank.
func (c *config) ncclBytes() int64 {
	p := c.spec.Parallel
	switch {
	case p.Strategy == "none" && p.GPUs == 1:
		return 0
	case p.GPUs > 1 && p.TP > 1:
		return ncclPeerTPBytes
	case p.GPUs > 1:
		return ncclPeerBytes
	case (p.Strategy == "fsdp" || p.Strategy == "zero3") && c.dp() == 1 && p.TP == 1 && p.PP == 1:
		return ncclGroupBytes
	}
	return ncclGroupBytes + ncclCommBytes
}

// rankNotes says how ranks differ and what was not measured.
func (c *config) rankNotes() []string {
	p := c.spec.Parallel
	var out []string
	if p.GPUs > 1 {
		n := "NCCL's buffers outside the allocator were measured on two GPUs (846 MiB a rank, 1224 MiB under tensor parallelism)"
		if p.GPUs > 2 {
			n += "; with more peers each channel adds buffers (NCCL_BUFFSIZE, 4 MiB by default), so process memory may be higher"
		}
		out = append(out, n)
	}
	switch {
	case p.Strategy == "ddp" && c.ddpReleased():
		out = append(out, fmt.Sprintf("figures let DDP's construction-time gradient buffer go when the rebuilt buckets come: the second step's forward (%.0f ms predicted) outlasts NCCL's watchdog period (100 ms), after which the first step's all-reduce lets go of it", 1000*c.ddpForward))
	case p.Strategy == "ddp":
		out = append(out, "figures keep DDP's construction-time gradient buffer beside the rebuilt buckets through the second step, as GPT-2 medium on two GPUs and TinyLlama on one did; runs whose NCCL work lets it go at the rebuild peak lower (up to 17% below this figure), so this is the safe side")
	case p.PP > 1 && p.Schedule == "gpipe":
		out = append(out, fmt.Sprintf("figures are the fuller pipeline stage's: allocated %s on the first (its layers, the embedding, all %d micro-batches' activations), %s on the last (its layers, the head and loss of every micro-batch); measured on two stages only (torch.distributed.pipelining)", units.Bytes(c.ppStages[0]), p.MicroBatches, units.Bytes(c.ppStages[1])))
	case p.PP > 1:
		// one micro-batch read "1 micro-batches in flight" and "the 0
		// earlier micro-batches' logits"
		inFlight := fmt.Sprintf("%d micro-batches in flight", min(p.PP, p.MicroBatches))
		if min(p.PP, p.MicroBatches) == 1 {
			inFlight = "1 micro-batch in flight"
		}
		kept := ""
		switch n := p.MicroBatches - 1; n {
		case 0:
		case 1:
			kept = ", and the earlier micro-batch's logits the schedule keeps to merge its output"
		default:
			kept = fmt.Sprintf(", and the %d earlier micro-batches' logits the schedule keeps to merge its output", n)
		}
		out = append(out, fmt.Sprintf("figures are the fuller pipeline stage's: allocated %s on the first (its layers, the embedding, %s under 1F1B), %s on the last (its layers, the head and loss%s); measured on two stages only (torch.distributed.pipelining)", units.Bytes(c.ppStages[0]), inFlight, units.Bytes(c.ppStages[1]), kept))
	case p.GPUs > 1:
		out = append(out, "ranks hold the same memory under this strategy (FSDP2 on two GPUs: within 2 KB)")
	}
	return out
}

// activationPeak is the most activation bytes live at once and the total
// live bytes at the last moment they are.
func (s *Stream) activationPeak(cfg allocsim.Config) (act, liveAt int64) {
	live := make(map[int32]int64, 1024)
	var cur, curAct int64
	for _, r := range s.Requests {
		switch r.Kind {
		case allocsim.ReqAlloc:
			n := cfg.RoundSize(r.Size)
			live[r.ID] = n
			cur += n
			if s.Tags[r.ID].Cat == CatActivations {
				curAct += n
				// the latest such moment: the first step's has no
				// optimizer state beside it yet
				if curAct >= act {
					act, liveAt = curAct, cur
				}
			}
		case allocsim.ReqFree:
			n, ok := live[r.ID]
			if !ok {
				continue
			}
			delete(live, r.ID)
			cur -= n
			if s.Tags[r.ID].Cat == CatActivations {
				curAct -= n
			}
		}
	}
	return act, liveAt
}

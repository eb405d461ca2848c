package memmodel

import "github.com/vramkit/vramkit/internal/allocsim"

// Pipeline parallelism's memory per stage.
//
// The graph of a pipeline run is one stage's layers (rankArch) with both
// ends of the model, the embedding and the head with its loss, and the
// stream is one micro-batch of it. pipelineStages turns that into the two
// stages that matter, read off late51's two-stage runs of the small Llama
// and TinyLlama under torch.distributed.pipelining (1F1B and GPipe, 4 and
// 8 micro-batches, with and without checkpointing):
//
//   - the first stage holds its layers and the embedding, and at its
//     activation peak min(pp, m) micro-batches' layer activations under
//     1F1B (m under GPipe); in 1F1B's steady state (m > pp) it runs that
//     forward after its first backward, so the gradients it accumulates over
//     the micro-batches are live beside them (TinyLlama's stage 0: 13.84 GiB
//     with its 2.1 GiB of float32 gradients);
//   - the last stage holds its layers, the final norm and the head, one
//     micro-batch in flight under 1F1B with its logits and loss, the
//     gradients when m > 1, and every earlier micro-batch's logits, which
//     the schedule keeps to merge the stage's outputs for step() to return
//     (the small Llama's stage 1 peaks 1.05 GiB higher with 8 micro-batches
//     than with 4: four 250 MiB bf16 logits); under GPipe all m
//     micro-batches' activations, logits and loss included;
//   - either stage's optimizer step is the stream's without the other end's
//     parameters, gradients and state.
//
// The figure is the larger stage's: a run fits when its fullest stage
// does. Middle stages (pp > 2) hold less than the first.
func (c *config) pipelineStages(g *Graph, cfg stepConfig, st *Stream, allocated, reserved int64, round allocsim.Config, cats *[numCategories]int64) (int64, int64) {
	p := c.spec.Parallel
	m, pp := int64(p.MicroBatches), int64(p.PP)
	act, liveAt := st.activationPeak(round)
	var embed, head, lossRow ModuleRow
	var grads int64
	for _, r := range c.byModule(g, cfg) {
		switch r.Module {
		case "embed_tokens":
			embed = r
		case "lm_head":
			head = r
		case "loss":
			lossRow = r
		}
		grads += r.GradientBytes
	}
	if c.arch.Tied {
		// a tied head's weight is the embedding's: both ends hold it
		embed, head = ModuleRow{}, ModuleRow{Module: head.Module, ActivationByte: head.ActivationByte}
	}
	logits := g.headOutputBytes()
	headAct := min(head.ActivationByte+lossRow.ActivationByte+logits, act)
	// autocast's copies of the weights are made once per step (its cache
	// lives as long as the autocast context around the schedule's step):
	// micro-batches in flight share them
	layerAct := max(act-headAct-g.weightCastBytes(), 0)
	var first, last int64
	if p.Schedule == "gpipe" {
		first = liveAt - head.ParamBytes - head.OptimizerBytes - headAct + (m-1)*layerAct
		last = liveAt - embed.ParamBytes - embed.OptimizerBytes + (m-1)*(layerAct+headAct)
	} else {
		first = liveAt - head.ParamBytes - head.OptimizerBytes - headAct + (min(pp, m)-1)*layerAct
		if m > pp {
			first += grads - head.GradientBytes
		}
		// the last stage peaks at the end of its forward or, as the
		// stream does, in the loss's backward; the gradients of the
		// micro-batches before are live at either
		last = liveAt - embed.ParamBytes - embed.OptimizerBytes
		if m > 1 {
			last += grads - embed.GradientBytes
		}
		atPeak := allocated - embed.ParamBytes - embed.OptimizerBytes
		if m > 1 {
			atPeak += max(grads-embed.GradientBytes-cats[CatGradients], 0)
		}
		last = max(last, atPeak) + (m-1)*logits
	}
	step := allocated - min(embed.ParamBytes+embed.GradientBytes+embed.OptimizerBytes,
		head.ParamBytes+head.GradientBytes+head.OptimizerBytes)
	c.ppStages = [2]int64{max(first, step), max(last, step)}
	peak := max(first, last, step)
	reserved = max(reserved+peak-allocated, peak)
	if peak > step {
		cats[CatActivations] = peak - liveAt + act
	}
	return peak, reserved
}

// headOutputBytes is the bytes of the lm_head's output (the logits a
// pipeline's last stage returns per micro-batch), 0 for a graph without one.
func (g *Graph) headOutputBytes() int64 {
	for i := len(g.ops) - 1; i >= 0; i-- {
		if o := &g.ops[i]; o.module == "lm_head" && len(o.out) > 0 {
			return g.tensors[o.out[0]].bytes()
		}
	}
	return 0
}

// weightCastBytes is the bytes of autocast's lower-precision copies of the
// parameters that the layers make (the ones its cache keeps for the step).
func (g *Graph) weightCastBytes() int64 {
	var n int64
	for i := range g.ops {
		o := &g.ops[i]
		if o.kind != "to" || len(o.in) == 0 || o.block < 0 {
			continue
		}
		if x := g.tensors[o.in[0]]; x.param >= 0 {
			n += g.tensors[o.out[0]].bytes()
		}
	}
	return n
}

package memmodel

import (
	"math"
	"testing"
)

// TestStepTimeEngineNodes: the backward pays HostCosts.Node once for each
// autograd node the graph does not record: every trainable parameter's
// AccumulateGrad, every trainable Linear weight's transpose, and the two
// views of every Linear over [batch, seq, features]. Llama-small (24
// layers of seven Linears and two RMSNorms, the embedding, the final norm
// and an untied lm_head) has 219 parameter tensors and 169 Linears, all
// over sequences: 219 + 3·169 = 726 nodes. Under LoRA (r=16 on q and v)
// only the 96 adapter matrices train: their AccumulateGrad and
// transposes, and the views of every Linear whose backward runs. None of
// them launches a kernel.
func TestStepTimeEngineNodes(t *testing.T) {
	const extra = 1e-6
	s := llamaSpec()
	s.Batch, s.Seq = 1, 16
	c, g, cfg, tm, base := walkOf(t, s)
	tm.Node += extra
	more, _ := c.walk(g, cfg, tm)
	if got, want := (more.hostBusy-base.hostBusy)/extra, 219.0+3*169; math.Abs(got-want) > 1e-6 {
		t.Errorf("full training: %.1f kernel-less nodes charged, want %g", got, want)
	}
	if more.busy != base.busy || more.kernels != base.kernels {
		t.Errorf("kernel-less nodes changed the GPU's work")
	}

	s.LoRA = &LoRA{Rank: 16, Targets: []string{"q_proj", "v_proj"}}
	c, g, cfg, tm, base = walkOf(t, s)
	var trainable, adapters, viewed float64
	for _, pi := range g.params {
		if pi.trainable {
			trainable++
		}
	}
	for i := range g.ops {
		o := &g.ops[i]
		if o.kind != "linear" || !c.needsGrad(o, g) {
			continue
		}
		viewed++
		if o.gemm.wgrad {
			adapters++
		}
	}
	if trainable != 96 || adapters != 96 {
		t.Fatalf("LoRA: %g trainable tensors, %g trainable Linears; want 96 adapter matrices", trainable, adapters)
	}
	tm.Node += extra
	more, _ = c.walk(g, cfg, tm)
	if got, want := (more.hostBusy-base.hostBusy)/extra, trainable+adapters+2*viewed; math.Abs(got-want) > 1e-6 {
		t.Errorf("LoRA: %.1f kernel-less nodes charged, want %g (%g Linears in backward)", got, want, viewed)
	}
}

package memmodel

import (
	"math"
	"testing"
)

// layerNormForward sums the GPU time the step-time walk gives the
// LayerNorm forward kernels of spec s, a checkpointed block's counted
// again for its recomputation, and how many kernels that is.
func layerNormForward(t *testing.T, s Spec) (sec float64, kernels int) {
	t.Helper()
	_, g, cfg, tm, _ := walkOf(t, s)
	gen := newGenerator(g, cfg)
	for i := range g.ops {
		o := &g.ops[i]
		if o.kind != "layer_norm" {
			continue
		}
		n := 1
		if gen.inReg[i] >= 0 {
			n = 2
		}
		sec += float64(n) * tm.forward(o, g)
		kernels += n
	}
	return sec, kernels
}

// TestLayerNormNarrowRows: torch.profiler traces of the H200 step
// (vectorized_layer_norm_kernel, summed per step). ConvNeXt-S b96 bf16
// with its blocks checkpointed (testdata/dev7/profiles): 77 forward
// LayerNorms, recomputation included, 6.959 ms — it fitted nothing, and
// its bytes at the calibrated rate give 2.3 ms. ConvNeXt-S b48 bf16
// (testdata/profile), whose rows gave layerNormRowS: 41 norms, 2.049 ms.
// ViT-B/16 b128 bf16: 25 norms over 768-wide rows, 1.812 ms, bandwidth-
// bound (the row floor does not move it: 1.550 ms by bytes, as before).
func TestLayerNormNarrowRows(t *testing.T) {
	m := "convnext_small"
	vit := "vit_b_16"
	for _, c := range []struct {
		name    string
		model   *string
		batch   int
		ckpt    string
		kernels int
		ms, tol float64
	}{
		{"ConvNeXt-S b96 ckpt", &m, 96, "block", 77, 6.959, 0.03},
		{"ConvNeXt-S b48", &m, 48, "none", 41, 2.049, 0.03},
		{"ViT-B/16 b128", &vit, 128, "none", 25, 1.812, 0.2},
	} {
		s := DefaultSpec()
		s.Model, s.Batch, s.Image, s.Precision, s.Checkpoint = c.model, c.batch, 224, "bf16-amp", c.ckpt
		sec, n := layerNormForward(t, s)
		if n != c.kernels {
			t.Errorf("%s: %d forward LayerNorm kernels, the profile counts %d", c.name, n, c.kernels)
		}
		if got := 1e3 * sec; math.Abs(got/c.ms-1) > c.tol {
			t.Errorf("%s: forward LayerNorms %.3f ms, profiled %.3f ms (±%.0f%%)", c.name, got, c.ms, 100*c.tol)
		}
	}
}

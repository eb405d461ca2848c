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

// layerNormBackward sums the GPU time the walk gives the LayerNorm
// backward kernels of spec s: the input gradients and the weight/bias
// gradients apart, once per norm (a recomputation adds forwards only).
func layerNormBackward(t *testing.T, s Spec) (gradInput, gammaBeta float64) {
	t.Helper()
	_, g, _, tm, _ := walkOf(t, s)
	for i := range g.ops {
		o := &g.ops[i]
		if o.kind != "layer_norm" {
			continue
		}
		gi, ok := tm.r.layerNormGradInput(o, g, inDtype(o, g))
		if !ok {
			t.Fatalf("layer_norm op %d: no input-gradient time", i)
		}
		gradInput += gi
		if gb, _, ok := tm.r.gammaBeta(o, g, inDtype(o, g)); ok {
			gammaBeta += gb
		}
	}
	return gradInput, gammaBeta
}

// TestLayerNormBackwardByShape: the same torch.profiler traces, backward.
// GammaBetaBackwardCUDAKernelTemplate (all its variants) and
// layer_norm_grad_input_kernel_vectorized, summed per step. gammaBetaRowS
// was fitted on the single-pass kernels of all three profiles pooled and
// layerNormGradRowS on ConvNeXt-S b48 alone; the b96 rows test those
// laws on other shapes (twice the rows; two-pass kernels on its
// 75,264-row stage-2 norms where b48's 37,632 ran single-pass). ViT-B/16's
// input gradients are bytes only (768-wide rows), which fitted nothing.
// Priced by bytes alone, as before, the weight gradients were 0.4 ms
// for ConvNeXt-S b48 and its input gradients 0.6.
func TestLayerNormBackwardByShape(t *testing.T) {
	m, vit := "convnext_small", "vit_b_16"
	for _, c := range []struct {
		name       string
		model      *string
		batch      int
		ckpt       string
		gi, gb     float64 // profiled ms
		tolGI, tol float64
	}{
		{"ConvNeXt-S b96 ckpt", &m, 96, "block", 2.303, 2.483, 0.05, 0.1},
		{"ConvNeXt-S b48", &m, 48, "none", 1.149, 1.737, 0.05, 0.1},
		{"ViT-B/16 b128", &vit, 128, "none", 1.474, 2.327, 0.1, 0.05},
	} {
		s := DefaultSpec()
		s.Model, s.Batch, s.Image, s.Precision, s.Checkpoint = c.model, c.batch, 224, "bf16-amp", c.ckpt
		gi, gb := layerNormBackward(t, s)
		if got := 1e3 * gi; math.Abs(got/c.gi-1) > c.tolGI {
			t.Errorf("%s: LayerNorm input gradients %.3f ms, profiled %.3f ms (±%.0f%%)", c.name, got, c.gi, 100*c.tolGI)
		}
		if got := 1e3 * gb; math.Abs(got/c.gb-1) > c.tol {
			t.Errorf("%s: LayerNorm weight gradients %.3f ms, profiled %.3f ms (±%.0f%%)", c.name, got, c.gb, 100*c.tol)
		}
	}
}

// TestViTLayerNormContiguousCopies: torchvision's ViT runs the residual
// stream seq-first after the first attention, and each LayerNorm on it
// copies its input contiguous in forward and in backward (resv9b's
// memory traces). The ViT-B/16 b128 bf16 profile counts 62 strided
// float32 copies per step, 3.65 ms; the walk issues 48 of them (the 24
// norms but block 0's ln_1, twice each) at the contiguous copy rate,
// 37 µs each where the profile's average 59 µs: the step's copy class
// stays short (7.9 against 12.1 ms).
func TestViTLayerNormContiguousCopies(t *testing.T) {
	vit := "vit_b_16"
	s := DefaultSpec()
	s.Model, s.Batch, s.Image, s.Precision = &vit, 128, 224, "bf16-amp"
	_, g, _, tm, _ := walkOf(t, s)
	var n int
	var sec float64
	for i := range g.ops {
		o := &g.ops[i]
		var p pipeline
		tm.issueContigIn(o, g, &p)
		if p.kernels[kCopy] > 0 {
			if o.kind != "layer_norm" {
				t.Errorf("op %d (%s) copies its input; only seq-first LayerNorms do", i, o.kind)
			}
			n++
			sec += 2 * p.busy // forward and backward
		}
	}
	if n != 24 {
		t.Errorf("%d LayerNorms copy their input, want 24 (25 norms but block 0's ln_1)", n)
	}
	if ms := 1e3 * sec; ms < 0.4*3.65 || ms > 3.65 {
		t.Errorf("LayerNorm input copies %.2f ms per step, profiled strided float32 copies 3.65 ms", ms)
	}
}

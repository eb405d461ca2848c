package memmodel

import "testing"

// viewNodes runs every backward op's inputs of spec's graph through
// viewBackward, as walkBackward does, and returns the fills and cats it
// issued and the kernels they launched.
func viewNodes(t *testing.T, s Spec) (fills, cats int, kernels float64) {
	t.Helper()
	c, g, cfg, tm, _ := walkOf(t, s)
	gen := newGenerator(g, cfg)
	v := newViewBackward(g, gen)
	var p pipeline
	for i := len(g.ops) - 1; i >= 0; i-- {
		o := &g.ops[i]
		if o.noBackward || o.fused || !c.needsGrad(o, g) {
			continue
		}
		v.issueOp(o, tm, &p)
		for _, in := range o.in {
			v.issue(in, tm, &p)
		}
	}
	for _, k := range p.kernels {
		kernels += k
	}
	return v.fills, v.cats, kernels
}

// TestViewBackwardLlamaFills: Llama-small's rotate_half slices q and k in
// two halves each, four SliceBackward nodes per layer; the torch.profiler
// trace of its b8 s1024 bf16 step (testdata/profile/prof-llama-small-
// s1024-b8-bf16-kernels.json) counts 96 bf16 FillFunctor kernels. The
// LoRA r16 step at s2048 b2 (...-lora16-kernels.json) counts 94: with the
// base weights and the embedding frozen, layer 0's k_proj (no adapter)
// output needs no gradient, so its two slices run no backward. Each fill
// comes with a copy, and each base's second slice with an add.
func TestViewBackwardLlamaFills(t *testing.T) {
	for _, lora := range []bool{false, true} {
		s := llamaSpec()
		s.Batch = 8
		if lora {
			s.Batch, s.Seq = 2, 2048
			s.LoRA = &LoRA{Rank: 16}
		}
		want := 96
		if lora {
			want = 94
		}
		fills, cats, kernels := viewNodes(t, s)
		if fills != want || cats != 0 {
			t.Errorf("lora %v: %d slice fills, %d split cats; the profile shows %d bf16 fills, no split", lora, fills, cats, want)
		}
		if kernels != float64(2*want+want/2) {
			t.Errorf("lora %v: %.0f kernels, want %d fills, as many copies and half as many adds", lora, kernels, want)
		}
	}
}

// TestViewBackwardPhi3Fills: Phi-3 slices its fused qkv projection three
// times, and apply_rotary_pos_emb slices q and k once more (q_rot) before
// rotate_half halves them: nine SliceBackward fills per layer, as the
// dev7 torch.profiler trace of a ten-layer Phi-3 bf16 step counts 90
// bf16 FillFunctor kernels (testdata/dev7/profiles/dev7-prof-phi3-f-
// s1024-b4-bf16-kernels.json); gate_up_proj's chunk is one SplitBackward
// cat per layer.
func TestViewBackwardPhi3Fills(t *testing.T) {
	s := DefaultSpec()
	m := "phi-3-mini"
	s.Model, s.Batch, s.Seq, s.Precision = &m, 1, 256, "bf16-amp"
	_, g, _, _, _ := walkOf(t, s)
	layers := g.blocks
	fills, cats, _ := viewNodes(t, s)
	if layers == 0 || fills != 9*layers || cats != layers {
		t.Errorf("%d layers: %d fills, %d cats; the profile shows 9 fills and one split per layer", layers, fills, cats)
	}
}

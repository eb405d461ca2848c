package memmodel

import (
	"math"
	"testing"
)

// TestStepDetailClasses: the walk's kernels by class add up to its GPU
// time, and a bf16 ViT-B/16 step puts its casts and .contiguous() copies
// in the copy class (as a profile's copy kernels are sorted), its linears
// in gemm and its fused attention in attention.
func TestStepDetailClasses(t *testing.T) {
	s := DefaultSpec()
	m := "vit-b16"
	s.Model, s.Batch, s.Precision = &m, 64, "bf16-amp"
	_, _, _, _, p := walkOf(t, s)
	d := p.detail()
	var sum float64
	for _, c := range d.Classes {
		sum += c.GPUS
	}
	if math.Abs(sum-d.GPUS) > 1e-9*d.GPUS {
		t.Errorf("classes sum to %g s, GPU busy %g s", sum, d.GPUS)
	}
	for _, k := range []string{"gemm", "attention", "copy", "norm", "conv", "optimizer"} {
		if d.Classes[k].Kernels == 0 || d.Classes[k].GPUS <= 0 {
			t.Errorf("class %s: %+v, want kernels and time", k, d.Classes[k])
		}
	}
	// twelve blocks of three copies (cast input, qkv, attention output),
	// forward and backward, plus the casts
	if n := d.Classes["copy"].Kernels; n < 72 {
		t.Errorf("copy kernels %g, want at least 72", n)
	}
	for _, c := range []struct {
		kind string
		want kernelClass
	}{{"to", kCopy}, {"copy", kCopy}, {"cat", kCopy}, {"layer_norm", kNorm}, {"batch_norm", kNorm}, {"gelu", kPointwise},
		{"conv1d", kConv}} {
		if got := classOf(&op{kind: c.kind, matmul: c.kind == "conv1d"}); got != c.want {
			t.Errorf("classOf(%s) = %s, want %s", c.kind, kernelClassNames[got], kernelClassNames[c.want])
		}
	}
}

// TestStepDetailWhisperConv: Whisper's two encoder convolutions land in
// the conv class, as the profiles sort cuDNN's kernels, not in gemm.
func TestStepDetailWhisperConv(t *testing.T) {
	s := DefaultSpec()
	m := "whisper-base"
	s.Model, s.Batch, s.Precision = &m, 8, "bf16-amp"
	_, _, _, _, p := walkOf(t, s)
	d := p.detail()
	// two convolutions: forward, and data and weight gradients (the
	// first's input, the features, needs none)
	if c := d.Classes["conv"]; c.Kernels < 4 || c.GPUS <= 0 {
		t.Errorf("conv class %+v, want Whisper's convolutions", c)
	}
}

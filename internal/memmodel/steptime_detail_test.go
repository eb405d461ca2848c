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

// TestStepPhases: the walk's host clock split into forward, backward and
// optimizer (what gt_work.py's phase_s times) equals the host's issue
// time where the host never waits (ResNet-50 at one sample, host-bound,
// 1,100 kernels), and adds the waits on a full launch queue where it does
// (LLaMA-small s1024 b8 in float32, GPU time seven times the host's,
// 2,800 kernels), never more than the step.
func TestStepPhases(t *testing.T) {
	for _, x := range []struct {
		m, prec string
		b, seq  int
		waits   bool
	}{{"resnet50", "bf16-amp", 1, 0, false}, {"llama-small", "fp32", 8, 1024, true}} {
		s := DefaultSpec()
		m := x.m
		s.Model, s.Batch, s.Precision = &m, x.b, x.prec
		if x.seq > 0 {
			s.Seq = x.seq
		}
		o := DefaultOptions()
		o.SkipReserved = true
		r, err := Estimate(s, o)
		if err != nil {
			t.Fatal(err)
		}
		p, d := r.StepDetail.PhaseS, r.StepDetail
		sum := p[0] + p[1] + p[2]
		t.Logf("%s b%d: forward %.2f ms, backward %.2f ms, optimizer %.2f ms; host issue %.2f ms, step %.2f ms", x.m, x.b, 1e3*p[0], 1e3*p[1], 1e3*p[2], 1e3*d.HostS, 1e3*r.StepTime)
		if p[0] <= 0 || p[1] <= 0 || p[2] <= 0 {
			t.Errorf("%s: a phase without host time: %v", x.m, p)
		}
		if sum > r.StepTime*(1+1e-9) {
			t.Errorf("%s: phases sum to %.3f ms, more than the step %.3f", x.m, 1e3*sum, 1e3*r.StepTime)
		}
		if waited := sum > d.HostS*(1+1e-6); waited != x.waits || sum < d.HostS*(1-1e-9) {
			t.Errorf("%s: phases %.3f ms, issue time %.3f ms: want waits %v", x.m, 1e3*sum, 1e3*d.HostS, x.waits)
		}
	}
}

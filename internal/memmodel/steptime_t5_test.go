package memmodel

import "testing"

// TestStepTimeT5FloatBMM: the float32 bmm kernels of T5-large s256 b16
// bf16's self-attention (the math path, 256 × [256 × 64 · 64 ×
// 256] and the like) cost the dev6 profile's 65.5 µs apiece within 10%,
// forward and backward; without their traffic (bmmTraffic) they were
// priced at 43 µs. A Linear (batch 1) takes none.
func TestStepTimeT5FloatBMM(t *testing.T) {
	s := DefaultSpec()
	m := "t5-large"
	s.Model, s.Batch, s.Seq, s.Precision = &m, 16, 256, "bf16-amp"
	_, g, _, tm, _ := walkOf(t, s)
	n := 0
	for i := range g.ops {
		o := &g.ops[i]
		if o.gemm == nil {
			continue
		}
		if o.gemm.batch == 1 {
			if tr := tm.r.bmmTraffic(o.gemm, inDtype(o, g)); tr != 0 {
				t.Errorf("linear op %d: traffic %g s, want none", i, tr)
			}
			continue
		}
		n++
		f := tm.forward(o, g)
		b, k := tm.backward(o, g)
		for _, v := range []float64{f, b / k} {
			if v < 0.9*65.5e-6 || v > 1.1*65.5e-6 {
				t.Errorf("bmm op %d: %.1f µs a kernel, profile 65.5", i, v*1e6)
			}
		}
	}
	// two per self-attention: T5's learned position bias needs a
	// gradient, so SDPA takes the math path in encoder and decoder
	if n != 96 {
		t.Errorf("%d float32 bmm ops, want 96 (two per self-attention)", n)
	}
}

// TestStepTimeT5CastRoundTrip: under autocast over float32 weights, T5's
// feed-forward casts its hidden state to wo's float32 and autocast casts
// it back: two cast kernels each way per block (24 encoder and 24
// decoder blocks of T5-large); in pure bf16 and in float32 the dtypes
// already match and there are none.
func TestStepTimeT5CastRoundTrip(t *testing.T) {
	count := func(prec string) (fwd, bwd int) {
		s := DefaultSpec()
		m := "t5-large"
		s.Model, s.Batch, s.Seq, s.Precision = &m, 16, 256, prec
		_, g, _, _, _ := walkOf(t, s)
		for i := range g.ops {
			for _, e := range g.ops[i].extra {
				if e.cast && e.bwd {
					bwd++
				} else if e.cast {
					fwd++
				}
			}
		}
		return fwd, bwd
	}
	if f, b := count("bf16-amp"); f != 96 || b != 96 {
		t.Errorf("bf16-amp: %d forward and %d backward casts, want 96 each", f, b)
	}
	for _, p := range []string{"bf16", "fp32"} {
		if f, b := count(p); f+b != 0 {
			t.Errorf("%s: %d forward and %d backward casts, want none", p, f, b)
		}
	}
}

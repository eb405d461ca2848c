package memmodel

import (
	"math"
	"testing"

	"github.com/vramkit/vramkit/internal/gpu"
)

// TestGEMMTrafficFloor: a Linear with one short dimension is priced no
// faster than its operands and result move at the copy bandwidth. dev33's
// profiled compiled ConvNeXt-T b128 ran the first stage's three products
// (401,408 tokens, 96 by 384 features) in 0.092-0.137 ms each; the
// interpolated GEMM rate alone priced them at 0.041. A compute-bound
// product of the same profile (BERT-base's 16,384 by 768 by 3,072,
// 0.098-0.113 ms) keeps its GEMM-rate price.
func TestGEMMTrafficFloor(t *testing.T) {
	r := h200Rates(t)
	for _, s := range [][3]int64{{401408, 384, 96}, {401408, 96, 384}, {96, 384, 401408}} {
		got := r.linearGEMM("bf16", 1, s[0], s[1], s[2], false)
		if got < 0.085e-3 || got > 0.14e-3 {
			t.Errorf("m,n,k %v: %.3f ms, want within dev33's 0.092-0.137 (less 8%%)", s, got*1e3)
		}
		if rate := r.gemm("bf16", 1, s[0], s[1], s[2]); rate >= got {
			t.Errorf("m,n,k %v: GEMM rate %.3f ms not below the traffic floor %.3f", s, rate*1e3, got*1e3)
		}
	}
	if a, b := r.linearGEMM("bf16", 1, 16384, 3072, 768, false), r.gemm("bf16", 1, 16384, 3072, 768); a != b {
		t.Errorf("compute-bound 16384x3072x768: %.4f ms, the GEMM rate says %.4f", a*1e3, b*1e3)
	}
}

// TestSDPAMaskedFromKernels: cuDNN attention with a materialised mask (a
// compiled decoder's causal mask) is priced from the kernel-timed masked
// rows (testdata/dev33) at their own rates: at a timed shape it is the
// row's time, and it runs well above the same call without the mask
// (Qwen2.5-0.5B's compiled shape, 8x14 heads, 1,024 tokens, head dim 64,
// was timed at 1.75x forward and 1.50x backward; a 4,096-token head-dim-128
// call at 1.90x and 1.97x).
func TestSDPAMaskedFromKernels(t *testing.T) {
	r := h200Rates(t)
	for _, c := range []struct{ b, h, s, d int64 }{{8, 14, 1024, 64}, {2, 16, 4096, 128}} {
		a := &attnCost{attnShape: attnShape{batch: c.b, heads: c.h, sq: c.s, sk: c.s, hd: c.d}, backend: "cudnn", masked: true}
		var row gpu.SDPARate
		for _, s := range r.cal.SDPA {
			if s.Kernels && s.Mask == "additive" && s.BHSD == [4]int64{c.b, c.h, c.s, c.d} {
				row = s
			}
		}
		if row.FwdS == 0 {
			t.Fatalf("%dx%d s%d d%d: no kernel-timed masked row", c.b, c.h, c.s, c.d)
		}
		mf, mb := r.sdpa(a, BF16)
		if math.Abs(mf/row.FwdS-1) > 0.01 || math.Abs(mb/(row.FwdBwdS-row.FwdS)-1) > 0.01 {
			t.Errorf("%dx%d s%d d%d: masked %.3f/%.3f ms, its kernel row %.3f/%.3f", c.b, c.h, c.s, c.d, mf*1e3, mb*1e3,
				row.FwdS*1e3, (row.FwdBwdS-row.FwdS)*1e3)
		}
		plain := *a
		plain.masked = false
		pf, pb := r.sdpa(&plain, BF16)
		if mf < 1.4*pf || mb < 1.3*pb {
			t.Errorf("%dx%d s%d d%d: masked %.3f/%.3f ms against unmasked %.3f/%.3f", c.b, c.h, c.s, c.d, mf*1e3, mb*1e3, pf*1e3, pb*1e3)
		}
	}
}

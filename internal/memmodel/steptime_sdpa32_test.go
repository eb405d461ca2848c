package memmodel

import (
	"math"
	"strings"
	"testing"
)

// TestSDPAFloat32AgainstWhisperProfile: a float32 Whisper step runs every
// attention call through the memory-efficient kernel, whose float32 build
// is 3xTF32 (fastF32MMAs). The H200 profile of Whisper (f) b32 fp32
// (testdata/dev12, seen after late13's evaluation) times its twelve calls
// per step (4 encoder self-attentions over 1,500 frames, 4 causal decoder
// self-attentions and 4 cross-attentions over 64 tokens, 6 heads of 64) at
// 13.98 ms of fmha_cutlassF_f32 and 36.54 ms of fmha_cutlassB_f32. The
// model is within 25% of each and 10% of their sum; the previous pricing
// (the calibrated TF32/bf16 ratio of a batched GEMM) gave 19.6 ms for
// both, 4.2 and 14.1 ms of it the encoder's.
func TestSDPAFloat32AgainstWhisperProfile(t *testing.T) {
	var pf, pb float64
	for _, k := range profileKernels(t, "dev12/profile/prof-whisper-f-b32-fp32") {
		switch {
		case strings.HasPrefix(k.Name, "fmha_cutlassF_f32"):
			pf += k.S
		case strings.HasPrefix(k.Name, "fmha_cutlassB_f32"):
			pb += k.S
		}
	}
	if pf == 0 || pb == 0 {
		t.Fatal("no float32 memory-efficient kernels in the profile")
	}
	r := h200Rates(t)
	var mf, mb float64
	for _, s := range []attnShape{
		{batch: 32, heads: 6, sq: 1500, sk: 1500, hd: 64},
		{batch: 32, heads: 6, sq: 64, sk: 64, hd: 64, causal: true},
		{batch: 32, heads: 6, sq: 64, sk: 1500, hd: 64},
	} {
		f, b := r.sdpa(&attnCost{attnShape: s, backend: "efficient"}, F32)
		mf, mb = mf+4*f, mb+4*b
	}
	t.Logf("forward %.2f ms (profiled %.2f), backward %.2f ms (profiled %.2f)", 1e3*mf, 1e3*pf, 1e3*mb, 1e3*pb)
	if math.Abs(mf/pf-1) > 0.25 || math.Abs(mb/pb-1) > 0.25 || math.Abs((mf+mb)/(pf+pb)-1) > 0.10 {
		t.Errorf("modelled %.2f + %.2f ms, profiled %.2f + %.2f ms", 1e3*mf, 1e3*mb, 1e3*pf, 1e3*pb)
	}
}

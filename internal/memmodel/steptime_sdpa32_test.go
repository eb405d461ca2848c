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

// TestSDPAFloat32AgainstUNetProfile: SD 1.5's UNet runs its float32
// attention through the memory-efficient kernel at head dims 40, 80 and
// 160, which pick the kernel builds of kMaxK 64, 128 and the unbounded
// one (the profile's names: …_k64, …_k128, …_k65536). The H200 profile
// of its b4 fp32 step (testdata/dev15, seen after late14's evaluation)
// times 84.8 ms of them a step, 74.1 ms of it the ten k64 calls (five
// transformer blocks at 64×64 latents, a self-attention over 4,096 tokens
// and a cross-attention over 77 text tokens each, 8 heads). Priced on the
// exact FLOPs at the rates of the nearest calibrated shapes, those were
// 46.8 ms in all: 40-wide heads run 64-wide tiles. The model is within
// 10% of the k64 calls and of the step's attention.
func TestSDPAFloat32AgainstUNetProfile(t *testing.T) {
	var p64, pAll float64
	for _, k := range profileKernels(t, "dev15/profile/prof-sd15-unet-b4-fp32") {
		if strings.HasPrefix(k.Name, "fmha_cutlass") && strings.Contains(k.Name, "_f32_") {
			pAll += k.S
			if strings.Contains(k.Name, "_k64_") || strings.Contains(k.Name, "64x64_rf") {
				p64 += k.S
			}
		}
	}
	if p64 == 0 {
		t.Fatal("no float32 k64 memory-efficient kernels in the profile")
	}
	r := h200Rates(t)
	var m64, mAll float64
	for _, l := range []struct {
		tokens, hd int64
		blocks     float64
	}{{4096, 40, 5}, {1024, 80, 5}, {256, 160, 6}} {
		for _, sk := range []int64{l.tokens, 77} {
			f, b := r.sdpa(&attnCost{attnShape: attnShape{batch: 4, heads: 8, sq: l.tokens, sk: sk, hd: l.hd}, backend: "efficient"}, F32)
			mAll += l.blocks * (f + b)
			if l.hd == 40 {
				m64 += l.blocks * (f + b)
			}
		}
	}
	t.Logf("k64 calls %.2f ms (profiled %.2f), all %.2f ms (profiled %.2f)", 1e3*m64, 1e3*p64, 1e3*mAll, 1e3*pAll)
	if math.Abs(m64/p64-1) > 0.10 || math.Abs(mAll/pAll-1) > 0.10 {
		t.Errorf("modelled %.2f ms of k64 calls and %.2f in all, profiled %.2f and %.2f", 1e3*m64, 1e3*mAll, 1e3*p64, 1e3*pAll)
	}
}

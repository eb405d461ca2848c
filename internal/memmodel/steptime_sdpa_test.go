package memmodel

import (
	"math"
	"testing"
)

// TestSDPACuDNNAgainstProfiles: torch 2.11 runs half-precision attention
// through cuDNN on the H200, and the kernel profiles time it per call
// (fprop, bprop and the backward's compute_dot_do_o and convert_dq
// helpers, per step over the calls of the step): Llama-small s1024 b8
// 246.5 µs (testdata/profile), Llama-small LoRA s2048 b2 221.6 µs,
// ViT-B/16 b128 390.9 µs (197 tokens: cuDNN's tiles pad them to 256),
// DiT-XL/2 b32 197.1 µs (head dim 72, padded to 128; testdata/dev6). The
// cuDNN pricing is within 25% of each, and nearer than the flash rows that
// priced them before (+88%, +65%, -17%, +28%).
func TestSDPACuDNNAgainstProfiles(t *testing.T) {
	r := h200Rates(t)
	for _, c := range []struct {
		name       string
		b, h, s, d int64
		causal     bool
		profiled   float64 // µs per call, forward and backward kernels
	}{
		{"llama-small s1024 b8", 8, 16, 1024, 64, true, 246.5},
		{"llama-small s2048 b2", 2, 16, 2048, 64, true, 221.6},
		{"vit-b16 b128", 128, 12, 197, 64, false, 390.9},
		{"dit-xl-2 b32", 32, 16, 256, 72, false, 197.1},
	} {
		shape := attnShape{batch: c.b, heads: c.h, sq: c.s, sk: c.s, hd: c.d, causal: c.causal}
		f, b := r.sdpa(&attnCost{attnShape: shape, backend: sdpaBackend("sdpa", false)}, BF16)
		ff, fb := r.sdpa(&attnCost{attnShape: shape, backend: "flash"}, BF16)
		got, flash := 1e6*(f+b), 1e6*(ff+fb)
		t.Logf("%-22s cuDNN %6.1f µs, flash %6.1f µs, profiled %6.1f µs", c.name, got, flash, c.profiled)
		if math.Abs(got/c.profiled-1) > 0.25 {
			t.Errorf("%s: %.1f µs per call, profiled %.1f", c.name, got, c.profiled)
		}
		if math.Abs(math.Log(got/c.profiled)) >= math.Abs(math.Log(flash/c.profiled)) {
			t.Errorf("%s: cuDNN %.1f µs no nearer the profile's %.1f than flash's %.1f", c.name, got, c.profiled, flash)
		}
	}
}

// TestSDPABackendChoice: the default implementation prices cuDNN, a
// forced flash or memory-efficient one its own rows, and float32 or a
// mask the memory-efficient kernel.
func TestSDPABackendChoice(t *testing.T) {
	for _, c := range []struct {
		impl      string
		efficient bool
		want      string
	}{{"sdpa", false, "cudnn"}, {"flash", false, "flash"}, {"mem_efficient", true, "efficient"}, {"sdpa", true, "efficient"}} {
		if got := sdpaBackend(c.impl, c.efficient); got != c.want {
			t.Errorf("sdpaBackend(%q, %v) = %q, want %q", c.impl, c.efficient, got, c.want)
		}
	}
}

// TestSDPAWorkTiles: cuDNN's work is whole 64×128 tiles of a head dim
// rounded up to 64; aligned shapes count their exact FLOPs.
func TestSDPAWorkTiles(t *testing.T) {
	if got, want := sdpaWork("cudnn", 96, 1024, 1024, 64, false), attnFlops(96, 1024, 1024, 64, false); got != want {
		t.Errorf("aligned: %g, want %g", got, want)
	}
	if got, want := sdpaWork("cudnn", 512, 256, 256, 72, false), attnFlops(512, 256, 256, 128, false); got != want {
		t.Errorf("head dim 72: %g, want the 128-wide %g", got, want)
	}
	if got, want := sdpaWork("cudnn", 1536, 197, 197, 64, false), attnFlops(1536, 256, 256, 64, false); got != want {
		t.Errorf("197 tokens: %g, want 256's %g", got, want)
	}
	// causal: 16 query blocks of 64 against 8 key blocks of 128, the
	// blocks reaching the diagonal whole: 1+1+2+2+...+8+8 = 72 of 128
	if got, want := sdpaWork("cudnn", 1, 1024, 1024, 64, true), 4*float64(72*64*128*64); got != want {
		t.Errorf("causal: %g, want %g", got, want)
	}
	if got, want := sdpaWork("flash", 512, 256, 256, 72, false), attnFlops(512, 256, 256, 72, false); got != want {
		t.Errorf("flash: %g, want the exact %g", got, want)
	}
}

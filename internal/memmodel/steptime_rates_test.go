package memmodel

import (
	"math"
	"testing"

	"github.com/vramkit/vramkit/internal/gpu"
)

// tinyCalibration is a hand-made table with round numbers, so that the
// interpolation rules can be checked by hand.
func tinyCalibration() *gpu.Calibration {
	return &gpu.Calibration{GPU: "h200", LaunchS: 2e-6,
		GEMM: []gpu.GEMMRate{
			{Dtype: "bf16", MNK: [3]int64{1024, 1024, 1024}, Seconds: 2 * 1024 * 1024 * 1024 / 400e12}, // 400 TFLOP/s
			{Dtype: "bf16", MNK: [3]int64{8192, 8192, 8192}, Seconds: 2 * 8192 * 8192 * 8192 / 800e12}, // 800 TFLOP/s
		},
		Stream: []gpu.StreamRate{
			{Op: "add", Dtype: "bf16", Bytes: 1e6, Seconds: 4e-6},
			{Op: "add", Dtype: "bf16", Bytes: 1e9, Seconds: 1e9 / 3e12},
		},
		EnqueueS: 1e-6,
		Optim: []gpu.OptimizerRate{ // 0.5 ms + 2 ns per parameter + 10 µs per tensor
			{Optimizer: "adamw", Impl: "foreach", Params: 1e7, Tensors: 50, Seconds: 5e-4 + 1e7*2e-9 + 50*10e-6},
			{Optimizer: "adamw", Impl: "foreach", Params: 1e8, Tensors: 300, Seconds: 5e-4 + 1e8*2e-9 + 300*10e-6},
			{Optimizer: "adamw", Impl: "foreach", Params: 4e8, Tensors: 50, Seconds: 5e-4 + 4e8*2e-9 + 50*10e-6},
			{Optimizer: "adamw", Impl: "foreach", Params: 1e7, Tensors: 300, Seconds: 5e-4 + 1e7*2e-9 + 300*10e-6},
		},
	}
}

func near(a, b float64) bool { return math.Abs(a/b-1) < 1e-9 }

func TestRatesGEMM(t *testing.T) {
	h200, _ := gpu.Lookup("h200")
	r := ratesFrom(tinyCalibration(), nil, h200)
	if got := r.gemm("bf16", 1, 1024, 1024, 1024); !near(got, 2*1024*1024*1024/400e12) {
		t.Errorf("at a calibrated shape: %g s, want the measured time", got)
	}
	// between the two points the rate lies between 400 and 800 TFLOP/s
	f := 2.0 * 2048 * 2048 * 2048
	rate := f / r.gemm("bf16", 1, 2048, 2048, 2048)
	if rate <= 400e12 || rate >= 800e12 {
		t.Errorf("2048³: %.0f TFLOP/s, want between the neighbours", rate/1e12)
	}
	// a half-precision dimension off the 8-element grid costs the slow kernels
	if a, b := r.gemm("bf16", 1, 1024, 1023, 1024), r.gemm("bf16", 1, 1024, 1024, 1024); a < 1.9*b {
		t.Errorf("unaligned %g s not ~%g× aligned %g s", a, unalignedSlowdown, b)
	}
	// a batch of products counts as a taller matrix
	if a, b := r.gemm("bf16", 8, 1024, 1024, 1024), r.gemm("bf16", 1, 8192, 1024, 1024); !near(a, b) {
		t.Errorf("batched %g s != stacked %g s", a, b)
	}
}

// TestRatesStream: a memory-bound kernel costs the floor plus its bytes at
// the bandwidth of its class's largest calibrated size; sizes at which the
// calibration only timed Python issuing the op do not count.
func TestRatesStream(t *testing.T) {
	h200, _ := gpu.Lookup("h200")
	cal := tinyCalibration()
	r := ratesFrom(cal, nil, h200)
	if got := r.stream("add", BF16, 10); !near(got, gpuFloor+10/3e12) {
		t.Errorf("tiny: %g s, want the floor", got)
	}
	if got := r.stream("add", BF16, 2e9); !near(got, gpuFloor+2e9/3e12) {
		t.Errorf("large: %g s, want floor + bytes at 3 TB/s", got)
	}
	// a class without a curve moves bytes like a copy; none here either
	if got := r.stream("softmax", F32, 1e6); got != 0 {
		t.Errorf("uncalibrated class: %g", got)
	}
	// the largest point host-bound: the next one down sets the bandwidth
	cal.EnqueueS = 1
	cal.Stream = append(cal.Stream, gpu.StreamRate{Op: "add", Dtype: "bf16", Bytes: 1e8, Seconds: 2.5})
	r = ratesFrom(cal, nil, h200)
	if got := r.stream("add", BF16, 1e8); !near(got, gpuFloor+1e8/(1e8/2.5)) {
		t.Errorf("host-bound points not skipped: %g s", got)
	}
}

// TestRatesOptimizerFit: the calibrated steps split into the kernels'
// per-parameter time and the host's fixed and per-tensor time, the latter
// in units of the calibration's per-op issue time.
func TestRatesOptimizerFit(t *testing.T) {
	h200, _ := gpu.Lookup("h200")
	r := ratesFrom(tinyCalibration(), nil, h200)
	g, ops, ok := r.optimizer("adamw", "foreach", 2e8, 100)
	if !ok || !near(g, 2e8*2e-9) || !near(ops, (5e-4+100*10e-6)/1e-6) {
		t.Errorf("fit: GPU %g s, host %g ops (ok %v); want %g s and %g ops", g, ops, ok, 2e8*2e-9, (5e-4+100*10e-6)/1e-6)
	}
	if _, _, ok := r.optimizer("sgd_momentum", "foreach", 1e8, 10); ok {
		t.Error("an optimizer the table lacks was answered")
	}
}

// TestRatesScaled: a GPU without a table takes the reference's times
// scaled by the catalog's peak ratios, compute by FLOP/s and memory-bound
// by bandwidth.
func TestRatesScaled(t *testing.T) {
	h200, _ := gpu.Lookup("h200")
	a100, _ := gpu.Lookup("a100-80")
	ref := ratesFrom(tinyCalibration(), nil, h200)
	r := ratesFrom(tinyCalibration(), &h200, a100)
	if !r.scaled || ref.scaled {
		t.Fatal("scaled flag")
	}
	g0, g1 := ref.gemm("bf16", 1, 4096, 4096, 4096), r.gemm("bf16", 1, 4096, 4096, 4096)
	if !near(g1/g0, h200.BF16TFLOPs/a100.BF16TFLOPs) {
		t.Errorf("GEMM ratio %g, want %g", g1/g0, h200.BF16TFLOPs/a100.BF16TFLOPs)
	}
	s0, s1 := ref.stream("add", BF16, 1e8)-gpuFloor, r.stream("add", BF16, 1e8)-gpuFloor
	if !near(s1/s0, h200.BandwidthGBps/a100.BandwidthGBps) {
		t.Errorf("stream ratio %g, want %g", s1/s0, h200.BandwidthGBps/a100.BandwidthGBps)
	}
}

// TestRatesConvFromCalibration: on the embedded H200 table a convolution
// at a calibrated shape takes the measured forward time of its memory
// format (depthwise 7×7, 96 channels at 56², batch 64, bf16: 142.5 µs in
// channels_last, 667.8 µs in NCHW), and a dense one its implicit GEMMs
// times the measured slowdown, which at a calibrated shape is the measured
// time again.
func TestRatesConvFromCalibration(t *testing.T) {
	h200, _ := gpu.Lookup("h200")
	cal, err := gpu.Calibrated("h200")
	if err != nil || cal == nil || len(cal.Conv) == 0 {
		t.Fatalf("no convolutions in the H200 table (%v)", err)
	}
	r := ratesFrom(cal, nil, h200)
	dw := &convShape{n: 64, cin: 96, cout: 96, h: 56, ho: 56, k: 7, stride: 1, groups: 96, dgrad: true, wgrad: true}
	nchw, _ := r.conv(dw, BF16)
	dw.channelsLast = true
	cl, _ := r.conv(dw, BF16)
	if math.Abs(cl-142.5e-6) > 0.5e-6 || math.Abs(nchw-667.8e-6) > 0.5e-6 {
		t.Errorf("depthwise: channels_last %.1f µs, NCHW %.1f µs; want 142.5 and 667.8", 1e6*cl, 1e6*nchw)
	}
	dense := &convShape{n: 64, cin: 128, cout: 128, h: 28, ho: 28, k: 3, stride: 1, groups: 1, dgrad: true, wgrad: true}
	f, b := r.conv(dense, F32)
	if math.Abs(f-91.4e-6) > 0.5e-6 {
		t.Errorf("dense fp32 forward %.1f µs, want the measured 91.4", 1e6*f)
	}
	// the measured forward+backward less the forward, less the .grad
	// accumulation of the input (64·128·28²·4 bytes, ×3) the calibration added
	if timed := 348.1e-6 - 91.4e-6; b >= timed || b < timed-3*float64(64*128*28*28*4)/1e12 {
		t.Errorf("dense fp32 backward %.1f µs, want a little under the timed %.1f", 1e6*b, 1e6*timed)
	}
}

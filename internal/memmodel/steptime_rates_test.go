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

// h200TableRates is the H200 and the rates of its embedded calibration
// table, which the tests of measured shapes read.
func h200TableRates(t *testing.T) (gpu.GPU, *gpu.Calibration, *rates) {
	t.Helper()
	h200, _ := gpu.Lookup("h200")
	cal, err := gpu.Calibrated("h200")
	if err != nil || cal == nil {
		t.Fatalf("no H200 calibration table (%v)", err)
	}
	return h200, cal, ratesFrom(cal, nil, h200)
}

func TestRatesGEMM(t *testing.T) {
	h200, _ := gpu.Lookup("h200")
	r := ratesFrom(tinyCalibration(), nil, h200)
	// (at the burst clock: this table's 8192³ point, 800 TFLOP/s, is a
	// hair under the probes' 800.9)
	if got := r.gemm("bf16", 1, 1024, 1024, 1024); !near(got, 2*1024*1024*1024/400e12/(800.9/800)) {
		t.Errorf("at a calibrated shape: %g s, want the measured time at the burst clock", got)
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

// TestRatesBurstClock: the H200's half-precision GEMM table, timed in
// ≥100 ms bursts at lowered clocks, runs at the clock of the short probes
// of every timing process: its own 8192³ point, 668 TFLOP/s, reaches the
// probes' median 801 (the timing rows' host_probe figures range 775–813);
// float32 (no throttling: the probes' 4096³ float32 figure is the
// table's) and the odd-vocabulary align1 GEMMs keep their times.
func TestRatesBurstClock(t *testing.T) {
	_, cal, r := h200TableRates(t)
	if r.halfClock < 1.15 || r.halfClock > 1.25 {
		t.Errorf("half-precision clock factor %.3f, want 801/668 ≈ 1.20", r.halfClock)
	}
	n := int64(8192)
	if rate := 2 * float64(n*n*n) / r.gemm("bf16", 1, n, n, n); math.Abs(rate/burstProbe-1) > 1e-9 {
		t.Errorf("bf16 8192³ at %.1f TFLOP/s, want the probes' %.1f", rate/1e12, burstProbe/1e12)
	}
	for _, g := range cal.GEMM {
		m, nn, k := g.MNK[0], g.MNK[1], g.MNK[2]
		switch {
		case g.Dtype == "fp32" && !oddShape(g.MNK):
			if got := r.gemm("fp32", 1, m, nn, k); !near(got, g.Seconds) && !r.mmHostBound(g.Seconds) {
				t.Errorf("fp32 %v: %g s, want the calibrated %g", g.MNK, got, g.Seconds)
			}
		case g.Dtype == "bf16" && oddShape(g.MNK):
			if got := r.linearGEMM("bf16", 1, m, nn, k, true); !near(got, g.Seconds) {
				t.Errorf("odd bf16 %v: %g s, want the calibrated %g", g.MNK, got, g.Seconds)
			}
		}
	}
	// another GPU's own table is taken as measured
	other := *cal
	other.GPU = "a100-80gb"
	if c := burstClock(&other); c != 1 {
		t.Errorf("another GPU's table rescaled by %g", c)
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

// TestRatesStreamByDtype: bytes move at the rate their own dtype's curve
// reached (a bf16 GELU computes in float32 and moved 3.1 TB/s on the H200,
// float32's 4.2), the other dtype's where one was not timed.
func TestRatesStreamByDtype(t *testing.T) {
	h200, _ := gpu.Lookup("h200")
	cal := tinyCalibration()
	cal.Stream = append(cal.Stream,
		gpu.StreamRate{Op: "gelu", Dtype: "bf16", Bytes: 1e9, Seconds: 1e9 / 3e12},
		gpu.StreamRate{Op: "gelu", Dtype: "fp32", Bytes: 2e9, Seconds: 2e9 / 4e12})
	r := ratesFrom(cal, nil, h200)
	if got := r.stream("gelu", BF16, 1e9); !near(got, gpuFloor+1e9/3e12) {
		t.Errorf("bf16 gelu %g s, want its own 3 TB/s", got)
	}
	if got := r.stream("gelu", F32, 1e9); !near(got, gpuFloor+1e9/4e12) {
		t.Errorf("fp32 gelu %g s, want its own 4 TB/s", got)
	}
	if got := r.stream("add", F32, 1e9); !near(got, gpuFloor+1e9/3e12) {
		t.Errorf("fp32 add without an fp32 curve %g s, want bf16's 3 TB/s", got)
	}
}

// TestBatchNormCalibrated: where the table timed training BatchNorm in a
// dtype (gt_calib.py --norm), a BatchNorm of that dtype runs at the
// measured rate per byte of the nearest row (exactly, at a timed shape);
// a dtype the table lacks keeps the fitted slowdown over the
// normalisation class.
func TestBatchNormCalibrated(t *testing.T) {
	s := DefaultSpec()
	m := "resnet50"
	s.Model, s.Batch, s.Precision = &m, 256, "bf16-amp"
	_, g, _, tm, _ := walkOf(t, s)
	var bn *op
	for i := range g.ops {
		if o := &g.ops[i]; o.kind == "batch_norm" && g.tensors[o.in[1]].numel == 64 &&
			g.tensors[o.in[0]].numel == 256*64*56*56 {
			bn = o
			break
		}
	}
	if bn == nil {
		t.Fatal("no 64-channel BatchNorm at 56² in ResNet-50")
	}
	bytes := 2 * float64(g.tensors[bn.in[0]].bytes())
	cal := *tm.r.cal
	cal.Norm = []gpu.NormRate{
		{Op: "batch_norm", Dtype: "bf16", N: 256, C: 64, H: 56, Bytes: bytes, FwdS: 500e-6, FwdBwdS: 1700e-6},
		{Op: "batch_norm", Dtype: "bf16", N: 256, C: 512, H: 7, Bytes: bytes / 32, FwdS: 20e-6, FwdBwdS: 50e-6},
	}
	h200, _ := gpu.Lookup("h200")
	cm := timeModel{r: ratesFrom(&cal, nil, h200), HostCosts: tm.HostCosts}
	if f, b := cm.forward(bn, g), bwdTime(cm, bn, g); !near(f, gpuFloor+500e-6) || !near(b, gpuFloor+1200e-6) {
		t.Errorf("calibrated bf16 BatchNorm: forward %.1f µs, backward %.1f µs; want 502.5 and 1202.5", 1e6*f, 1e6*b)
	}
	// fp16 was not timed: the fitted cuDNN slowdown over the normalisation class
	s.Precision = "fp16-amp"
	_, g16, _, _, _ := walkOf(t, s)
	for i := range g16.ops {
		if o := &g16.ops[i]; o.kind == "batch_norm" {
			want := math.Max(cm.r.stream("layer_norm", F16, o.bytes)*bnCuDNNSlowdown, cm.r.launch())
			if got := cm.forward(o, g16); !near(got, want) {
				t.Errorf("fp16 BatchNorm without fp16 rows: %g s, want the fitted %g s", got, want)
			}
			break
		}
	}
}

// TestGroupNormIsANormalisation: diffusers' GroupNorm (the SD 1.5 UNet's,
// float32 under autocast) moves its bytes like the calibrated
// normalisation class, a row-wise reduction then an elementwise pass, not
// like an elementwise op of its three inputs (which the H200 table runs
// 1.7× faster per byte), plus the second read of its moments kernel.
func TestGroupNormIsANormalisation(t *testing.T) {
	s := DefaultSpec()
	m := "sd15-unet"
	s.Model, s.Batch, s.Precision = &m, 1, "bf16-amp"
	_, g, _, tm, _ := walkOf(t, s)
	n := 0
	for i := range g.ops {
		o := &g.ops[i]
		if o.kind != "group_norm" {
			continue
		}
		n++
		got, dt := tm.forward(o, g), inDtype(o, g)
		// and its moments kernel reads the input once more (a sum)
		in := float64(g.tensors[o.in[0]].bytes())
		want := math.Max(tm.r.stream("layer_norm", dt, o.bytes), tm.r.launch()) + math.Max(tm.r.stream("sum", dt, in), tm.r.launch())
		add := tm.r.stream("add", dt, o.bytes)
		if !near(got, want) || got <= add {
			t.Fatalf("group_norm op %d: %.2f µs, want the normalisation class's %.2f (an add: %.2f)", i, 1e6*got, 1e6*want, 1e6*add)
		}
	}
	if n == 0 {
		t.Fatal("no group_norm in the SD 1.5 UNet")
	}
}

// TestRatesOptimizerSlope: steps small enough for the host's Python to
// hide their kernels do not pull the per-parameter slope down; it comes
// from the two largest steps of each tensor count, and the host's terms
// from what is left.
func TestRatesOptimizerSlope(t *testing.T) {
	h200, _ := gpu.Lookup("h200")
	cal := tinyCalibration()
	// 10⁷ parameters: 1 ms of Python regardless of the kernels' 20 µs
	cal.Optim = []gpu.OptimizerRate{
		{Optimizer: "adamw", Impl: "foreach", Params: 1e7, Tensors: 50, Seconds: 1e-3},
		{Optimizer: "adamw", Impl: "foreach", Params: 1e8, Tensors: 50, Seconds: 1e-3 + 1e8*2e-9},
		{Optimizer: "adamw", Impl: "foreach", Params: 4e8, Tensors: 50, Seconds: 1e-3 + 4e8*2e-9},
		{Optimizer: "adamw", Impl: "foreach", Params: 1e7, Tensors: 300, Seconds: 3e-3},
		{Optimizer: "adamw", Impl: "foreach", Params: 1e8, Tensors: 300, Seconds: 3e-3 + 1e8*2e-9},
		{Optimizer: "adamw", Impl: "foreach", Params: 4e8, Tensors: 300, Seconds: 3e-3 + 4e8*2e-9},
	}
	r := ratesFrom(cal, nil, h200)
	g, _, ok := r.optimizer("adamw", "foreach", 2e8, 100)
	if !ok || !near(g, 2e8*2e-9) {
		t.Errorf("GPU %g s (ok %v), want 2 ns per parameter: %g s", g, ok, 2e8*2e-9)
	}
	// the H200's foreach AdamW: 2.12–2.22 ms per 10⁸ parameters between its
	// 10⁸ and 4·10⁸ steps, which the kernel profiles confirm
	real, err := gpu.Calibrated("h200")
	if err != nil || real == nil {
		t.Fatalf("h200 calibration: %v", err)
	}
	r = ratesFrom(real, nil, h200)
	if g, _, ok := r.optimizer("adamw", "foreach", 1e8, 100); !ok || g < 2.1e-3 || g > 2.25e-3 {
		t.Errorf("H200 foreach AdamW: %.3f ms per 10⁸ parameters, want 2.12–2.22", g*1e3)
	}
}

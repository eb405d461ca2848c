package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/gpu"
)

// TestMergeConvRuns: the H200 table is the full run and the fp16/bf16
// convolution run together. The first run's launch and host figures
// stay; a convolution both timed keeps the geometric mean (ResNet-50's
// stem, bf16 NCHW: 644.4 and 641.9 µs forward); one only the second timed
// is added (fp16 NCHW depthwise 3×3 at 112², 66.1 µs).
func TestMergeConvRuns(t *testing.T) {
	c := calibrate(t, "../../testdata/late/calibration-full.json,../../testdata/late/calibration-conv16.json")
	if c.Source != "calibration-full.json+calibration-conv16.json" || math.Abs(c.EnqueueS-9.683e-6) > 1e-9 {
		t.Errorf("source %q, enqueue %g: want both files and the full run's 9.683 µs", c.Source, c.EnqueueS)
	}
	find := func(dtype string, cin, cout, h, k, groups int64) []gpu.ConvRate {
		var m []gpu.ConvRate
		for _, v := range c.Conv {
			if v.Dtype == dtype && !v.ChannelsLast && v.N == 64 && v.Cin == cin && v.Cout == cout && v.H == h &&
				v.K == k && v.Groups == groups {
				m = append(m, v)
			}
		}
		return m
	}
	if s := find("bf16", 3, 64, 224, 7, 1); len(s) != 1 || math.Abs(s[0].FwdS-math.Sqrt(644.36e-6*641.9e-6)) > 0.1e-6 {
		t.Errorf("bf16 stem rows %+v, want one at the geometric mean of 644.4 and 641.9 µs", s)
	}
	if s := find("fp16", 32, 32, 112, 3, 32); len(s) != 1 || math.Abs(s[0].FwdS-66.1e-6) > 0.1e-6 {
		t.Errorf("fp16 depthwise rows %+v, want one of 66.1 µs", s)
	}
	fp16 := 0
	for _, v := range c.Conv {
		if v.Dtype == "fp16" {
			fp16++
		}
	}
	if fp16 != 45 || len(c.GEMM) == 0 {
		t.Errorf("%d fp16 convolutions (want the 45 timed), %d GEMMs", fp16, len(c.GEMM))
	}
}

// TestGlobTakesTheFullRunAsBase: a glob over every raw run lists the
// partial convolution runs before the full one by name, yet the full run
// (the only one with GEMMs) gives the host figures: enqueue 9.683 µs, not
// the conv16 run's 9.170 µs.
func TestGlobTakesTheFullRunAsBase(t *testing.T) {
	c := calibrate(t, "../../testdata/late/calibration-*.json")
	if !strings.HasPrefix(c.Source, "calibration-full.json+") || !strings.Contains(c.Source, "calibration-conv16.json") ||
		math.Abs(c.EnqueueS-9.683e-6) > 1e-9 {
		t.Errorf("source %q, enqueue %g: want the full run first and its 9.683 µs", c.Source, c.EnqueueS)
	}
	if err := run("h200", "../../testdata/late/calibration-conv16.json", filepath.Join(t.TempDir(), "h200.json")); err == nil {
		t.Error("a convolution run alone made a table")
	}
}

// TestNormRows: gt_calib.py --norm's BatchNorm rows reach the table, a
// failed one (an error, or a backward no longer than the forward) does not.
func TestNormRows(t *testing.T) {
	var r raw
	in := `{"norm": [
	 {"op": "batch_norm", "dtype": "bf16", "N": 256, "C": 64, "H": 56, "bytes": 205520896, "fwd_s": 4.1e-4, "fwdbwd_s": 1.3e-3},
	 {"op": "batch_norm", "dtype": "fp16", "N": 256, "C": 64, "H": 56, "error": "OutOfMemoryError()"},
	 {"op": "batch_norm", "dtype": "fp32", "N": 256, "C": 64, "H": 56, "bytes": 411041792, "fwd_s": 5e-4, "fwdbwd_s": 5e-4}]}`
	if err := json.Unmarshal([]byte(in), &r); err != nil {
		t.Fatal(err)
	}
	c := build("h200", "calibration-norm.json", &r)
	if len(c.Norm) != 1 || c.Norm[0].Dtype != "bf16" || c.Norm[0].C != 64 || c.Norm[0].Bytes != 205520896 ||
		c.Norm[0].FwdBwdS != 1.3e-3 {
		t.Errorf("norm rows %+v, want the bf16 one alone", c.Norm)
	}
}

// TestSDPABackends: gt_calib.py --sdpa-backends timed torch's default
// choice beside each backend forced. A default row is filed under the
// backend its kernels name (cuDNN's cudnn_generated_fort_native_sdpa_* on
// every shape of the H200 run) and averaged geometrically with that
// backend forced: 4×32×2048×128 causal bf16, 289.4 µs default and 290.7
// µs cuDNN forward. A shape the full run timed too keeps the mean of both
// (flash 8×12×1024×64 causal: 76.30 and 75.57 µs).
func TestSDPABackends(t *testing.T) {
	c := calibrate(t, "../../testdata/late/calibration-full.json,../../testdata/dev6/calibration/calibration-sdpa-backends.json")
	find := func(be, dt string, bhsd [4]int64, causal bool) []gpu.SDPARate {
		var m []gpu.SDPARate
		for _, s := range c.SDPA {
			if s.Backend == be && s.Dtype == dt && s.BHSD == bhsd && s.Causal == causal {
				m = append(m, s)
			}
		}
		return m
	}
	for _, s := range c.SDPA {
		if s.Backend == "default" || s.Dtype == "" {
			t.Fatalf("row %+v: want a named backend and dtype", s)
		}
	}
	cd := find("cudnn", "bf16", [4]int64{4, 32, 2048, 128}, true)
	if len(cd) != 1 || math.Abs(cd[0].FwdS*1e6-math.Sqrt(289.4*290.7)) > 0.1 {
		t.Errorf("cudnn 4x32x2048x128 causal: %+v, want one row of %.1f µs", cd, math.Sqrt(289.4*290.7))
	}
	fl := find("flash", "bf16", [4]int64{8, 12, 1024, 64}, true)
	if len(fl) != 1 || math.Abs(fl[0].FwdS*1e6-math.Sqrt(76.30*75.57)) > 0.1 {
		t.Errorf("flash 8x12x1024x64 causal: %+v, want one row of %.1f µs", fl, math.Sqrt(76.30*75.57))
	}
	if n := len(find("cudnn", "fp16", [4]int64{16, 8, 4096, 40}, true)); n != 1 {
		t.Errorf("cudnn fp16 16x8x4096x40 causal: %d rows, want 1", n)
	}
	if be := defaultBackend([]string{"Memset (Device)", "void at::native::vectorized_elementwise_kernel<8>"}); be != "" {
		t.Errorf("a default row without attention kernels is filed under %q, want none", be)
	}
}

// calibrate builds the h200 table from the raw runs in (a list or glob)
// as `go generate` does, and reads it back.
func calibrate(t *testing.T, in string) gpu.Calibration {
	t.Helper()
	out := filepath.Join(t.TempDir(), "h200.json")
	if err := run("h200", in, out); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var c gpu.Calibration
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestBroadcastRows: gt_calib.py --broadcast's elementwise rows join the
// memory-bound table under their own op names (the H200 run: a float32
// column-broadcast product of 8,192 × 4,096 moved 268 MB in 98.2 µs,
// 2.73 TB/s, against 4.2 TB/s for the contiguous mul_); a float32
// "to_fp32" converts nothing and the whole RMSNorm / rotary timings carry
// no bytes: neither is a rate.
func TestBroadcastRows(t *testing.T) {
	c := calibrate(t, "../../testdata/late/calibration-full.json,../../testdata/dev7/calibration/calibration-broadcast.json")
	var col, cast, norm int
	for _, s := range c.Stream {
		switch {
		case s.Op == "mul_colbcast" && s.Dtype == "fp32" && s.Bytes == 268451840:
			col++
			if math.Abs(s.Bytes/s.Seconds/1e12-2.73) > 0.01 {
				t.Errorf("fp32 column broadcast at 8192×4096: %.2f TB/s, want 2.73", s.Bytes/s.Seconds/1e12)
			}
		case s.Op == "to_fp32" && s.Dtype == "fp32":
			cast++
		case strings.HasPrefix(s.Op, "rmsnorm") || strings.HasPrefix(s.Op, "rope_fwd"):
			norm++
		}
	}
	if col != 1 || cast != 0 || norm != 0 {
		t.Errorf("column-broadcast rows %d (want 1), float32 up-casts %d and whole-norm rows %d (want none)", col, cast, norm)
	}
}

// TestSmallGEMMRows: gt_calib.py --small-gemm's 120 float32 products join
// the GEMM table, one row per shape: float32 1024³, timed by the full run
// (56.59 µs) and twice by the small-GEMM run (forward and weight-gradient
// orientation, 56.50 and 56.52 µs), keeps the geometric mean of the three.
// Its 120 bf16 products are left out: every bf16 row of the table is the
// full run's, at the full run's time.
func TestSmallGEMMRows(t *testing.T) {
	full := calibrate(t, "../../testdata/late/calibration-full.json")
	c := calibrate(t, "../../testdata/late/calibration-full.json,../../testdata/dev16/dev16-calibration-small-gemm.json")
	type key struct {
		dtype string
		mnk   [3]int64
	}
	fullAt := map[key]float64{}
	for _, g := range full.GEMM {
		fullAt[key{g.Dtype, g.MNK}] = g.Seconds
	}
	seen := map[key]bool{}
	var cube []float64
	for _, g := range c.GEMM {
		k := key{g.Dtype, g.MNK}
		if seen[k] {
			t.Errorf("%s %v: two rows", g.Dtype, g.MNK)
		}
		seen[k] = true
		if k == (key{"fp32", [3]int64{1024, 1024, 1024}}) {
			cube = append(cube, g.Seconds)
		}
		if s, ok := fullAt[k]; g.Dtype != "fp32" && (!ok || s != g.Seconds) {
			t.Errorf("%s %v: %.2f µs, want only the full run's bf16 rows, at its times", g.Dtype, g.MNK, g.Seconds*1e6)
		}
	}
	if len(c.GEMM) != len(full.GEMM)+120-6 {
		t.Errorf("%d GEMM rows, want the full run's %d + 120 - 6 repeated shapes (2 within the run, 4 of the full run)", len(c.GEMM), len(full.GEMM))
	}
	if want := math.Cbrt(56.59e-6 * 56.50e-6 * 56.52e-6); len(cube) != 1 || math.Abs(cube[0]/want-1) > 1e-3 {
		t.Errorf("fp32 1024³: %v s, want one row at %.2f µs", cube, want*1e6)
	}
}

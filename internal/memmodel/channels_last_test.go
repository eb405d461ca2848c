package memmodel

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
)

// profiledOps is the GPU time per step of the ATen ops of an ops profile
// (gt_work profile="ops", whose counts and times are per step) whose name
// contains name.
func profiledOps(t *testing.T, path, name string) float64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Ops []struct {
			Op      string  `json:"op"`
			DeviceS float64 `json:"device_s"`
		} `json:"ops"`
	}
	if err := json.Unmarshal(data, &p); err != nil || len(p.Ops) == 0 {
		t.Fatalf("%s: no ops (%v)", path, err)
	}
	var s float64
	for _, o := range p.Ops {
		if strings.Contains(o.Op, name) {
			s += o.DeviceS
		}
	}
	return s
}

// TestChannelsLastBatchNorm: a channels-last ResNet-50's batch norms run
// ATen's NHWC kernels, priced from the kernel-timed channels-last rows of
// the profiled steps (bench/calibrate's normRowsOfOps: dev33's ResNet-50
// b128 and EfficientNet-B0 b256, dev36's ResNet-152 b64 and
// EfficientNet-B1 b128), against dev33's profile of ResNet-50 b128 (12.8
// ms of batch-norm kernels a step; its own rows are among them, smoothed
// by the trend) within 5%: 13.2 ms. From dev35's eager calibration alone
// it was 13.0 ms, and 14.95 with that calibration's Python-bound small
// backwards in the fit (before clNormBwdHost).
func TestChannelsLastBatchNorm(t *testing.T) {
	prof := profiledOps(t, "../../testdata/dev33/dev33-profile/dev33-prof-resnet50-b128-bf16-cl-ops.json", "native_batch_norm")
	m := "resnet50"
	s := DefaultSpec()
	s.Model, s.Batch, s.Precision, s.ChannelsLast = &m, 128, "bf16-amp", true
	_, g, _, tm, _ := walkOf(t, s)
	var got float64
	n := 0
	for i := range g.ops {
		if o := &g.ops[i]; o.kind == "batch_norm" {
			if !o.nhwc {
				t.Fatalf("batch norm %d: NCHW in a channels-last model", i)
			}
			got += tm.forward(o, g) + bwdTime(tm, o, g)
			n++
		}
	}
	t.Logf("%d batch norms: %.2f ms, profiled %.2f ms", n, 1e3*got, 1e3*prof)
	if math.Abs(got/prof-1) > 0.05 {
		t.Errorf("channels-last batch norm %.2f ms a step, profiled %.2f ms (want within 5%%)", 1e3*got, 1e3*prof)
	}
}

// TestDepthwiseSameKernelSize: a channels-last depthwise convolution takes
// the rows of its kernel size. ConvNeXt-B's 7×7 at 512 channels of 14²
// (batch 64) is memory-bound like dev29's kernel-timed 384-channel one of
// the same plane, so its backward is that row's scaled by the channels
// (176 µs); with EfficientNet's 3×3 and 5×5 rows among its neighbours it
// came to 323.
func TestDepthwiseSameKernelSize(t *testing.T) {
	r := h200Rates(t)
	var ref float64
	for _, v := range r.cal.Conv {
		if v.Kernels && v.ChannelsLast && v.Dtype == "bf16" && v.N == 64 && v.Cin == 384 && v.Groups == 384 && v.H == 14 && v.K == 7 {
			ref = (v.FwdBwdS - v.FwdS) * 512 / 384
		}
	}
	if ref == 0 {
		t.Fatal("no kernel-timed 7×7 depthwise row of 384 channels at batch 64")
	}
	c := convShape{n: 64, cin: 512, cout: 512, h: 14, ho: 14, k: 7, stride: 1, groups: 512, dgrad: true, wgrad: true, channelsLast: true}
	_, bwd := r.convUncached(&c, BF16)
	t.Logf("backward %.0f µs, the 384-channel row scaled %.0f µs", 1e6*bwd, 1e6*ref)
	if math.Abs(bwd/ref-1) > 0.25 {
		t.Errorf("7×7 depthwise backward %.0f µs, want within 25%% of %.0f", 1e6*bwd, 1e6*ref)
	}
}

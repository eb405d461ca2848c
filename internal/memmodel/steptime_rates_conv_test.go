package memmodel

import (
	"math"
	"testing"
)

// Convolutions priced from the calibration table (split from
// steptime_rates_test.go, whose tinyCalibration these share).

// TestRatesConvFromCalibration: on the embedded H200 table a convolution
// at a calibrated shape takes the measured forward time of its memory
// format, timed by its kernels (testdata/dev29, batch 64, bf16: ConvNeXt's
// depthwise 7×7, 96 channels at 56², 140.9 µs in channels_last;
// EfficientNet's depthwise 3×3, 144 channels at 56², 283.3 µs in NCHW),
// and a dense one its implicit GEMMs times the measured slowdown, which at
// a calibrated shape is the measured time again (float32, eager rows).
func TestRatesConvFromCalibration(t *testing.T) {
	_, cal, r := h200TableRates(t)
	if len(cal.Conv) == 0 {
		t.Fatal("no convolutions in the H200 table")
	}
	dw := &convShape{n: 64, cin: 144, cout: 144, h: 56, ho: 56, k: 3, stride: 1, groups: 144, dgrad: true, wgrad: true}
	nchw, _ := r.conv(dw, BF16)
	dw = &convShape{n: 64, cin: 96, cout: 96, h: 56, ho: 56, k: 7, stride: 1, groups: 96, channelsLast: true, dgrad: true, wgrad: true}
	cl, _ := r.conv(dw, BF16)
	if math.Abs(cl-140.9e-6) > 0.5e-6 || math.Abs(nchw-283.3e-6) > 0.5e-6 {
		t.Errorf("depthwise: channels_last %.1f µs, NCHW %.1f µs; want 140.9 and 283.3", 1e6*cl, 1e6*nchw)
	}
	dense := &convShape{n: 64, cin: 128, cout: 128, h: 28, ho: 28, k: 3, stride: 1, groups: 1, dgrad: true, wgrad: true}
	f, b := r.conv(dense, F32)
	if math.Abs(f-91.4e-6) > 0.5e-6 {
		t.Errorf("dense fp32 forward %.1f µs, want the measured 91.4", 1e6*f)
	}
	// The backward comes from the same shape timed at batch 256
	// (calibration-norm.json: 1166.2 µs forward+backward, 294.2 forward),
	// per image, less the .grad accumulation the calibration added: the
	// batch-64 timing (348.1 − 91.4 = 256.7 µs) was bound by the host.
	per256 := (1166.2e-6 - 294.2e-6) * 64 / 256
	if timed := 348.1e-6 - 91.4e-6; b >= timed || b > per256 || b < 0.75*per256 {
		t.Errorf("dense fp32 backward %.1f µs, want a little under the batch-256 row's %.1f per 64 images (and under the host-bound %.1f timed at 64)",
			1e6*b, 1e6*per256, 1e6*timed)
	}
}

// TestRatesConvHalfPrecision: fp16 convolutions take the fp16 rows
// (testdata/dev29, timed by their kernels), not bf16's. At calibrated
// shapes the forward is the measured time: NCHW depthwise 3×3, 32 channels
// at 112², batch 64, 66.0 µs in fp16 against 252.4 in bf16 (cuDNN's fp16
// depthwise kernel; ATen's conv_depthwise2d for bf16); ResNet-50's 7×7
// stem, 361.3 µs in fp16 against bf16's 641.5.
func TestRatesConvHalfPrecision(t *testing.T) {
	_, _, r := h200TableRates(t)
	for _, c := range []struct {
		name       string
		s          convShape
		fp16, bf16 float64
	}{
		{"depthwise 3×3", convShape{n: 64, cin: 32, cout: 32, h: 112, ho: 112, k: 3, stride: 1, groups: 32}, 66.0e-6, 252.4e-6},
		{"stem 7×7", convShape{n: 64, cin: 3, cout: 64, h: 224, ho: 112, k: 7, stride: 2, groups: 1}, 361.3e-6, 641.5e-6},
	} {
		f16, _ := r.conv(&c.s, F16)
		b16, _ := r.conv(&c.s, BF16)
		if math.Abs(f16-c.fp16) > 0.5e-6 || math.Abs(b16-c.bf16) > 0.5e-6 {
			t.Errorf("%s: fp16 %.1f µs, bf16 %.1f µs; want the measured %.1f and %.1f", c.name,
				1e6*f16, 1e6*b16, 1e6*c.fp16, 1e6*c.bf16)
		}
	}
}

// TestRatesConvBackwardFromLargestBatch: ResNet-50's 3×3 128-channel
// convolution at 28² (bf16, NCHW), timed by its kernels (testdata/dev29)
// at batch 64 (forward 51.9 µs, forward+backward 171.6) and at batch 256
// (187.0 and 561.6). At 256 the model gives the measured forward and
// backward; at 64 the measured forward, but a backward from the batch-256
// rows' slowdown over their implicit GEMMs, not batch 64's own 119.7 µs
// (28% slower per image than batch 256's). Those rows are weighed by
// distance in output pixels, where 64 images at 28² sit on 256 at 14²:
// 66.7 µs, under a quarter of 374.6 (a known under-price of small dense
// backward, which the steps of 64-128 images do not show: late27's
// ResNet-50 b64 is over, ResNet-101 b128 within 1%). Its stride-2 twin from 56², whose
// implicit GEMMs are the same, keeps its own time (311.9 µs forward at
// batch 256).
func TestRatesConvBackwardFromLargestBatch(t *testing.T) {
	_, _, r := h200TableRates(t)
	at := func(n, h, stride int64) (float64, float64) {
		ho := (h+2-3)/stride + 1
		return r.conv(&convShape{n: n, cin: 128, cout: 128, h: h, ho: ho, k: 3, stride: stride, groups: 1,
			dgrad: true, wgrad: true}, BF16)
	}
	f256, b256 := at(256, 28, 1)
	if math.Abs(f256-187.0e-6) > 0.5e-6 {
		t.Errorf("batch 256 forward %.1f µs, want the measured 187.0", 1e6*f256)
	}
	if want := 561.6e-6 - 187.0e-6; math.Abs(b256-want) > 0.5e-6 {
		t.Errorf("batch 256 backward %.1f µs, want the measured %.1f", 1e6*b256, 1e6*want)
	}
	f64, b64 := at(64, 28, 1)
	if math.Abs(f64-51.9e-6) > 0.5e-6 {
		t.Errorf("batch 64 forward %.1f µs, want the measured 51.9", 1e6*f64)
	}
	if own := 171.6e-6 - 51.9e-6; b64 >= 0.9*own || b64 < b256/8 || b64 > b256/3 {
		t.Errorf("batch 64 backward %.1f µs: want from batch 256's %.1f (a quarter or less), under batch 64's own %.1f",
			1e6*b64, 1e6*b256, 1e6*own)
	}
	if s2, _ := at(256, 56, 2); math.Abs(s2-311.9e-6) > 0.5e-6 {
		t.Errorf("stride-2 forward %.1f µs, want its own measured 311.9", 1e6*s2)
	}
}

package main

import (
	"os"
	"testing"
)

// TestConvRowsOfOps reads dev33's profiled compiled EfficientNet-B0 b256
// step: every convolution but the stem's becomes a channels-last bf16
// kernel-timed row, the stride from the gradient's size. Its 96-channel
// stride-2 3x3 depthwise convolution (112 -> 56) ran 0.275 ms forward
// and 1.30 backward a call in the eager channels-last twin (dev33's
// -cl-ops.json: aten::convolution_backward 1.297 ms).
func TestConvRowsOfOps(t *testing.T) {
	const path = "../../testdata/dev33/dev33-profile/dev33-prof-efficientnet-b0-b256-bf16-compile-ops.json"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := convRowsOfOps(path, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 30 {
		t.Fatalf("%d rows, want EfficientNet-B0's distinct convolutions (30 or more)", len(rows))
	}
	found := false
	for _, r := range rows {
		if !r.Kernels || !r.ChannelsLast || r.Dtype != "bf16" || r.N != 256 {
			t.Errorf("row %+v: want a kernel-timed channels-last bf16 row at 256 images", r)
		}
		if r.Cin <= 4 {
			t.Errorf("row %+v: the stem's backward has no data gradient and is left out", r)
		}
		if r.Cin == 96 && r.Groups == 96 && r.K == 3 && r.H == 112 {
			found = true
			if r.Stride != 2 || r.FwdS < 0.2e-3 || r.FwdS > 0.35e-3 || r.FwdBwdS-r.FwdS < 1.0e-3 || r.FwdBwdS-r.FwdS > 1.6e-3 {
				t.Errorf("96-channel depthwise row %+v: want stride 2, ~0.28 ms forward, ~1.3 ms backward", r)
			}
		}
	}
	if !found {
		t.Error("no row for the 96-channel stride-2 depthwise convolution")
	}
	if _, err := convRowsOfOps("x-ops.json", data, nil); err == nil {
		t.Error("a name without -bf16, -fp16 or -fp32 was accepted")
	}
}

// TestNormRowsOfOps reads dev36's profiled eager channels-last ResNet-34
// b256 fp16 step: its batch norms (cuDNN's NHWC kernels in fp16) become
// kernel-timed channels-last fp16 rows, one per input shape; 256 channels
// of 14² ran 28.6 µs forward and 46.7 backward a call (eager, gt_calib.py
// timed 58 and 294: Python's). A compiled step's profile gives none.
func TestNormRowsOfOps(t *testing.T) {
	const path = "../../testdata/dev36/dev36-profile/dev36-prof-resnet34-b256-fp16-cl-ops.json"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := normRowsOfOps(path, data)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 5 {
		t.Fatalf("%d rows, want ResNet-34's five batch-norm shapes", len(rows))
	}
	found := false
	for _, r := range rows {
		if !r.Kernels || !r.ChannelsLast || r.Dtype != "fp16" || r.N != 256 || r.Bytes != float64(2*2*r.N*r.C*r.H*r.H) {
			t.Errorf("row %+v: want a kernel-timed channels-last fp16 row at 256 images, bytes in and out", r)
		}
		if r.C == 256 && r.H == 14 {
			found = true
			if r.FwdS < 25e-6 || r.FwdS > 32e-6 || r.FwdBwdS-r.FwdS < 42e-6 || r.FwdBwdS-r.FwdS > 52e-6 {
				t.Errorf("256x14² row %+v: want ~28.6 µs forward, ~46.7 backward", r)
			}
		}
	}
	if !found {
		t.Error("no row for 256 channels of 14²")
	}
	const compiled = "../../testdata/dev33/dev33-profile/dev33-prof-resnet50-b128-bf16-compile-ops.json"
	cdata, err := os.ReadFile(compiled)
	if err != nil {
		t.Fatal(err)
	}
	if rows, err := normRowsOfOps(compiled, cdata); err != nil || len(rows) != 0 {
		t.Errorf("compiled profile: %d rows (%v), want none", len(rows), err)
	}
}

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
	rows, err := convRowsOfOps(path, data)
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
	if _, err := convRowsOfOps("x-ops.json", data); err == nil {
		t.Error("a name without -bf16 or -fp16 was accepted")
	}
}

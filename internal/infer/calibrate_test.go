package infer

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
)

// TestCalibrateHostDecodeStep: a generate plan calibrates on its decode
// step. dev108's TinyLlama 32 rows x p128 (bf16, DynamicCache) decoded a
// step in 25.0 ms on a lent H100 whose host the plan prices at 14.6 ms
// (GPU 6.5 ms): host-bound, so the factor is the ratio, x1.71.
func TestCalibrateHostDecodeStep(t *testing.T) {
	rows, err := measured.ReadGTRows("../../testdata/dev108/generate/results.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(rows, func(r measured.GTRow) bool { return r.Name == "dev108-gen-tinyllama-bf16-dynamic-inf-b32-p128-n64" })
	if i < 0 || rows[i].DecodeTokS <= 0 {
		t.Fatal("dev108's timed TinyLlama point is missing")
	}
	spec := measured.GenSpec(rows[i])
	spec.GPU = "h100"
	step := float64(rows[i].B) / rows[i].DecodeTokS
	c, err := CalibrateHost(context.Background(), spec, step)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%.1f ms a decode step measured, %.1f planned (host %.1f, GPU %.1f): host_scale %.2f", 1e3*step, 1e3*c.PlannedStep, 1e3*c.PlannedHost, 1e3*c.PlannedGPU, c.HostScale)
	if c.Step != "decode step" || math.Abs(c.StepAtScale/step-1) > 0.01 || math.Abs(c.HostScale/(step/c.PlannedStep)-1) > 0.03 {
		t.Errorf("decode calibration %+v for a %.4f s step", c, step)
	}
}

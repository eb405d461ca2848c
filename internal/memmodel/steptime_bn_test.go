package memmodel

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
)

// profiledBN is the GPU time per step of a kernel profile's BatchNorm
// kernels (testdata/profile): ATen's statistics and transform kernels
// forward, its backward kernel backward.
func profiledBN(t *testing.T, name string) (fwd, bwd float64) {
	t.Helper()
	for _, k := range profileKernels(t, name) {
		switch {
		case strings.Contains(k.Name, "batch_norm_collect_statistics"), strings.Contains(k.Name, "batch_norm_transform_input"):
			fwd += k.S
		case strings.Contains(k.Name, "batch_norm_backward_kernel"):
			bwd += k.S
		}
	}
	return fwd, bwd
}

// modelBN is the step-time model's BatchNorm GPU time, forward and
// backward, over one bf16 step of model at batch.
func modelBN(t *testing.T, model string, batch int) (fwd, bwd float64) {
	t.Helper()
	s := DefaultSpec()
	s.Model, s.Batch, s.Precision = &model, batch, "bf16-amp"
	_, g, _, tm, _ := walkOf(t, s)
	for i := range g.ops {
		if o := &g.ops[i]; o.kind == "batch_norm" {
			fwd += tm.forward(o, g)
			bwd += bwdTime(tm, o, g)
		}
	}
	return fwd, bwd
}

// TestBatchNormAgainstProfiles: with the H200 calibration (ResNet-50's
// BatchNorms at batch 256), the bf16 BatchNorms of two profiled steps come
// within 10% of their kernels' time, forward and backward: EfficientNet-B0
// at batch 256, whose 16–144-channel maps of 56² and 112² lie below every
// calibrated channel count (the nearest shapes' mean had them at 17.2 and
// 26.6 ms against 23.4 and 39.0), and ResNet-101 at batch 64, whose shapes
// are the calibration's at a quarter of the batch (looked up by bytes, its
// forward came to 10.1 ms against 7.9).
func TestBatchNormAgainstProfiles(t *testing.T) {
	for _, c := range []struct {
		model, profile string
		batch          int
	}{
		{"efficientnet-b0", "prof-efficientnet-b0-b256-bf16", 256},
		{"resnet101", "prof-resnet101-b64-bf16", 64},
	} {
		pf, pb := profiledBN(t, c.profile)
		mf, mb := modelBN(t, c.model, c.batch)
		t.Logf("%s: BatchNorm forward %.2f ms (profiled %.2f), backward %.2f ms (%.2f)", c.model, 1e3*mf, 1e3*pf, 1e3*mb, 1e3*pb)
		if pf == 0 || pb == 0 {
			t.Fatalf("%s: no BatchNorm kernels in the profile", c.profile)
		}
		if math.Abs(mf/pf-1) > 0.10 || math.Abs(mb/pb-1) > 0.10 {
			t.Errorf("%s: BatchNorm %.2f + %.2f ms, profiled %.2f + %.2f ms (want within 10%%)", c.model, 1e3*mf, 1e3*mb, 1e3*pf, 1e3*pb)
		}
	}
}

// TestBatchNormRateIndependentOfBatch: a BatchNorm of the calibrated
// channels and plane moves its bytes at the calibrated rate whatever the
// batch, so a quarter of the batch takes a quarter of the time (less the
// per-kernel floor); with the H200 table's ResNet-50 rows.
func TestBatchNormRateIndependentOfBatch(t *testing.T) {
	find := func(batch int, dt string) float64 {
		s := DefaultSpec()
		m := "resnet50"
		s.Model, s.Batch, s.Precision = &m, batch, dt
		_, g, _, tm, _ := walkOf(t, s)
		for i := range g.ops {
			if o := &g.ops[i]; o.kind == "batch_norm" && g.tensors[o.in[1]].numel == 256 && o.plane == 56*56 {
				return tm.forward(o, g) - gpuFloor
			}
		}
		t.Fatal("no 256-channel BatchNorm at 56² in ResNet-50")
		return 0
	}
	for _, dt := range []string{"bf16-amp", "fp16-amp", "fp32"} {
		if a, b := find(256, dt), find(64, dt); !near(a, 4*b) {
			t.Errorf("%s: batch 256 %.1f µs, batch 64 %.1f µs; want a quarter", dt, 1e6*a, 1e6*b)
		}
	}
}

// TestBatchNormTrend: fewer channels than any calibrated BatchNorm run
// at a lower rate per byte than the fewest calibrated (one block per
// channel), not at the nearest one's; a calibrated shape keeps its time.
func TestBatchNormTrend(t *testing.T) {
	pts := []bnPoint{}
	// log rate = 30 + 0.5·c − 0.1·hw + 0.01·c·hw, exactly bilinear
	for _, c := range []float64{6, 7, 8, 9, 10, 11} {
		for _, hw := range []float64{6, 8, 10, 12} {
			pts = append(pts, bnPoint{c: c, hw: hw, f: 30 + 0.5*c - 0.1*hw + 0.01*c*hw})
		}
	}
	f := func(p bnPoint) float64 { return p.f }
	if got, want := bnRate(pts, 4, 13, f), 30+0.5*4-0.1*13+0.01*4*13; math.Abs(got-want) > 1e-9 {
		t.Errorf("extrapolated log rate %g, want the trend's %g", got, want)
	}
	pts[5].f += 0.3 // a calibrated point off the trend keeps its value
	if got := bnRate(pts, pts[5].c, pts[5].hw, f); math.Abs(got-pts[5].f) > 1e-9 {
		t.Errorf("at a calibrated shape %g, want its own %g", got, pts[5].f)
	}
}

// profileKernel is one kernel of a kernel profile (testdata/profile): its
// name, launches per step and GPU seconds per step.
type profileKernel struct {
	Name  string  `json:"name"`
	Count float64 `json:"count"`
	S     float64 `json:"s"`
}

// profileKernels reads the kernels of profile name (testdata/profile),
// or of SET/profiles/NAME (testdata/SET/profiles).
func profileKernels(t *testing.T, name string) []profileKernel {
	t.Helper()
	path := "../../testdata/profile/" + name + "-kernels.json"
	if strings.Contains(name, "/") { // a profile of another set: testdata/SET/profiles/NAME
		path = "../../testdata/" + name + "-kernels.json"
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Kernels []profileKernel `json:"kernels"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	return p.Kernels
}

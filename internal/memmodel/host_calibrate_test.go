package memmodel_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestCalibrateHostSolvesTheStep: on timed steps of lent hosts, the
// solved host_scale reproduces the measured step (within the 0.01 the
// factor is rounded to); on a host-bound step (late99's eager
// ResNet-101 b16, 28.0 ms against 51.5 planned, GPU 15 ms) it is the
// measured/planned ratio; on a step the GPU shares (late5's Qwen2.5-0.5B
// LoRA s1024 b8, host 92 ms and GPU 97 ms planned, 124 ms measured) it is
// larger than the ratio, which would scale the GPU's share too.
func TestCalibrateHostSolvesTheStep(t *testing.T) {
	byName := func(file, name string) measured.Timed {
		i := slices.IndexFunc(readTimedFile(t, file), func(w measured.Timed) bool { return w.Name == name })
		if i < 0 {
			t.Fatalf("%s: no %s", file, name)
		}
		return readTimedFile(t, file)[i]
	}
	hostBound := byName("late99/timing/results.jsonl", "late99-t-resnet101-b16-bf16")
	shared := byName("late5/timing-rerun/results.jsonl", "late5-t-qwen25-05b-s1024-b8-bf16-lora16")
	for _, w := range []measured.Timed{hostBound, shared} {
		c, err := memmodel.CalibrateHost(context.Background(), w.Spec, w.StepS)
		if err != nil {
			t.Fatalf("%s: %v", w.Name, err)
		}
		ratio := w.StepS / c.PlannedStep
		t.Logf("%s: %.1f ms measured, %.1f planned (host %.1f, GPU %.1f): host_scale %.2f, ratio %.2f, sensitivity %.3f",
			w.Name, 1e3*w.StepS, 1e3*c.PlannedStep, 1e3*c.PlannedHost, 1e3*c.PlannedGPU, c.HostScale, ratio, c.Sensitivity)
		if e := c.StepAtScale/w.StepS - 1; math.Abs(e) > 0.01 {
			t.Errorf("%s: the plan at host_scale %.2f steps %.1f ms, measured %.1f", w.Name, c.HostScale, 1e3*c.StepAtScale, 1e3*w.StepS)
		}
		switch w.Name {
		case hostBound.Name:
			if math.Abs(c.HostScale/ratio-1) > 0.05 || c.Sensitivity < 0.15 {
				t.Errorf("host-bound step: host_scale %.2f, ratio %.2f, sensitivity %.3f: want the ratio, and the step following the host", c.HostScale, ratio, c.Sensitivity)
			}
		case shared.Name:
			if c.HostScale < ratio+0.1 {
				t.Errorf("shared step: host_scale %.2f, ratio %.2f: want the host's share scaled by more than the whole step", c.HostScale, ratio)
			}
		}
	}
}

// TestCalibrateHostRefuses: a step faster than the plan's GPU work, one
// slower than a host ten times the median, a spec that already names a
// host_scale, and a step that is not a positive number are refused by
// name; none returns a factor.
func TestCalibrateHostRefuses(t *testing.T) {
	m := "gpt2"
	gpuBound := memmodel.DefaultSpec()
	gpuBound.Model, gpuBound.Batch, gpuBound.Seq, gpuBound.Precision = &m, 8, 1024, "fp32"
	small := memmodel.DefaultSpec()
	small.Model, small.Batch, small.Seq = &m, 2, 128
	scaled := small
	scaled.HostScale = 2
	for _, c := range []struct {
		what     string
		spec     memmodel.Spec
		measured float64
		want     error
	}{
		{"faster than the GPU's work", gpuBound, 0.05, memmodel.ErrNotCalibratable},
		{"slower than a host ten times the median", small, 5, memmodel.ErrNotCalibratable},
		{"host_scale given", scaled, 0.05, memmodel.ErrSpec},
		{"negative", small, -1, memmodel.ErrSpec},
		{"NaN", small, math.NaN(), memmodel.ErrSpec},
	} {
		if _, err := memmodel.CalibrateHost(context.Background(), c.spec, c.measured); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.what, err, c.want)
		}
	}
}

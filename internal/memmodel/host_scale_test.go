package memmodel_test

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// planStep is spec s's planned step time with host_scale f (0: unset).
func planStep(t *testing.T, s memmodel.Spec, f float64) *memmodel.Result {
	t.Helper()
	s.HostScale = f
	r, err := memmodel.Estimate(s, memmodel.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// readTimedFile reads a timed results file under testdata/ (measured.ReadTimed).
func readTimedFile(t *testing.T, file string) []measured.Timed {
	t.Helper()
	ws, _, err := measured.ReadTimed(filepath.Join("../../testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// TestHostScaleMovesHostTimeOnly: host_scale multiplies the host's costs
// and nothing else. A host-bound step (eager ResNet-101 b16 on an H100:
// host 50 ms, GPU 15 ms) follows it while it stays host-bound; a GPU-bound
// one (GPT-2 s1024 b8 fp32, 186 ms of GEMMs) does not move; memory does
// not move; the plan says whose host it priced.
func TestHostScaleMovesHostTimeOnly(t *testing.T) {
	hostBound := memmodel.DefaultSpec()
	model := "resnet101"
	hostBound.Model, hostBound.Batch, hostBound.Precision, hostBound.GPU = &model, 16, "bf16-amp", "h100"
	base, half := planStep(t, hostBound, 0), planStep(t, hostBound, 0.5)
	if r := half.StepTime / base.StepTime; math.Abs(r-0.5) > 0.06 {
		t.Errorf("host-bound step at host_scale 0.5: %.4f s against %.4f s (x%.3f), want about x0.5", half.StepTime, base.StepTime, r)
	}
	if half.PeakReserved != base.PeakReserved || half.PeakAllocated != base.PeakAllocated {
		t.Errorf("host_scale moved memory: reserved %d -> %d", base.PeakReserved, half.PeakReserved)
	}
	if !strings.Contains(half.StepTimeSource, "x0.5 (host_scale)") || strings.Contains(base.StepTimeSource, "host_scale") {
		t.Errorf("step time source %q (unscaled %q) does not say the host was scaled", half.StepTimeSource, base.StepTimeSource)
	}
	gpuBound := memmodel.DefaultSpec()
	gpt2 := "gpt2"
	gpuBound.Model, gpuBound.Batch, gpuBound.Seq, gpuBound.Precision = &gpt2, 8, 1024, "fp32"
	g0, g1 := planStep(t, gpuBound, 0), planStep(t, gpuBound, 0.5)
	if r := g1.StepTime / g0.StepTime; r < 0.97 || r > 1 {
		t.Errorf("GPU-bound step at host_scale 0.5: x%.3f, want unchanged", r)
	}
}

// TestHostScaleBounds: a host_scale outside 0.1-10 (or not a number) is
// refused by name; 0 is unset.
func TestHostScaleBounds(t *testing.T) {
	model := "gpt2"
	for _, f := range []float64{-1, 0.05, 10.5, math.NaN(), math.Inf(1)} {
		s := memmodel.DefaultSpec()
		s.Model, s.Batch, s.Seq, s.HostScale = &model, 1, 128, f
		_, err := memmodel.Estimate(s, memmodel.DefaultOptions())
		if !errors.Is(err, memmodel.ErrSpec) || !strings.Contains(err.Error(), "host_scale:") {
			t.Errorf("host_scale %g: error %v, want ErrSpec naming host_scale", f, err)
		}
	}
	for _, f := range []float64{0, 0.1, 1, 10} {
		if _, err := (memmodel.Spec{HostScale: f}).HostCostScale(); err != nil {
			t.Errorf("host_scale %g refused: %v", f, err)
		}
	}
}

// TestHostScaleOnOneHost: what the flag's help says a user does, on real
// data. dev109 and late99 ran on one fast H100 host (session 54): the
// median measured/planned of dev109's three eager steps (0.72) as the
// host_scale takes late99's three blind eager steps from a median |error|
// of 25% (max 84%, ResNet-101 b16) to 14% (max 34%). A host does not
// scale every model alike (dev109's own ratios run 0.69-0.93), and
// compiled steps, whose host cost grows less on a fast host, go under
// (late99's -22% and -40%): the docs say so.
func TestHostScaleOnOneHost(t *testing.T) {
	read := func(set string) []measured.Timed { return readTimedFile(t, set+"/timing/results.jsonl") }
	var ratios []float64
	for _, w := range read("dev109") {
		if !w.Spec.Compile {
			ratios = append(ratios, w.StepS/planStep(t, w.Spec, 0).StepTime)
		}
	}
	sort.Float64s(ratios)
	if len(ratios) != 3 {
		t.Fatalf("%d eager dev109 steps, want 3", len(ratios))
	}
	f := ratios[1]
	var before, after []float64
	for _, w := range read("late99") {
		if w.Spec.Compile {
			continue
		}
		p0, p1 := planStep(t, w.Spec, 0).StepTime, planStep(t, w.Spec, f).StepTime
		before, after = append(before, math.Abs(p0/w.StepS-1)), append(after, math.Abs(p1/w.StepS-1))
		t.Logf("%s: %.1f ms measured, planned %.1f, with host_scale %.2f %.1f", w.Name, 1e3*w.StepS, 1e3*p0, f, 1e3*p1)
	}
	sort.Float64s(before)
	sort.Float64s(after)
	if len(after) != 3 || after[1] >= before[1] || after[2] >= before[2] || after[2] > 0.35 {
		t.Errorf("late99's eager |errors| %v with host_scale %.2f, %v without: want the median and the max lower, max within 35%%", after, f, before)
	}
}

// TestHostScaleSameModelCalibration: the use the docs give --host-scale,
// on the timed sets with several eager configurations of one model
// (eleven sets, each of one lent H100 or H200 host): time one
// host-bound configuration of a model, take its measured/planned as the
// host_scale, plan the model's other configurations of the set
// (precision, checkpointing, LoRA, accumulation, batch) with it. Session
// 54: 70 predictions, median |error| 15.8% -> 6.9%, 90th percentile
// 45.6% -> 22.1%, max 81.2% -> 51.6% (GPT-2 s128 checkpointed on late67,
// whose calibrating step ran 1.24x and it 0.82x the plan). The factor
// --measured-step solves (memmodel.CalibrateHost) does as well: median
// 6.7%, 90th percentile 21.3%, max 54.8%.
func TestHostScaleSameModelCalibration(t *testing.T) {
	files := []string{"late64/results.jsonl", "late65/results.jsonl", "late66/results.jsonl", "late67/results.jsonl",
		"late68/results.jsonl", "late69/results.jsonl", "late92/timing/results.jsonl", "late62/timing/results.jsonl",
		"dev67/timing/results.jsonl", "dev68/timing/results.jsonl", "dev69/timing/results.jsonl"}
	type planned struct {
		w         measured.Timed
		step      float64
		hostBound bool
	}
	var before, after, solved []float64
	for _, f := range files {
		ws := readTimedFile(t, f)
		var order []string
		byModel := map[string][]planned{}
		for _, w := range ws {
			if w.Spec.Compile {
				continue
			}
			r := planStep(t, w.Spec, 0)
			key := string(w.Spec.HFConfig)
			if w.Spec.Model != nil {
				key = *w.Spec.Model + key
			}
			if byModel[key] == nil {
				order = append(order, key)
			}
			byModel[key] = append(byModel[key], planned{w, r.StepTime, r.StepDetail.HostS > r.StepDetail.GPUS})
		}
		for _, key := range order {
			ps := byModel[key]
			ci := slices.IndexFunc(ps, func(p planned) bool { return p.hostBound })
			if len(ps) < 2 || ci < 0 {
				continue
			}
			f := ps[ci].w.StepS / ps[ci].step
			c, err := memmodel.CalibrateHost(context.Background(), ps[ci].w.Spec, ps[ci].w.StepS)
			if err != nil {
				t.Fatalf("%s: %v", ps[ci].w.Name, err)
			}
			for i, p := range ps {
				if i == ci {
					continue
				}
				scaled := planStep(t, p.w.Spec, f).StepTime
				before = append(before, math.Abs(p.step/p.w.StepS-1))
				after = append(after, math.Abs(scaled/p.w.StepS-1))
				solved = append(solved, math.Abs(planStep(t, p.w.Spec, c.HostScale).StepTime/p.w.StepS-1))
			}
		}
	}
	sort.Float64s(before)
	sort.Float64s(after)
	n := len(after)
	if n < 60 {
		t.Fatalf("%d predictions, want the 70 the sets give", n)
	}
	t.Logf("%d predictions: median |error| %.1f%% -> %.1f%%, 90th percentile %.1f%% -> %.1f%%, max %.1f%% -> %.1f%%",
		n, 100*before[n/2], 100*after[n/2], 100*before[n*9/10], 100*after[n*9/10], 100*before[n-1], 100*after[n-1])
	if after[n/2] > 0.08 || after[n/2] >= before[n/2] || after[n*9/10] > 0.25 || after[n-1] >= before[n-1] {
		t.Errorf("calibrated on one step of the model, the others' |errors| do not fall as the docs say")
	}
	// --measured-step solves the factor on the whole step
	// (memmodel.CalibrateHost); on these host-bound calibrating steps it
	// is near the ratio, and predicts as well: since late107 (session 62)
	// a median 5.7% against the ratio's 6.4%, a 90th percentile 21.3%
	// against 20.1%
	sort.Float64s(solved)
	t.Logf("solved (--measured-step): median |error| %.1f%%, 90th percentile %.1f%%, max %.1f%%",
		100*solved[n/2], 100*solved[n*9/10], 100*solved[n-1])
	if solved[n/2] > after[n/2]+0.005 || solved[n*9/10] > after[n*9/10]+0.015 {
		t.Errorf("the solved factor predicts worse than the ratio")
	}
}

package memmodel

import (
	"math"
	"strings"
	"testing"
)

// TestStepHostLevel: GPU-bound while the host's issue time times the
// spread dev13 measured between processes stays below the GPU's time;
// host-bound once it is the longer; near in between.
func TestStepHostLevel(t *testing.T) {
	for _, c := range []struct {
		host, gpu float64
		want      int
	}{
		{0.010, 0.100, 0}, {0.060, 0.100, 0}, {0.070, 0.100, 1}, {0.099, 0.100, 1},
		{0.100, 0.100, 2}, {0.050, 0.020, 2}, {0.010, 0, 2},
	} {
		if got := StepHostLevel(c.host, c.gpu); got != c.want {
			t.Errorf("host %g s, GPU %g s: level %d, want %d", c.host, c.gpu, got, c.want)
		}
	}
}

// TestStepBandByHostPosition: a class's step band is the GPU-bound one
// (StepTime) up to level 0's edge, the near one (StepTimeHost[0]) at the
// middle of level 1, the host-bound one from level 2's edge on, and
// geometric between them; without a GPU time, the host-bound one.
func TestStepBandByHostPosition(t *testing.T) {
	cb := ClassBand{N: 40, StepTime: [2]float64{0.9, 1.1}, StepTimeHost: [][2]float64{{0.8, 1.5}, {0.7, 1.8}}}
	// a class holding every row says nothing of its own: the pooled band
	tb := &BandTable{MinRows: 3, StepTimePooled: cb, StepTime: map[string]ClassBand{"gpu=h200": cb}}
	edge := -math.Log(hostProcessSpread)
	for _, c := range []struct {
		pos  float64
		want [2]float64
	}{
		{math.Inf(-1), [2]float64{0.9, 1.1}}, {-2, [2]float64{0.9, 1.1}}, {edge, [2]float64{0.9, 1.1}},
		{(edge + edge/2) / 2, [2]float64{math.Sqrt(0.9 * 0.8), math.Sqrt(1.1 * 1.5)}},
		{edge / 2, [2]float64{0.8, 1.5}},
		{edge / 4, [2]float64{math.Sqrt(0.8 * 0.7), math.Sqrt(1.5 * 1.8)}},
		{0, [2]float64{0.7, 1.8}}, {1.5, [2]float64{0.7, 1.8}},
		{StepHostPosition(0.010, 0), [2]float64{0.7, 1.8}},
	} {
		got, _ := tb.StepBand([]string{"gpu=h200"}, c.pos)
		if math.Abs(got[0]-c.want[0]) > 1e-12 || math.Abs(got[1]-c.want[1]) > 1e-12 {
			t.Errorf("host position %.3f: band %v, want %v", c.pos, got, c.want)
		}
	}
}

// TestCheckpointedLowEnd: a checkpointed configuration's reserved band
// takes the checkpointed low end of its risk level where the table has
// one, with the same top; a plain one keeps the level's band.
func TestCheckpointedLowEnd(t *testing.T) {
	pooled := ClassBand{N: 40, Reserved: [2]float64{0.98, 1.02}, ReservedRisk: [][2]float64{{0.9, 1.1}, {0.6, 1.5}},
		ReservedCheckpointLow: []float64{0.95, 0, 0}}
	// classes holding every row say nothing of their own: the pooled band
	tb := &BandTable{MinRows: 3, Pooled: pooled,
		Classes: map[string]ClassBand{"gpu=h200": pooled, "checkpoint=none": pooled, "checkpoint=block": pooled}}
	plain := []string{"checkpoint=none", "gpu=h200"}
	ckpt := []string{"checkpoint=block", "gpu=h200"}
	if !Checkpointed(ckpt) || Checkpointed(plain) {
		t.Fatal("Checkpointed")
	}
	for _, c := range []struct {
		classes []string
		risk    int
		want    [2]float64
	}{
		{plain, 0, [2]float64{0.98, 1.02}},
		{ckpt, 0, [2]float64{0.95, 1.02}},
		{ckpt, 1, [2]float64{0.9, 1.1}}, // level 1 has no checkpointed low end of its own
	} {
		if r, _, _ := tb.RiskBand(c.classes, c.risk); r != c.want {
			t.Errorf("%v at risk %d: %v, want %v", c.classes, c.risk, r, c.want)
		}
	}
}

// TestStepBandOnEmbeddedTable: on the committed table, a host-bound step
// (GPT-2 at one sequence of 128 tokens: microsecond kernels) gets a wider band
// than a GPU-bound one (Llama 3.2 1B at 2048 tokens) and says why; dev13
// timed host-bound steps 1.46× apart between processes, GPU-bound ones
// within 0.1%.
func TestStepBandOnEmbeddedTable(t *testing.T) {
	spec := func(model string, batch, seq int) Spec {
		s := DefaultSpec()
		s.Model, s.Batch, s.Seq, s.Precision = &model, batch, seq, "bf16-amp"
		return s
	}
	o := DefaultOptions()
	o.SkipReserved = true
	host, err := Estimate(spec("gpt2", 1, 128), o)
	if err != nil {
		t.Fatal(err)
	}
	gpu, err := Estimate(spec("llama3.2-1b", 4, 2048), o)
	if err != nil {
		t.Fatal(err)
	}
	if l := StepHostLevel(host.StepDetail.HostS, host.StepDetail.GPUS); l != 2 {
		t.Fatalf("GPT-2 b1 s128: host level %d, want host-bound", l)
	}
	if l := StepHostLevel(gpu.StepDetail.HostS, gpu.StepDetail.GPUS); l != 0 {
		t.Fatalf("Llama 3.2 1B b4 s2048: host level %d, want GPU-bound", l)
	}
	width := func(r *Result) float64 { return (r.StepTimeBand[1] - r.StepTimeBand[0]) / r.StepTime }
	if width(host) <= 2*width(gpu) {
		t.Errorf("host-bound band ±%.0f%% not well wider than GPU-bound ±%.0f%%", 50*width(host), 50*width(gpu))
	}
	found := false
	for _, n := range host.Notes {
		found = found || strings.Contains(n, "host-bound") && strings.Contains(n, "between processes")
	}
	if !found {
		t.Errorf("host-bound step without its note: %q", host.Notes)
	}
	for _, n := range gpu.Notes {
		if strings.Contains(n, "host-bound") {
			t.Errorf("GPU-bound step with a host note: %q", n)
		}
	}
}

// TestGeoBetween: the geometric step between two band ends, and a class
// end that is not positive (no band of its own) kept as it is, not NaN.
func TestGeoBetween(t *testing.T) {
	for _, c := range []struct{ a, z, w, want float64 }{
		{0.9, 0.8, 0, 0.9}, {0.9, 0.8, 1, 0.8}, {0.9, 0.8, 0.5, math.Sqrt(0.72)},
		{0, 1.2, 0.5, 0}, {0.9, 0, 0.5, 0.9},
	} {
		if got := geoBetween(c.a, c.z, c.w); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("geoBetween(%g, %g, %g) = %g, want %g", c.a, c.z, c.w, got, c.want)
		}
	}
}

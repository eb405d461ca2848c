package memmodel

import (
	"math"
	"strings"
	"testing"
)

// walkOf resolves spec, builds its graph and walks one step with the
// embedded H200 calibration and the default host.
func walkOf(t *testing.T, s Spec) (*config, *Graph, stepConfig, timeModel, pipeline) {
	t.Helper()
	s.fillDefaults()
	c, err := resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	g := c.buildGraph()
	cfg := c.stepConfig(g, 2)
	tm, err := newTimeModel(c.gpu, DefaultHostCosts())
	if err != nil {
		t.Fatal(err)
	}
	p, _ := c.walk(g, cfg, tm)
	return c, g, cfg, tm, p
}

func llamaSpec() Spec {
	s := DefaultSpec()
	m := "llama-small"
	s.Model, s.Batch, s.Seq, s.Precision = &m, 4, 1024, "bf16-amp"
	return s
}

func closeTo(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

// TestFrozenWeightsSkipWeightGradients: a LoRA base linear's backward runs
// the data-gradient GEMM only; a trainable one both.
func TestFrozenWeightsSkipWeightGradients(t *testing.T) {
	s := llamaSpec()
	s.LoRA = &LoRA{Rank: 16, Targets: []string{"q_proj", "v_proj"}}
	_, g, _, tm, _ := walkOf(t, s)
	seen := 0
	for i := range g.ops {
		o := &g.ops[i]
		if o.gemm == nil || o.gemm.n != 2816 || !o.gemm.dgrad { // gate_proj / up_proj of a block past the first adapter
			continue
		}
		if o.gemm.wgrad {
			t.Fatalf("op %d: frozen gate/up projection marked for a weight gradient", i)
		}
		d := o.gemm
		want := math.Max(tm.r.gemm("bf16", 1, d.m, d.k, d.n), tm.r.launch())
		if got := bwdTime(tm, o, g); !closeTo(got, want) {
			t.Errorf("op %d: backward %g s, want the data gradient alone %g s", i, got, want)
		}
		seen++
	}
	if seen == 0 {
		t.Fatal("no frozen projection found")
	}
	// trainable: both GEMMs
	_, g2, _, tm2, _ := walkOf(t, llamaSpec())
	for i := range g2.ops {
		if o := &g2.ops[i]; o.gemm != nil && o.gemm.n == 2816 {
			d := o.gemm
			want := tm2.r.gemm("bf16", 1, d.m, d.k, d.n) + tm2.r.gemm("bf16", 1, d.k, d.n, d.m)
			if got := bwdTime(tm2, o, g2); !closeTo(got, want) {
				t.Errorf("trainable op %d: backward %g s, want data+weight gradients %g s", i, got, want)
			}
			break
		}
	}
}

// TestCheckpointRecomputesOnlyCheckpointedForward: the GPU work that block
// checkpointing adds is one more forward of the checkpointed blocks' ops,
// nothing outside them (embedding, head, loss), up to early stop: each
// Llama layer's recomputation ends at down_proj's packed input, so
// neither down_proj's GEMM nor the residual add after it runs again
// (torch.utils.checkpoint stops once the last saved tensor is back; the
// memory model replays the same ops).
func TestCheckpointRecomputesOnlyCheckpointedForward(t *testing.T) {
	_, _, _, _, plain := walkOf(t, llamaSpec())
	s := llamaSpec()
	s.Checkpoint = "block"
	_, g, cfg, tm, ck := walkOf(t, s)
	var region float64
	for i := range g.ops {
		if g.ops[i].block >= 0 {
			region += tm.forward(&g.ops[i], g) + tm.forwardExtra(&g.ops[i])
		}
	}
	gen := newGenerator(g, cfg)
	var skipped float64
	for _, rg := range gen.regions {
		var kinds []string
		for j := rg.stop; j <= rg.end; j++ {
			if j == rg.stop && !rg.stopBeforeRun {
				continue
			}
			o := &g.ops[j]
			if d := tm.forward(o, g) + tm.forwardExtra(o); d > 0 {
				kinds = append(kinds, o.kind)
				skipped += d
			}
		}
		if strings.Join(kinds, ",") != "linear,add" {
			t.Fatalf("region %d-%d: early stop skips %v, want down_proj and the residual add", rg.start, rg.end, kinds)
		}
	}
	// without the KV cache copies transformers drops under checkpointing
	cacheless := llamaSpec()
	c, err := resolve(cacheless)
	if err != nil {
		t.Fatal(err)
	}
	c.ckptEvery = 1 // same graph as the checkpointed one, no recomputation
	g0 := c.buildGraph()
	cfg0 := c.stepConfig(g0, 2)
	cfg0.ckpt = map[int]bool{}
	base, _ := c.walk(g0, cfg0, tm)
	if got, want := ck.busy-base.busy, region-skipped; !closeTo(got, want) {
		t.Errorf("checkpointing added %.3f ms of GPU work, want the blocks' forward up to early stop %.3f ms (all of it %.3f)", 1e3*got, 1e3*want, 1e3*region)
	}
	if ck.host <= plain.host {
		t.Errorf("checkpointed step %.1f ms not slower than plain %.1f ms", 1e3*ck.host, 1e3*plain.host)
	}
}

// TestAccumulationRepeatsForwardBackwardNotOptimizer: a second micro-step
// adds one forward and backward plus the gradient accumulation kernels,
// never a second optimizer step, on the GPU and on the host alike.
func TestAccumulationRepeatsForwardBackwardNotOptimizer(t *testing.T) {
	s := llamaSpec()
	c1, g, _, tm, one := walkOf(t, s)
	s.Accum = 2
	_, _, _, _, two := walkOf(t, s)
	var nParams, elems float64
	for _, p := range g.params {
		if p.trainable {
			nParams++
			elems += float64(p.numel)
		}
	}
	opt, _, _ := c1.optimizerTime(tm, elems, nParams)
	accumulate := nParams*tm.r.launch() + tm.r.stream("add", F32, elems*4*3)
	fwdbwd := one.busy - opt
	if got, want := two.busy, 2*fwdbwd+accumulate+opt; !closeTo(got, want) {
		t.Errorf("accum 2: %.3f ms of GPU work, want 2×%.3f + %.3f + one optimizer %.3f", 1e3*got, 1e3*fwdbwd, 1e3*accumulate, 1e3*opt)
	}
	// the host likewise: each micro-step's Python forward and autograd
	// backward again, the engine's AccumulateGrad adds (a dispatcher call
	// each), one zero_grad and optimizer step
	_, hostOpt, _ := c1.optimizerTime(tm, elems, nParams)
	once := tm.Step + nParams*tm.Param + hostOpt
	hostFwdBwd := one.hostBusy - once
	if got, want := two.hostBusy, 2*hostFwdBwd+nParams*tm.Small+once; !closeTo(got, want) {
		t.Errorf("accum 2: %.3f ms of host time, want 2×%.3f + %.3f (AccumulateGrad) + %.3f once", 1e3*got, 1e3*hostFwdBwd, 1e3*nParams*tm.Small, 1e3*once)
	}
}

// TestDataParallelCommunicationOverlaps: DDP's all-reduce hides behind
// the backward pass but never entirely.
func TestDataParallelCommunicationOverlaps(t *testing.T) {
	s := llamaSpec()
	s.Parallel = Parallel{Strategy: "ddp", GPUs: 8, TP: 1, PP: 1, MicroBatches: 1}
	c, g, cfg, tm, _ := walkOf(t, s)
	_, bwd := c.walk(g, cfg, tm)
	full := c.commTime(g, 0)
	got := c.commTime(g, bwd)
	if got < commExposed*full-1e-12 || got > full {
		t.Errorf("exposed communication %.3f ms outside [%.3f, %.3f] ms", 1e3*got, 1e3*commExposed*full, 1e3*full)
	}
	if bwd >= full && !closeTo(got, commExposed*full) {
		t.Errorf("backward %.1f ms covers the all-reduce %.1f ms, yet %.3f ms exposed", 1e3*bwd, 1e3*full, 1e3*got)
	}
}

// TestOtherGPUsAreScaled: a GPU without a calibration gets the H200's
// rates scaled, says so, is slower for a GPU-bound step and has a wider
// band.
func TestOtherGPUsAreScaled(t *testing.T) {
	s := llamaSpec()
	s.Batch = 16
	opts := DefaultOptions()
	opts.SkipReserved = true
	h, err := Estimate(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	s.GPU = "a100-80"
	a, err := Estimate(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.StepTimeSource, "GEMM, attention, memory-bound, convolution, optimizer rates measured on h200") || strings.Contains(h.StepTimeSource, "scaled") {
		t.Errorf("h200 source: %q", h.StepTimeSource)
	}
	if !strings.Contains(a.StepTimeSource, "scaled to a100-80") {
		t.Errorf("a100 source: %q", a.StepTimeSource)
	}
	if a.StepTime <= 1.5*h.StepTime {
		t.Errorf("A100 %.1f ms vs H200 %.1f ms: a third of the bf16 FLOP/s should show", 1e3*a.StepTime, 1e3*h.StepTime)
	}
	wh := (h.StepTimeBand[1] - h.StepTimeBand[0]) / h.StepTime
	wa := (a.StepTimeBand[1] - a.StepTimeBand[0]) / a.StepTime
	if wa <= wh {
		t.Errorf("scaled band ±%.0f%% not wider than measured ±%.0f%%", 50*wa, 50*wh)
	}
}

// TestGroupedGEMMPerExpert: torch._grouped_mm over e experts costs e
// GEMMs of n/e rows, its shape recovered from the tensors alone: float32
// experts (ATen's fallback, one mm per expert) at the calibrated rate,
// bfloat16 ones (one CUTLASS kernel) groupedSlowdown slower.
func TestGroupedGEMMPerExpert(t *testing.T) {
	_, _, _, tm, _ := walkOf(t, llamaSpec())
	const n, in, out, e = 8192, 1024, 4096, 8
	for _, c := range []struct {
		dt   DType
		cal  string
		slow float64
	}{{F32, "fp32", 1}, {BF16, "bf16", groupedSlowdown}} {
		g := &Graph{}
		x := g.newTensor(n*in, c.dt, true)
		w := g.newTensor(e*in*out, c.dt, true)
		y := g.newTensor(n*out, c.dt, true)
		o := &op{kind: "grouped_mm", in: []Tensor{x, w}, out: []Tensor{y}, flops: 2 * n * in * out, bwdFlops: 4 * n * in * out, matmul: true}
		one := func(m, nn, k int64) float64 { return math.Max(tm.r.gemm(c.cal, 1, m, nn, k), tm.r.launch()) }
		if got, want := tm.forward(o, g), c.slow*e*one(n/e, out, in); !closeTo(got, want) {
			t.Errorf("%s forward %g s, want %g s", c.cal, got, want)
		}
		want := c.slow * e * (one(n/e, in, out) + one(in, out, n/e))
		if got := bwdTime(tm, o, g); !closeTo(got, want) {
			t.Errorf("%s backward %g s, want %g s", c.cal, got, want)
		}
		g.tensors[w].grad = false // frozen experts: no weight gradient
		if got, want := bwdTime(tm, o, g), c.slow*e*one(n/e, in, out); !closeTo(got, want) {
			t.Errorf("%s frozen backward %g s, want %g s", c.cal, got, want)
		}
		if fb := groupedFallback(o, g); fb != (c.dt != BF16) {
			t.Errorf("%s: groupedFallback %v", c.cal, fb)
		}
	}
}

// TestConvNeXtRunsChannelsLast: torchvision's LayerNorm2d permutes to NHWC
// and back, so every ConvNeXt convolution after the stem reads NHWC-strided
// tensors (cuDNN's channels_last kernels); ResNet's stay NCHW.
func TestConvNeXtRunsChannelsLast(t *testing.T) {
	for _, tc := range []struct {
		model  string
		wantCL int // convolutions in channels_last; -1: all but the stem
	}{{"convnext-tiny", -1}, {"resnet50", 0}} {
		s := DefaultSpec()
		m := tc.model
		s.Model, s.Batch, s.Precision = &m, 8, "bf16-amp"
		_, g, _, _, _ := walkOf(t, s)
		var convs, cl int
		for i := range g.ops {
			if c := g.ops[i].conv; c != nil {
				convs++
				if c.channelsLast {
					cl++
				}
			}
		}
		want := tc.wantCL
		if want < 0 {
			want = convs - 1
		}
		if convs == 0 || cl != want {
			t.Errorf("%s: %d of %d convolutions channels_last, want %d", tc.model, cl, convs, want)
		}
	}
}

// bwdTime is op o's backward GPU time under tm.
func bwdTime(tm timeModel, o *op, g *Graph) float64 {
	t, _ := tm.backward(o, g)
	return t
}

// TestActivationBackwardMovesThreeTensors: ReLU's backward
// (threshold_backward) reads the output's gradient and the saved output
// and writes the input's gradient, three tensors of its size where the
// forward moved two; a product's backward still moves twice its forward.
func TestActivationBackwardMovesThreeTensors(t *testing.T) {
	s := DefaultSpec()
	m := "resnet50"
	s.Model, s.Batch, s.Precision = &m, 64, "bf16-amp"
	_, g, _, tm, _ := walkOf(t, s)
	var relu *op
	for i := range g.ops {
		if o := &g.ops[i]; o.kind == "relu_" {
			relu = o
			break
		}
	}
	if relu == nil {
		t.Fatal("no relu_ in ResNet-50")
	}
	size := float64(g.tensors[relu.out[0]].bytes())
	if relu.bytes != 2*size {
		t.Fatalf("relu_ forward moves %g bytes, want input and output %g", relu.bytes, 2*size)
	}
	want := math.Max(tm.r.stream("mul_", BF16, 3*size), tm.r.launch())
	if got := bwdTime(tm, relu, g); !closeTo(got, want) {
		t.Errorf("relu_ backward %g s, want three tensors' %g s", got, want)
	}
	s2 := llamaSpec()
	_, g2, _, tm2, _ := walkOf(t, s2)
	for i := range g2.ops {
		if o := &g2.ops[i]; o.kind == "mul" && len(o.in) == 2 && g2.tensors[o.in[0]].grad && g2.tensors[o.in[1]].grad {
			// at its class's rate: RMSNorm's products broadcast (steptime_bcast.go)
			want := math.Max(tm2.r.elementwise(o, g2, inDtype(o, g2), 2*o.bytes), tm2.r.launch())
			if got := bwdTime(tm2, o, g2); !closeTo(got, want) {
				t.Errorf("mul backward %g s, want twice its forward's bytes %g s", got, want)
			}
			return
		}
	}
	t.Error("no product of two graded tensors in LLaMA")
}

package memmodel

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// broadcastRun is the raw broadcast calibration (gt_calib.py --broadcast,
// H200, torch 2.11): the whole RMSNorm forward timed as one call beside
// its kernels timed one by one.
const broadcastRun = "../../testdata/dev7/calibration/calibration-broadcast.json"

// measuredBroadcast is the time the broadcast calibration measured for op
// in dtype at T tokens × H features.
func measuredBroadcast(t *testing.T, op, dtype string, tokens, hidden int) float64 {
	t.Helper()
	data, err := os.ReadFile(broadcastRun)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Broadcast []struct {
			Op, Dtype string
			T, H      int
			S         float64
		}
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for _, r := range raw.Broadcast {
		if r.Op == op && r.Dtype == dtype && r.T == tokens && r.H == hidden {
			return r.S
		}
	}
	t.Fatalf("no %s %s T=%d H=%d in %s", op, dtype, tokens, hidden, broadcastRun)
	return 0
}

// rmsNormForward walks spec's graph and returns the GPU time the model
// gives the first decoder layer's input RMSNorm (pow through the weight's
// product, casts included) and the classes its products ran as.
func rmsNormForward(t *testing.T, s Spec) (float64, []string) {
	t.Helper()
	_, g, _, tm, _ := walkOf(t, s)
	start := -1
	for i := range g.ops {
		if g.ops[i].kind == "pow" && g.ops[i].block == 0 {
			start = i
			break
		}
	}
	if start < 0 {
		t.Fatal("no RMSNorm in layer 0")
	}
	// the casts autocast or the norm inserts before pow belong to it too
	for start > 0 && g.ops[start-1].kind == "to" && g.ops[start-1].block == 0 {
		start--
	}
	var total float64
	var classes []string
	muls := 0
	for i := start; i < len(g.ops) && muls < 2; i++ {
		o := &g.ops[i]
		if o.gemm != nil {
			break
		}
		total += tm.forward(o, g)
		if o.kind == "mul" {
			muls++
			classes = append(classes, broadcastOp(o, g))
		}
	}
	return total, classes
}

// TestCalibrationBroadcastRMSNorm: LLaMA's RMSNorm forward at 8,192 tokens
// × 4,096 features, priced op by op, against the same forward timed
// whole by the broadcast calibration. Under bf16 autocast the residual
// stream is float32 and both products broadcast (x·rsqrt(var) over the
// row, weight·x over the tokens): 306 µs measured; at the contiguous rate
// the ops would take about 220 µs. In pure bf16 the input is cast up and
// the output down: 440 µs measured.
func TestCalibrationBroadcastRMSNorm(t *testing.T) {
	m := "llama2-7b"
	for _, c := range []struct {
		prec, dtype string
		tol         float64
	}{{"bf16-amp", "fp32", 0.10}, {"bf16", "bf16", 0.15}} {
		s := DefaultSpec()
		s.Model, s.Batch, s.Seq, s.Precision = &m, 1, 8192, c.prec
		got, classes := rmsNormForward(t, s)
		want := measuredBroadcast(t, "rmsnorm_fwd", c.dtype, 8192, 4096)
		t.Logf("%s: RMSNorm forward %.0f µs, measured %.0f µs", c.prec, got*1e6, want*1e6)
		if math.Abs(got/want-1) > c.tol {
			t.Errorf("%s: RMSNorm forward %.0f µs, measured %.0f µs (tolerance %.0f%%)", c.prec, got*1e6, want*1e6, 100*c.tol)
		}
		if len(classes) != 2 || classes[0] != "mul_colbcast" || classes[1] == "" {
			t.Errorf("%s: the norm's products ran as %q, want a column broadcast then a weight broadcast", c.prec, classes)
		}
	}
}

// TestBroadcastOpClasses: what makes an elementwise op a broadcast or a
// mixed-dtype kernel, and what keeps it on the contiguous path.
func TestBroadcastOpClasses(t *testing.T) {
	g := &Graph{}
	x := g.newTensor(1<<20, BF16, true)
	xf := g.newTensor(1<<20, F32, true)
	stat := g.newTensor(1<<10, BF16, false)
	w := g.newTensor(1<<10, BF16, true)
	g.tensors[w].param = 0
	wf := g.newTensor(1<<10, F32, true)
	g.tensors[wf].param = 1
	one := g.newTensor(1, BF16, false)
	out := g.newTensor(1<<20, BF16, true)
	outf := g.newTensor(1<<20, F32, true)
	for _, c := range []struct {
		name string
		o    op
		want string
	}{
		{"same shape", op{kind: "mul", in: []Tensor{x, x}, out: []Tensor{out}}, ""},
		{"same shape, mixed dtypes (a float32 residual add)", op{kind: "add", in: []Tensor{x, xf}, out: []Tensor{outf}}, ""},
		{"row statistic", op{kind: "mul", in: []Tensor{x, stat}, out: []Tensor{out}}, "mul_colbcast"},
		{"weight", op{kind: "mul", in: []Tensor{w, x}, out: []Tensor{out}}, "mul_rowbcast"},
		{"float32 weight times bf16", op{kind: "mul", in: []Tensor{wf, x}, out: []Tensor{outf}}, "mixed_mul"},
		{"scalar tensor", op{kind: "mul", in: []Tensor{x, one}, out: []Tensor{out}}, ""},
		{"up-cast", op{kind: "to", in: []Tensor{x}, out: []Tensor{outf}}, "to_fp32"},
		{"down-cast", op{kind: "to", in: []Tensor{xf}, out: []Tensor{out}}, ""},
		{"not elementwise", op{kind: "cat", in: []Tensor{x, stat}, out: []Tensor{out}}, ""},
	} {
		if got := broadcastOp(&c.o, g); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestLayerNormWeightGradientKernel: a LayerNorm whose weight trains
// backs up through two kernels, the input gradient and the weight/bias
// gradients' column reduction (ATen's GammaBetaBackward, which the
// ViT-B/16 b128 bf16 profile counts once per norm: 25 kernels, 2.33 ms
// beside 1.47 ms of input gradients). With the weights frozen (LoRA) it
// is one kernel, the input gradient alone.
func TestLayerNormWeightGradientKernel(t *testing.T) {
	count := func(s Spec) (norms, kernels float64, extra float64) {
		_, g, _, tm, _ := walkOf(t, s)
		for i := range g.ops {
			o := &g.ops[i]
			if o.kind != "layer_norm" || !g.tensors[o.in[0]].grad {
				continue
			}
			_, n := tm.backward(o, g)
			norms++
			kernels += n
			if b, ok := layerNormAffineGrad(o, g); ok {
				extra += b
				if b != 2*float64(g.tensors[o.in[0]].bytes()) {
					t.Errorf("op %d: the weight gradient reads %g bytes, want the output gradient and the input", i, b)
				}
			}
		}
		return
	}
	m := "vit-b16"
	s := DefaultSpec()
	s.Model, s.Batch, s.Precision = &m, 128, "bf16-amp"
	n, k, extra := count(s)
	if n != 25 || k != 50 || extra == 0 {
		t.Errorf("ViT-B/16: %v norms backing up through %v kernels (extra bytes %g), want 25 through 50", n, k, extra)
	}
	b := "bert-base"
	s = DefaultSpec()
	s.Model, s.Batch, s.Seq, s.Precision = &b, 8, 128, "bf16-amp"
	s.LoRA = &LoRA{Rank: 8, Targets: []string{"query", "value"}}
	if n, k, extra := count(s); n == 0 || k != n || extra != 0 {
		t.Errorf("BERT LoRA: %v norms through %v kernels (extra bytes %g), want one kernel each", n, k, extra)
	}
}

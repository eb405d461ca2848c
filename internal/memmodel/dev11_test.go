package memmodel_test

import (
	"path/filepath"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// dev11Timing is call 35's development timing pairs (testdata/dev11/timing,
// seen, timed on the lent host of the blind set late13): checkpointing on
// ViT-L/16 at b8 and b64 and on the SD 1.5 UNet at b2 and b6, LoRA r16 on
// Qwen2.5-0.5B at s1024 b2 and s512 b16, checkpointing on LLaMA-3.2-1B.
var dev11Timing = filepath.Join("..", "..", "testdata", "dev11", "timing", "results.jsonl")

// TestStepTimeDev11: 14 step times. Round 16a (launch queue bounded at
// 1,024 kernels): step median 13.8%, max 37.4% (the UNet b2 without
// checkpointing, -37%: its plain steps at b2..b8 run 138-187 ms on the lent
// hosts, flat in batch, against 114 ms at b1, where the walk has 117 ms;
// its checkpointed steps are within -13%..-6%, so its ratios +40% and +28%
// are the plain step's), ratios 2 of 7 within 10% (median 13.0%, max
// 39.8%), same-model order 16 of 19. Round 16a's early stop (the
// recomputation ends at each region's last saved tensor): ViT-L b64
// checkpointing ratio +10.5% -> +6.0%, step median 13.8% -> 13.9% (ViT-L
// b8 checkpointed -17.4% -> -17.5%), ratios 3 of 7 within 10%, median
// 12.8%, max 39.6%. Held there.
func TestStepTimeDev11(t *testing.T) {
	ev := evalTimedFile(t, dev11Timing)
	checkStepEval(t, ev, 14, stepTargets{median: 0.14, max: 0.375, ratioMedian: 0.129, ratioMax: 0.397, order: 0.84})
}

// TestCheckpointAddShrinksWithBatch: what checkpointing adds to a ViT-L/16
// step is its host work (the recomputation's Python, the saved-tensor
// hooks, torch.utils.checkpoint's bookkeeping) where the GPU idles, and
// mostly the recomputed kernels where the GPU is the bottleneck: dev11
// measured +63.8 ms at b8 (host-bound) and +23.2 ms at b64, where the
// GPU's added work alone is ~23 ms. The walk adds the same host work at
// both sizes, so the step's add must shrink at b64 because the two-clock
// pipeline hides it behind backward kernels queued before each
// recomputation, not because of a batch-dependent constant. The walk:
// +58.6 and +33.1 ms, and since round 16a's early stop (no fc2 GEMM or
// residual add recomputed) +58.4 and +28.2 ms; what stays exposed at
// b64 is the checkpointed forward's host work (entry bookkeeping and
// pack hooks), which outruns the forward's kernels.
// Round 21: the walk runs on the calibration machine's host costs here,
// not the default median lent host (x1.2): these ViT-L rows ran on a fast
// host (probe loop 31 ns, the fastest of the lent hosts), and at x1.2 the
// checkpointed b64 step's host work (119 ms) outgrows its GPU work (98
// ms), so nothing hides: predicted +43.8 ms at b64 against +23.2
// measured. This test holds the pipeline's hiding, which needs the host
// that timed it.
func TestCheckpointAddShrinksWithBatch(t *testing.T) {
	ws, _, err := measured.ReadTimed(dev11Timing)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := measured.EvalStepTimeWith(ws, memmodel.CalibrationHostCosts())
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]measured.StepRow{}
	for _, r := range ev.Rows {
		rows[r.Name] = r
	}
	add := func(b string) (meas, pred, host float64) {
		p, ok1 := rows["dev11-t-vitl16-"+b+"-bf16"]
		c, ok2 := rows["dev11-t-vitl16-"+b+"-bf16-ckpt"]
		if !ok1 || !ok2 {
			t.Fatalf("dev11 ViT-L %s pair missing", b)
		}
		return c.Measured - p.Measured, c.Predicted - p.Predicted, c.HostS - p.HostS
	}
	m8, p8, h8 := add("b8")
	m64, p64, h64 := add("b64")
	t.Logf("checkpointing adds: b8 measured %+.1f ms predicted %+.1f (host %+.1f); b64 measured %+.1f predicted %+.1f (host %+.1f)",
		1e3*m8, 1e3*p8, 1e3*h8, 1e3*m64, 1e3*p64, 1e3*h64)
	if m64 > 0.5*m8 {
		t.Fatalf("the timings no longer show the add shrinking: %+.1f ms at b64, %+.1f at b8", 1e3*m64, 1e3*m8)
	}
	if h64 < 0.99*h8 || h64 > 1.01*h8 {
		t.Errorf("host issue time added: %.1f ms at b64, %.1f at b8: checkpointing's host work is per op, not per sample", 1e3*h64, 1e3*h8)
	}
	if p8 < 0.8*m8 || p8 > 1.2*m8 {
		t.Errorf("b8 (host-bound): predicted add %+.1f ms, measured %+.1f (±20%%)", 1e3*p8, 1e3*m8)
	}
	if p64 > 0.6*p8 {
		t.Errorf("b64: predicted add %+.1f ms is more than 60%% of b8's %+.1f: the host work is not hiding behind the GPU", 1e3*p64, 1e3*p8)
	}
	if p64 > 1.5*m64 {
		t.Errorf("b64: predicted add %+.1f ms, measured %+.1f (≤1.5×)", 1e3*p64, 1e3*m64)
	}
}

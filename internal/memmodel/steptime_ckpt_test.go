package memmodel

import (
	"math"
	"testing"
)

// TestCheckpointHostCostHidesBehindGPU: torch.utils.checkpoint's own
// Python (HostCosts.Ckpt) is paid once per checkpointed region, on the
// host only, and nothing in it waits for the GPU. A host-bound step (batch
// 1, 16 tokens: the GPU idles) pays all of it; a GPU-bound one (float32,
// 8 × 1,024 tokens) hides it behind the backward kernels queued before
// each recomputation. Until round 15 the walk drained the GPU before every
// recomputation, which exposed the region's host time at any size.
func TestCheckpointHostCostHidesBehindGPU(t *testing.T) {
	const extra = 1e-3 // one more millisecond per region
	for _, c := range []struct {
		name      string
		batch     int
		seq       int
		precision string
		hostBound bool
	}{
		{"b1 s16 bf16", 1, 16, "bf16-amp", true},
		{"b8 s1024 fp32", 8, 1024, "fp32", false},
	} {
		s := llamaSpec()
		s.Batch, s.Seq, s.Precision, s.Checkpoint = c.batch, c.seq, c.precision, "block"
		cfgc, g, cfg, tm, base := walkOf(t, s)
		regions := float64(len(newGenerator(g, cfg).regions))
		if regions != 24 {
			t.Fatalf("%s: %g checkpointed regions, want Llama-small's 24 layers", c.name, regions)
		}
		tm.Ckpt += extra
		more, _ := cfgc.walk(g, cfg, tm)
		if got, want := more.hostBusy-base.hostBusy, regions*extra; math.Abs(got-want) > 1e-9 {
			t.Errorf("%s: host issue time grew %.3f ms, want %.3f (once per region)", c.name, 1e3*got, 1e3*want)
		}
		if more.busy != base.busy {
			t.Errorf("%s: checkpoint's Python changed the GPU's work", c.name)
		}
		step := more.host - base.host
		t.Logf("%s: host %.1f ms, GPU %.1f ms; %g ms more per region adds %.1f ms to the step", c.name,
			1e3*base.hostBusy, 1e3*base.busy, 1e3*extra, 1e3*step)
		if c.hostBound && math.Abs(step-regions*extra) > 0.05*regions*extra {
			t.Errorf("%s (host-bound): the step grew %.1f ms, want all %.1f", c.name, 1e3*step, 1e3*regions*extra)
		}
		if !c.hostBound && step > 0.25*regions*extra {
			t.Errorf("%s (GPU-bound): the step grew %.1f ms of %.1f, want it mostly hidden", c.name, 1e3*step, 1e3*regions*extra)
		}
	}
}

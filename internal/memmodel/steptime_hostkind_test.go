package memmodel

import (
	"math"
	"testing"
)

// TestHostKindPricesItsOps: HostCosts.Kind prices every forward op of a
// named kind in place of Op, and nothing else. ResNet-50 has 53
// convolutions and 53 batch norms (the stem, 16 bottlenecks of three,
// four downsample branches); a higher convolution price adds 53 times the
// difference to the host and nothing to the GPU. An "add" (a tensor-level
// op, HostCosts.Small) and a kind the model lacks change nothing.
func TestHostKindPricesItsOps(t *testing.T) {
	const extra = 1e-6
	m := "resnet50"
	s := DefaultSpec()
	s.Model, s.Batch, s.Precision = &m, 1, "fp32"
	c, g, cfg, tm, base := walkOf(t, s)
	for _, k := range []struct {
		kind string
		n    float64
	}{{"conv2d", 53}, {"batch_norm", 53}, {"add_", 0}, {"layer_norm", 0}} {
		tk := tm
		tk.Kind = map[string]float64{k.kind: tm.Op + extra}
		more, _ := c.walk(g, cfg, tk)
		if got := (more.hostBusy - base.hostBusy) / extra; math.Abs(got-k.n) > 1e-6 {
			t.Errorf("%s priced %g above Op: %.2f ops charged, want %g", k.kind, extra, got, k.n)
		}
		if more.busy != base.busy {
			t.Errorf("%s: a host price changed the GPU's work", k.kind)
		}
	}
	h := HostCosts{Op: 1, Kind: map[string]float64{"conv2d": 2}}
	if got := h.Scaled(1.5).Kind["conv2d"]; got != 3 {
		t.Errorf("Scaled(1.5) priced conv2d at %g, want 3", got)
	}
	if h.Kind["conv2d"] != 2 {
		t.Errorf("Scaled changed the costs it scaled")
	}
	if h.zero() || !(HostCosts{}).zero() || (HostCosts{Kind: map[string]float64{"x": 1}}).zero() {
		t.Errorf("zero() does not tell given costs from none")
	}
}

// TestHostBlockPerLayer: HostCosts.Block is paid once per layer each time
// its forward runs. Llama-small's 24 decoder layers pay it 24 times;
// checkpointed per layer, 48 (every layer is recomputed once in the
// backward); every second layer, 36; selectively (the attention's
// internals recomputed, not the layer's modules), 24; compiled, never
// (Inductor's wrapper runs no module Python). HostCosts.Kind's
// "layer:llama" prices the same layers in place of Block; "layer:bert"
// leaves them alone.
func TestHostBlockPerLayer(t *testing.T) {
	const extra = 1e-6
	for _, c := range []struct {
		ckpt    string
		compile bool
		want    float64
	}{{"none", false, 24}, {"block", false, 48}, {"every:2", false, 36}, {"selective", false, 24}, {"none", true, 0}} {
		s := llamaSpec()
		s.Batch, s.Seq, s.Checkpoint, s.Compile = 1, 16, c.ckpt, c.compile
		cf, g, cfg, tm, base := walkOf(t, s)
		tb := tm
		tb.Block += extra
		more, _ := cf.walk(g, cfg, tb)
		if got := (more.hostBusy - base.hostBusy) / extra; math.Abs(got-c.want) > 1e-6 {
			t.Errorf("checkpoint %s, compiled %v: %.2f layers charged, want %g", c.ckpt, c.compile, got, c.want)
		}
		// a family's own layer price replaces Block; another's does not
		for fam, n := range map[string]float64{"llama": c.want, "bert": 0} {
			tf := tm
			tf.Kind = map[string]float64{"layer:" + fam: tm.Block + extra}
			more, _ = cf.walk(g, cfg, tf)
			if got := (more.hostBusy - base.hostBusy) / extra; math.Abs(got-n) > 1e-6 {
				t.Errorf("layer:%s, checkpoint %s, compiled %v: %.2f layers charged, want %g", fam, c.ckpt, c.compile, got, n)
			}
		}
	}
}

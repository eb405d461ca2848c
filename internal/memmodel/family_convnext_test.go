package memmodel

import (
	"testing"

	"github.com/vramkit/vramkit/internal/allocsim"
)

// ConvNeXt's 4×4/4 stem under bf16 autocast, in three checkpointed
// snapshots (ConvNeXt-S b96 dev7, ConvNeXt-T b64 and ConvNeXt-S b32
// vision6): cuDNN takes no forward workspace, and one weight-gradient
// workspace of 7/3 of the stem's output plus 12,263,568 bytes per step.
// The generic half-precision patchify rule asked 1.5× the output forward
// and backward (86,704,128 bytes at b96: an 84 MiB segment the GPU never
// made, most of ConvNeXt-S b96's +15.7% on peak reserved).
func TestConvNeXtBF16StemWorkspace(t *testing.T) {
	if testing.Short() {
		t.Skip("replays three snapshots")
	}
	for _, c := range []struct {
		model string
		batch int
		snap  string
	}{
		{"convnext-small", 96, "../../testdata/dev7/snapshots/dev7-convnext-small-b96-bf16-ckpt-snap.pickle.gz"},
		{"convnext-tiny", 64, "../../testdata/captures/vision6/dev6-convnext-tiny-b64-bf16-ckpt.pickle.gz"},
		{"convnext-small", 32, "../../testdata/captures/vision6/dev6-convnext-small-b32-bf16-ckpt.pickle.gz"},
	} {
		out := int64(c.batch) * 96 * 56 * 56 * 2 // the stem's bf16 output
		wgrad, generic := 7*out/3+12263568, 3*out/2
		d := replaySnapshot(t, c.snap)
		count := func(reqs []allocsim.Request, size int64) int {
			n := 0
			for _, r := range reqs {
				if r.Kind == allocsim.ReqAlloc && r.Size == size {
					n++
				}
			}
			return n
		}
		steps := count(d.Result.Requests, wgrad)
		if steps < 2 || count(d.Result.Requests, generic) != 0 {
			t.Fatalf("%s b%d: the snapshot requests %d bytes %d times and %d bytes %d times", c.model, c.batch,
				wgrad, steps, generic, count(d.Result.Requests, generic))
		}
		spec := DefaultSpec()
		m := c.model
		spec.Model, spec.Batch, spec.Image, spec.Precision, spec.Checkpoint = &m, c.batch, 224, "bf16-amp", "block"
		cfg, err := resolve(spec)
		if err != nil {
			t.Fatal(err)
		}
		g := cfg.buildGraph()
		st := generate(g, cfg.stepConfig(g, steps))
		if n, f := count(st.Requests, wgrad), count(st.Requests, generic); n != steps || f != 0 {
			t.Errorf("%s b%d: %d requests of %d bytes generated (the snapshot's %d steps make %d), %d of %d (none)",
				c.model, c.batch, n, wgrad, steps, steps, f, generic)
		}
	}
}

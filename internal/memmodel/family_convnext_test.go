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

// convNeXtSnapshots are the ConvNeXt H200 memory-history snapshots the
// tests below replay (torch 2.11, AdamW, 224² images).
var convNeXtSnapshots = []struct {
	model, prec string
	batch       int
	ckpt        bool
	snap        string
}{
	{"convnext-small", "bf16-amp", 96, true, "../../testdata/dev7/snapshots/dev7-convnext-small-b96-bf16-ckpt-snap.pickle.gz"},
	{"convnext-small", "bf16-amp", 64, true, "../../testdata/dev9/families/dev9-convnext-small-b64-bf16-ckpt-snap.pickle.gz"},
	{"convnext-small", "bf16-amp", 32, true, "../../testdata/captures/vision6/dev6-convnext-small-b32-bf16-ckpt.pickle.gz"},
	{"convnext-tiny", "bf16-amp", 64, true, "../../testdata/captures/vision6/dev6-convnext-tiny-b64-bf16-ckpt.pickle.gz"},
	{"convnext-tiny", "fp32", 64, true, "../../testdata/captures/vision6/dev6-convnext-tiny-b64-fp32-ckpt.pickle.gz"},
	{"convnext-tiny", "bf16-amp", 128, false, "../../testdata/blind/convnext-tiny-b128-bf16.pickle.gz"},
}

// convNeXtStream generates the stream of one of convNeXtSnapshots for
// steps training steps.
func convNeXtStream(t *testing.T, model, prec string, batch int, ckpt bool, steps int) (*config, *Stream) {
	t.Helper()
	spec := DefaultSpec()
	m := model
	spec.Model, spec.Batch, spec.Image, spec.Precision = &m, batch, 224, prec
	if ckpt {
		spec.Checkpoint = "block"
	}
	c, err := resolve(spec)
	if err != nil {
		t.Fatal(err)
	}
	g := c.buildGraph()
	return c, generate(g, c.stepConfig(g, steps))
}

// Every bf16 depthwise 7×7 conv's weight gradient takes a cuDNN workspace
// of N·C·1568 bytes (depthwiseHalfWgradWorkspace), at every stage, batch
// and model of the traces; the generator asked none, so ConvNeXt-S b96
// checkpointed lacked the 14-116 MB transients that decide where its
// backward's blocks land. Counted in both streams as a request right after
// the weight gradient (c·49 bf16) and freed at once: once per block and
// step in the snapshots (2 or 3 steps), so 3 per block in 3 generated ones.
func TestConvNeXtDepthwiseWorkspace(t *testing.T) {
	if testing.Short() {
		t.Skip("replays ConvNeXt snapshots")
	}
	count := func(reqs []allocsim.Request, c, ws int64) int {
		n := 0
		for i, r := range reqs {
			if r.Kind == allocsim.ReqAlloc && r.Size == ws && i > 0 && i+1 < len(reqs) &&
				reqs[i-1].Kind == allocsim.ReqAlloc && reqs[i-1].Size == c*49*2 &&
				reqs[i+1].Kind == allocsim.ReqFree && reqs[i+1].ID == r.ID {
				n++
			}
		}
		return n
	}
	for _, s := range convNeXtSnapshots {
		if s.prec != "bf16-amp" {
			continue
		}
		reqs := replaySnapshot(t, s.snap).Result.Requests
		_, st := convNeXtStream(t, s.model, s.prec, s.batch, s.ckpt, 3)
		blocks := []int{3, 3, 9, 3}
		if s.model == "convnext-small" {
			blocks[2] = 27
		}
		for k, c := range []int64{96, 192, 384, 768} {
			ws := int64(s.batch) * c * 1568
			real, gen := count(reqs, c, ws), count(st.Requests, c, ws)
			if real == 0 || real%blocks[k] != 0 {
				t.Errorf("%s b%d c%d: %d requests of %d bytes in the snapshot, not one per block and step", s.model, s.batch, c, real, ws)
			}
			if gen != 3*blocks[k] {
				t.Errorf("%s b%d c%d: %d workspaces of %d bytes generated for 3 steps, want %d (the snapshot: %d)",
					s.model, s.batch, c, gen, ws, 3*blocks[k], real)
			}
		}
	}
}

// The generated stream of every ConvNeXt snapshot replays to the
// snapshot's own peak reserved, to the byte: the same segments, grown at
// the same points, as the caching allocator grew them on the H200. Before
// the stem's workspaces, CNBlock's Sequential lifetimes, the depthwise
// weight-gradient workspace, the last stage's NCHW gradient, the layer
// scale's backward order and the conv/cast backward order (gradients
// accumulated after the node returns, the checkpoint's frame released
// with the first saving op) the replays were +5.9% (ConvNeXt-S b96),
// 0 (S b64), -0.6% (S b32), +0.2% (T b64), +1.5% (T b64 fp32) and +1.0%
// (T b128, not checkpointed); with only some of them, up to ±13%.
func TestConvNeXtCheckpointedSegments(t *testing.T) {
	if testing.Short() {
		t.Skip("replays ConvNeXt snapshots")
	}
	for _, s := range convNeXtSnapshots {
		d := replaySnapshot(t, s.snap)
		c, st := convNeXtStream(t, s.model, s.prec, s.batch, s.ckpt, 3)
		_, reserved := c.replay(st)
		if want := d.Result.Stats.ReservedBytes.All.Peak; reserved != want {
			t.Errorf("%s b%d %s: the generated stream's peak reserved is %d, the snapshot's %d (%+.2f%%)",
				s.model, s.batch, s.prec, reserved, want, 100*(float64(reserved)/float64(want)-1))
		}
	}
}

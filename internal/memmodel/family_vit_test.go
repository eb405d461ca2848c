package memmodel

import (
	"testing"

	"github.com/vramkit/vramkit/internal/allocsim"
)

// ViT's patch conv under fp16 and bf16 autocast, in three checkpointed
// snapshots: cuDNN's forward workspace is 8/3 of the image and of the
// weight plus the output (the image's 3 channels padded to 8), its
// weight-gradient workspace the padded image plus the output plus
// w·(40/3 + n/12), once per step each, within cuDNN's tail of the bytes
// below (vitStemWorkspace). The generic strided rule asked 1.5× the output
// forward and that twice backward (ViT-L/16 b128 fp16: 73.5 MiB where
// cuDNN took 151, 73.5 and 75 MiB where it took 183; late19's blind row of
// that configuration was planned 8.9% under on peak reserved, 4.5% with
// these workspaces).
func TestViTHalfStemWorkspace(t *testing.T) {
	if testing.Short() {
		t.Skip("replays three snapshots")
	}
	for _, c := range []struct {
		model, prec string
		batch       int
		snap        string
		fwd, wgrad  int64 // the snapshot's requests
	}{
		{"vit-b16", "bf16-amp", 64, "../../testdata/dev8/snapshots/dev8-vitb16-b64-bf16-ckpt-snap.pickle.gz", 73793552, 92668048},
		{"vit-b16", "bf16-amp", 128, "../../testdata/blind/vitb16-b128-bf16-ckpt.pickle.gz", 144441360, 169607312},
		{"vit-l16", "fp16-amp", 128, "../../testdata/dev23/dev23-vitl16-b128-fp16-ckpt-snap.pickle.gz", 158334992, 191889552},
	} {
		d := replaySnapshot(t, c.snap)
		count := func(reqs []allocsim.Request, size int64) int {
			n := 0
			for _, r := range reqs {
				if r.Kind == allocsim.ReqAlloc && r.Size/512 == size/512 {
					n++
				}
			}
			return n
		}
		steps := count(d.Result.Requests, c.fwd)
		if steps < 2 || count(d.Result.Requests, c.wgrad) != steps {
			t.Fatalf("%s b%d: the snapshot requests %d bytes %d times and %d bytes %d times", c.model, c.batch,
				c.fwd, steps, c.wgrad, count(d.Result.Requests, c.wgrad))
		}
		spec := DefaultSpec()
		m := c.model
		spec.Model, spec.Batch, spec.Precision, spec.Checkpoint = &m, c.batch, c.prec, "block"
		cfg, err := resolve(spec)
		if err != nil {
			t.Fatal(err)
		}
		g := cfg.buildGraph()
		st := generate(g, cfg.stepConfig(g, steps))
		if f, w := count(st.Requests, c.fwd), count(st.Requests, c.wgrad); f != steps || w != steps {
			t.Errorf("%s b%d: %d requests of %d bytes and %d of %d generated, want %d of each (one a step)",
				c.model, c.batch, f, c.fwd, w, c.wgrad, steps)
		}
	}
}

// The ViT-L/16 b128 fp16 checkpointed trace (testdata/dev23), three steps:
// the generated stream makes as many requests of every size of 1 MiB and
// more as the snapshot records. Before the patch conv's workspaces and
// ln_1's contiguous copy of its output gradient (in_proj returns it in
// MultiheadAttention's seq-first strides), 24 requests of the token
// stream's 98.5 MiB a step were missing, and the 151 and 183 MiB
// workspaces were 73.5 and 75 MiB ones.
func TestViTRequestSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("replays a snapshot")
	}
	spec := DefaultSpec()
	m := "vit-l16"
	spec.Model, spec.Batch, spec.Precision, spec.Checkpoint = &m, 128, "fp16-amp", "block"
	real, gen := requestCensus(t, "../../testdata/dev23/dev23-vitl16-b128-fp16-ckpt-snap.pickle.gz", spec)
	for size, n := range real {
		if size >= 1<<20 && gen[size] != n {
			t.Errorf("%.2f MiB: %d requests generated, the snapshot has %d", float64(size)/(1<<20), gen[size], n)
		}
	}
	for size, n := range gen {
		if size >= 1<<20 && real[size] == 0 {
			t.Errorf("%.2f MiB: %d requests generated, the snapshot has none", float64(size)/(1<<20), n)
		}
	}
}

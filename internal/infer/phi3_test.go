package infer

import (
	"testing"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// TestPhi3DynamicRequestSizes replays dev24's snapshot of Phi-3 mini fp16
// generate with a DynamicCache (b16, a 1500-token prompt, 200 new tokens:
// late17's blind point) and requires the generated stream to make as many
// requests of every size of 1 MiB and more. Without the copy that
// transpose(1, 2).contiguous() makes of flash attention's output in the
// prefill (q laid out heads-first after rotary of the strided qkv slice)
// the stream lacked 32 requests of 140.6 MiB, one a layer, and planned the
// point's peak reserved 11.8% over; with it, within 0.1%.
func TestPhi3DynamicRequestSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("replays a snapshot")
	}
	snap, err := snapshot.LoadFile("../../testdata/dev24/dev24-gen-phi3-mini-fp16-dynamic-nograd-snap.pickle.gz")
	if err != nil {
		t.Fatal(err)
	}
	d, err := allocsim.ReplayDevice(snap, 0, allocsim.DefaultReplayOptions())
	if err != nil {
		t.Fatal(err)
	}
	c, err := resolve(genSpec("phi-3-mini", 16, 1500, 200, "fp16", ""))
	if err != nil {
		t.Fatal(err)
	}
	m := &model{c: c, s: newStream(), w: buildWeights(c)}
	m.generate()
	census := func(reqs []allocsim.Request) map[int64]int {
		n := map[int64]int{}
		for _, r := range reqs {
			if r.Kind == allocsim.ReqAlloc && r.Size >= 1<<20 {
				n[d.Config.RoundSize(r.Size)]++
			}
		}
		return n
	}
	real, gen := census(d.Result.Requests), census(m.s.reqs)
	for size, n := range real {
		if gen[size] != n {
			t.Errorf("%.2f MiB: %d requests generated, the snapshot has %d", float64(size)/(1<<20), gen[size], n)
		}
	}
	for size, n := range gen {
		if real[size] == 0 {
			t.Errorf("%.2f MiB: %d requests generated, the snapshot has none", float64(size)/(1<<20), n)
		}
	}
}

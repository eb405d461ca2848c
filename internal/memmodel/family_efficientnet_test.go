package memmodel

import (
	"testing"

	"github.com/vramkit/vramkit/internal/allocsim"
)

// EfficientNet-B3 at batch 64 in bf16 AMP, 224 px (gt_work.py's side),
// two steps of the dev10 snapshot. The weight gradients of its 1×1
// convs on the 7×7 maps take cuDNN's per-image float32 partials: 216 MiB
// for the last block's 384↔2304 pair, 144 MiB for the 384→1536 head,
// 130.5 MiB for 1392→384 and 78.8 MiB for each 232→1392 expansion, one
// request per conv per step. Before they were modelled the generator made
// none of them, its largest backward scratch was 92 MiB, and it planned the
// row (late12's) 3.35% low in allocated: the step's peak is the 216 MiB
// request of the head's backward.
func TestEfficientNetB3PerImageWorkspaces(t *testing.T) {
	if testing.Short() {
		t.Skip("replays a snapshot")
	}
	d := replaySnapshot(t, "../../testdata/dev10/dev10-efficientnet-b3-b64-bf16-snap.pickle.gz")
	model := "efficientnet-b3"
	spec := DefaultSpec()
	spec.Model, spec.Batch, spec.Image, spec.Precision = &model, 64, 224, "bf16-amp"
	c, err := resolve(spec)
	if err != nil {
		t.Fatal(err)
	}
	g := c.buildGraph()
	st := generate(g, c.stepConfig(g, 2))
	real, gen := sizeCensus(d.Result.Requests, &d.Config), sizeCensus(st.Requests, &c.allocConf)
	const mib = 1 << 20
	for _, size := range []int64{216 * mib, 144 * mib, 130.5 * mib, 82673664} {
		if real[size] == 0 || gen[size] != real[size] {
			t.Errorf("%.3f MiB: %d requests generated, the snapshot has %d", float64(size)/mib, gen[size], real[size])
		}
	}
	peak, _, _ := st.LivePeak(c.allocConf)
	want := peakAllocated(d.Result.Requests, &d.Config)
	if e := float64(peak-want) / float64(want); e < -0.01 || e > 0.01 {
		t.Errorf("peak allocated %d, the snapshot's %d (%+.2f%%)", peak, want, 100*e)
	}
}

// peakAllocated is the highest sum of live blocks (rounded as conf
// rounds them) over reqs.
func peakAllocated(reqs []allocsim.Request, conf *allocsim.Config) int64 {
	live := map[int32]int64{}
	var cur, peak int64
	for _, r := range reqs {
		switch r.Kind {
		case allocsim.ReqAlloc:
			if r.Size > 0 {
				live[r.ID] = conf.RoundSize(r.Size)
				cur += live[r.ID]
				peak = maxI64(peak, cur)
			}
		case allocsim.ReqFree:
			cur -= live[r.ID]
			delete(live, r.ID)
		}
	}
	return peak
}

package memmodel_test

import (
	"path/filepath"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestLogitsSplitVariant checks the runs where PyTorch placed cuBLAS's
// backward workspace in a freed fp32 logits block, splitting it for good.
// Replayed on the top-down device, with autocast's casts in the order the
// trace shows, the point prediction splits it too: within 3% of the
// measured peak reserved (it was 13-15% under with addresses handed out
// upwards and the input cast first), and the band holds the measurement.
// Qwen3 eager (late-fam-qwen3-a-bf16-eager, no snapshot) is such a run too:
// its peak reserved is the replay's plus one logits segment less one 32 MiB
// one, to the byte; the replay splits the block once the GQA repeat copies
// live as long as eager_attention_forward's locals (attend.go).
// On a run whose replay already puts the workspace in the logits block
// (Qwen3 plain: no smaller free block) the variant is no alternative and
// absent.
func TestLogitsSplitVariant(t *testing.T) {
	if testing.Short() {
		t.Skip("replays five workloads twice")
	}
	load := func(dir string) map[string]measured.GTRow {
		rs, err := measured.ReadGTRows(filepath.Join(dir, "results.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]measured.GTRow{}
		for _, r := range rs {
			m[r.Name] = r
		}
		return m
	}
	late := load(filepath.Join(lateDir, "families"))
	dev := load(filepath.Join(capturesDir, "families"))
	estimate := func(r measured.GTRow) *memmodel.Result { return planRow(t, r) }
	for _, name := range []string{"late-fam-gemma2-a-bf16-ckpt", "late-fam-qwen3-a-bf16-lora16", "late-fam-qwen3-a-bf16-eager"} {
		m, ok := late[name]
		if !ok {
			t.Fatalf("%s: not in the late set", name)
		}
		r := estimate(m)
		if e := measured.Rel(r.PeakReserved, m.MaxReserved); e < -0.005 || e > 0.03 {
			t.Errorf("%s: point prediction %+.2f%% of measured reserved; the replay should split the logits block as the run did", name, 100*e)
		}
		t.Logf("%s: measured %d, point %d, variant %d, band top %d", name, m.MaxReserved, r.PeakReserved, r.LogitsSplitReserved, r.ReservedBand.High)
		if !measured.InBand(m.MaxReserved, r.ReservedBand) {
			t.Errorf("%s: measured reserved %d outside the band %+v", name, m.MaxReserved, r.ReservedBand)
		}
	}
	m, ok := dev["fam-qwen3-a-bf16"]
	if !ok {
		t.Fatal("fam-qwen3-a-bf16: not in the families captures")
	}
	if r := estimate(m); r.LogitsSplitReserved != 0 {
		t.Errorf("fam-qwen3-a-bf16: variant %d, want none (the replay's best fit is the logits block); measured %+.2f%%",
			r.LogitsSplitReserved, 100*measured.Rel(r.PeakReserved, m.MaxReserved))
	}
}

package memmodel_test

import (
	"path/filepath"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestAccuracyVisionCheckpointing holds issue 13's targets and issue 18's
// bands on the vision6 dev captures (testdata/captures/vision6): ConvNeXt-T
// b64 bf16 and fp32, ConvNeXt-S b32 bf16 and ResNet-50 b64 bf16, each with
// every block checkpointed, and EfficientNet-B0 b64 bf16. They were 2.8–4.6%
// low on allocated (ConvNeXt: the downsampling layers put in the checkpoint
// regions, the layer-scale backward) and 5–27% low on reserved (the fp32
// depthwise-conv and bf16 ResNet-stem cuDNN workspaces), so each row's
// allocated peak is held within 3% and its reserved within 5%.
func TestAccuracyVisionCheckpointing(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 5 workloads")
	}
	rows, err := measured.ReadGTRows(filepath.Join(capturesDir, "vision6", "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 5 {
		t.Fatalf("only %d vision6 rows", len(rows))
	}
	var er, em []float64
	farUnder := 0
	for _, m := range rows {
		s, why := measured.GTSpec(m)
		if why != "" {
			t.Fatalf("%s: no spec: %s", m.Name, why)
		}
		r, err := memmodel.Estimate(s, memmodel.DefaultOptions())
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		a, rs := measured.Rel(r.PeakAllocated, m.MaxAllocated), measured.Rel(r.PeakReserved, m.MaxReserved)
		t.Logf("%-36s allocated %+6.2f%%  reserved %+6.2f%%", m.Name, 100*a, 100*rs)
		er, em = append(er, rs), append(em, measured.Rel(r.ModelReserved, m.MaxReserved))
		if rs < -0.02 {
			farUnder++
		}
		if a < -0.03 || a > 0.03 {
			t.Errorf("%s: allocated %+.2f%% (within 3%%)", m.Name, 100*a)
		}
		if rs < -0.05 || rs > 0.05 {
			t.Errorf("%s: reserved %+.2f%% (within 5%%)", m.Name, 100*rs)
		}
		if !measured.InBand(m.MaxReserved, r.ReservedBand) {
			t.Errorf("%s: reserved outside the predicted band", m.Name)
		}
		// EfficientNet-B0 bf16's allocated (the model 2.7% low until
		// resv12's per-image cuDNN partials, -0.04% since) is inside again
		if !measured.InBand(m.MaxAllocated, r.AllocatedBand) {
			t.Errorf("%s: allocated outside the predicted band", m.Name)
		}
	}
	// issue 13's targets on the model's figure; the headline adds the
	// allowance for untraced allocations (26 MiB + 1%), over rows the
	// model already over-predicts by 2-4%: its median was held at 3.5%;
	// with late6 and late7 in the band data the allowance is 28 MiB +
	// 1.25% (was 26 MiB + 1%): 3.54%, held at 3.6%
	sm, sr := measured.Summarize(em), measured.Summarize(er)
	if sm.MedianAbs > 0.03 || sm.MaxAbs > 0.08 || 5*farUnder > len(er) {
		t.Errorf("model's reserved: median |err| %.1f%% (target 3%%), max %.1f%% (8%%), %d of %d more than 2%% low (one in five)",
			100*sm.MedianAbs, 100*sm.MaxAbs, farUnder, len(er))
	}
	if sr.MedianAbs > 0.036 || sr.MaxAbs > 0.08 {
		t.Errorf("reserved with the allowance: median |err| %.1f%% (held at 3.6%%), max %.1f%% (8%%)", 100*sr.MedianAbs, 100*sr.MaxAbs)
	}
}

package memmodel

import (
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/units"
)

// TestFSDPMetaInit: FSDP2 on eight GPUs, Llama 3 70B. Loaded the captured
// way (model.to(device), then fully_shard) the whole model is on every
// GPU first, so the peak is at load with 8× the shards' parameters; built
// on the meta device only the shards are ever allocated, the peak moves to
// the step, and the load-peak plan's note gives the meta plan's figures.
func TestFSDPMetaInit(t *testing.T) {
	spec := func(init string) Spec {
		s := DefaultSpec()
		m := "llama3-70b"
		s.Model, s.Batch, s.Seq, s.Precision, s.Checkpoint = &m, 1, 2048, "bf16-amp", "block"
		s.Parallel = Parallel{Strategy: "fsdp", GPUs: 8, TP: 1, PP: 1, MicroBatches: 1, Init: init}
		return s
	}
	gpu, err := Estimate(spec(""), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if err := AdviseLoad(spec(""), DefaultOptions(), gpu); err != nil {
		t.Fatal(err)
	}
	meta, err := Estimate(spec("meta"), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	whole := gpu.Params * 4 // fp32 parameters under autocast
	if gpu.PeakPhase != "load" || gpu.Breakdown["parameters"] < whole*9/10 {
		t.Errorf("model.to(device) first: peak in %s with %d B of parameters, want load with the whole %d", gpu.PeakPhase, gpu.Breakdown["parameters"], whole)
	}
	if meta.PeakPhase == "load" || meta.Breakdown["parameters"] > whole/8*11/10 {
		t.Errorf("meta device: peak in %s with %d B of parameters, want the step's with the shards (%d)", meta.PeakPhase, meta.Breakdown["parameters"], whole/8)
	}
	if meta.PeakReserved >= gpu.PeakReserved {
		t.Errorf("meta reserved %d, not below model.to(device)'s %d", meta.PeakReserved, gpu.PeakReserved)
	}
	var note string
	for _, n := range gpu.Notes {
		if strings.HasPrefix(n, "the peak is at load:") {
			note = n
		}
	}
	if want := "the process needs " + units.Bytes(meta.SteadyProcess) + ", at most " + units.Bytes(meta.ProcessHigh); !strings.HasSuffix(note, want) {
		t.Errorf("load note %q, want it to end %q", note, want)
	}
	if !strings.Contains(strings.Join(meta.Notes, "\n"), "FSDP2 from the meta device") {
		t.Errorf("meta plan's notes say nothing of the unmeasured load: %q", meta.Notes)
	}
	bad := spec("meta")
	bad.Parallel.Strategy = "ddp"
	if _, err := Estimate(bad, DefaultOptions()); err == nil || !strings.Contains(err.Error(), "parallel.init: meta-device init is planned for fsdp") {
		t.Errorf("ddp from the meta device: %v", err)
	}
}

package analyze

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// TestHeldOut runs analyze on the two held-out sets captured after it was
// written (testdata/unseen, testdata/blind: other families, shapes, LoRA,
// fp16 with accumulation) and checks what PyTorch's own figures settle:
// the iteration count, peak allocated to the byte, parameters within 3% of
// 4 × params, and for full AdamW training its state within 5% of 8 × params.
func TestHeldOut(t *testing.T) {
	n := 0
	for _, set := range []string{"unseen", "blind"} {
		dir := filepath.Join("../../testdata", set)
		f, err := os.Open(filepath.Join(dir, "results.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var r struct {
				Name         string `json:"name"`
				Params       int64  `json:"params"`
				Iters        int    `json:"iters"`
				Opt          string `json:"opt"`
				Lora         int    `json:"lora"`
				MaxAllocated int64  `json:"max_allocated"`
			}
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			n++
			s, err := snapshot.LoadFile(filepath.Join(dir, r.Name+".pickle.gz"))
			if err != nil {
				t.Fatal(err)
			}
			o := DefaultOptions()
			o.Tune = false
			rep, err := Analyze(s, o)
			if err != nil {
				t.Fatal(err)
			}
			d := rep.Devices[0]
			if d.Iterations != r.Iters {
				t.Errorf("%s: %d iterations, ran %d", r.Name, d.Iterations, r.Iters)
			}
			if d.PeakAllocated != r.MaxAllocated {
				t.Errorf("%s: peak allocated %d, PyTorch %d", r.Name, d.PeakAllocated, r.MaxAllocated)
			}
			pb := float64(4 * r.Params)
			if e := math.Abs(float64(d.Categories.Parameters)-pb) / pb; e > 0.03 {
				t.Errorf("%s: parameters %d, 4 x params %.0f (%.1f%% off)", r.Name, d.Categories.Parameters, pb, 100*e)
			}
			if r.Opt == "adamw" && r.Lora == 0 {
				if e := math.Abs(float64(d.Categories.OptimizerState)-2*pb) / (2 * pb); e > 0.05 {
					t.Errorf("%s: optimizer state %d, 8 x params %.0f (%.1f%% off)", r.Name, d.Categories.OptimizerState, 2*pb, 100*e)
				}
			}
			if len(d.Leaks) > 0 {
				t.Errorf("%s: false leak %+v", r.Name, d.Leaks[0])
			}
		}
		f.Close()
	}
	if n < 20 {
		t.Fatalf("only %d held-out workloads", n)
	}
}

// TestHeldOutCaptures checks testdata/heldout (workloads set aside before
// anything ran, looked at only after the rules above were final) the same
// way: every training snapshot against its spec; the first-step OOMs
// against the batches measured to fit or not (ViT-L/16 fp32 fitted at 128
// and died at 512; ViT-B/16 under a 0.1 fraction fitted at 96 and died at
// 112); the Qwen2.5-0.5B generate trace (batch 8, prompt 512, 48 new
// tokens) against its config: 2 × 24 layers × 2 KV heads × 64 × 2 B =
// 12,288 B of cache per token.
func TestHeldOutCaptures(t *testing.T) {
	for _, g := range []string{"scripts", "optim", "sharded1", "families"} {
		for _, r := range capRows(t, "heldout", g) {
			if r.Snapshot == "" || r.Status != "ok" {
				continue
			}
			t.Run(r.Name, func(t *testing.T) { checkCaptured(t, "heldout", g, r) })
		}
	}
	t.Run("vitl16-b768-fp32", func(t *testing.T) {
		o := DefaultOptions()
		o.Batch = 768
		d := analyzePath(t, "../../testdata/heldout/oom/vitl16-b768-fp32.pickle.gz", o)
		if d.OOM == nil || d.OOM.FirstStep == nil {
			t.Fatalf("oom %+v", d.OOM)
		}
		if b := d.OOM.FirstStep.LargestBatch; b < 128 || b >= 512 {
			t.Errorf("largest batch %d: 128 fitted, 512 did not", b)
		}
		if _, ok := adviceSaving(d, "checkpoint"); !ok {
			t.Errorf("no checkpointing advice: %+v", d.Advice)
		}
	})
	t.Run("vitb16-b192-fp32-frac0.1", func(t *testing.T) {
		o := DefaultOptions()
		o.Batch = 192
		d := analyzePath(t, "../../testdata/heldout/oom/vitb16-b192-fp32-frac0.1.pickle.gz", o)
		if d.OOM == nil || d.OOM.FirstStep == nil || d.OOM.Cause != CauseFractionCap {
			t.Fatalf("oom %+v", d.OOM)
		}
		if b := d.OOM.FirstStep.LargestBatch; b < 86 || b >= 112 {
			t.Errorf("largest batch %d: 96 fitted (10%% headroom allowed), 112 did not", b)
		}
	})
	t.Run("gentrace-qwen25-05b", func(t *testing.T) {
		const perToken = 2 * 24 * 2 * 64 * 2
		o := DefaultOptions()
		o.Batch = 8
		d := analyzePath(t, "../../testdata/heldout/generate/gentrace-qwen25-05b-bf16-dynamic.pickle.gz", o)
		g := d.Generation
		if g == nil || !d.Traits.Inference || d.Traits.AMP {
			t.Fatalf("generation %+v, traits %+v", g, d.Traits)
		}
		if g.Calls != 1 || g.DecodeSteps != 47 || g.StaticCache {
			t.Errorf("%d prefills, %d decode steps, static %v; generate ran 1 and 47, dynamic", g.Calls, g.DecodeSteps, g.StaticCache)
		}
		if g.KVPerToken != perToken {
			t.Errorf("%d B per token, config says %d", g.KVPerToken, perToken)
		}
		// the trace records the model's construction, whose tied head
		// is made and freed before the prompt runs
		want := "decode"
		switch {
		case g.LoadPeak > max(g.PrefillPeak, g.DecodePeak):
			want = "load"
		case g.PrefillPeak >= g.DecodePeak:
			want = "prefill"
		}
		if g.PeakIn != want {
			t.Errorf("peak in %q, load peak %d, prefill peak %d, decode peak %d", g.PeakIn, g.LoadPeak, g.PrefillPeak, g.DecodePeak)
		}
		if e := relErr(g.KVCacheMax, 8*(512+46)*perToken); e > 0.01 {
			t.Errorf("KV cache at most %d, config says about %d", g.KVCacheMax, 8*(512+46)*perToken)
		}
	})
}

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

// TestLateBlind runs analyze on the two snapshots of the late blind set
// (testdata/late/families: Whisper bf16-AMP full training, Qwen3 bf16-AMP
// with LoRA r16 on q/v; captured after analyze was final) and checks what
// the rows settle: both peaks to the byte, three iterations, categories
// summing to the peak, parameters 4 bytes per weight (gt_work.py counts
// params before peft adds the adapters, which are the trainable params),
// AdamW state exactly 8 bytes per trainable weight, autocast precision,
// no checkpointing, and the LoRA run seen as adapters over a frozen base.
// At first evaluation all of this held; the LoRA run's parameters came
// out 512 bytes above 4 × (params + adapters), the only inexact figure.
func TestLateBlind(t *testing.T) {
	dir := filepath.Join("../../testdata", "late", "families")
	f, err := os.Open(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	n := 0
	for sc.Scan() {
		var r struct {
			Name         string `json:"name"`
			Snapshot     string `json:"snapshot"`
			Prec         string `json:"prec"`
			Ckpt         string `json:"ckpt"`
			Lora         int    `json:"lora"`
			Iters        int    `json:"iters"`
			Params       int64  `json:"params"`
			Trainable    int64  `json:"trainable_params"`
			MaxAllocated int64  `json:"max_allocated"`
			MaxReserved  int64  `json:"max_reserved"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Snapshot == "" {
			continue
		}
		n++
		s, err := snapshot.LoadFile(filepath.Join(dir, r.Snapshot))
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
		if d.PeakAllocated != r.MaxAllocated || d.PeakReserved != r.MaxReserved {
			t.Errorf("%s: peaks %d / %d, PyTorch %d / %d", r.Name, d.PeakAllocated, d.PeakReserved, r.MaxAllocated, r.MaxReserved)
		}
		if d.Iterations != r.Iters {
			t.Errorf("%s: %d iterations, ran %d", r.Name, d.Iterations, r.Iters)
		}
		c := d.Categories
		sum := c.Parameters + c.Gradients + c.OptimizerState + c.Activations + c.Temporaries + c.Other +
			c.BlockRounding + c.KVCache + c.UnshardedParameters + c.Communication + c.LibraryWorkspace
		if sum != d.CategoriesBytes || d.CategoriesBytes != r.MaxAllocated {
			t.Errorf("%s: categories sum to %d, at a peak of %d; PyTorch's peak %d", r.Name, sum, d.CategoriesBytes, r.MaxAllocated)
		}
		weights := r.Params
		if r.Lora > 0 {
			weights += r.Trainable
		}
		if e := math.Abs(float64(c.Parameters-4*weights)) / float64(4*weights); e > 0.001 {
			t.Errorf("%s: parameters %d, 4 × %d weights = %d", r.Name, c.Parameters, weights, 4*weights)
		}
		if c.OptimizerState != 8*r.Trainable {
			t.Errorf("%s: optimizer state %d, 8 × %d trainable = %d", r.Name, c.OptimizerState, r.Trainable, 8*r.Trainable)
		}
		tr := d.Traits
		if r.Prec == "bf16" && (!tr.AMP || tr.Precision != "amp") {
			t.Errorf("%s: autocast run seen as precision %q (amp %v)", r.Name, tr.Precision, tr.AMP)
		}
		if tr.Checkpointing != (r.Ckpt == "block") || tr.GradScaler {
			t.Errorf("%s: checkpointing %v, grad scaler %v; ran ckpt %q without a scaler", r.Name, tr.Checkpointing, tr.GradScaler, r.Ckpt)
		}
		if tr.Adapters != (r.Lora > 0) || tr.FrozenBase != (r.Lora > 0) {
			t.Errorf("%s: adapters %v, frozen base %v; ran LoRA r%d", r.Name, tr.Adapters, tr.FrozenBase, r.Lora)
		}
		if share := float64(r.Trainable) / float64(weights); math.Abs(tr.TrainedShare-share) > 0.001 {
			t.Errorf("%s: trained share %.4f, PyTorch's counts give %.4f", r.Name, tr.TrainedShare, share)
		}
		if tr.Training == nil || !*tr.Training || tr.Inference {
			t.Errorf("%s: training %v, inference %v", r.Name, tr.Training, tr.Inference)
		}
		if len(d.Leaks) > 0 {
			t.Errorf("%s: false leak %+v", r.Name, d.Leaks[0])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Fatalf("%d snapshots, want the 2 captured", n)
	}
}

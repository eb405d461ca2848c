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

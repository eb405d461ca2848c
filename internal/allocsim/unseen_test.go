package allocsim

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// TestUnseenWorkloads replays snapshots captured after the simulator was
// written (GPT-2 medium, LLaMA with checkpointing and LoRA, T5, ConvNeXt,
// EfficientNet, ViT-B, BERT under fp16) and compares every memory_stats()
// value PyTorch recorded.
func TestUnseenWorkloads(t *testing.T) {
	f, err := os.Open(filepath.Join(root, "unseen", "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	n := 0
	for sc.Scan() {
		var row measuredRow
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		n++
		t.Run(row.Name, func(t *testing.T) {
			s, err := snapshot.LoadFile(filepath.Join(root, "unseen", row.Name+".pickle.gz"))
			if err != nil {
				t.Fatal(err)
			}
			d := ReplayDeviceStats(s, 0)
			if !d.TraceComplete {
				t.Fatalf("not reproduced: %s %v", d.Result.FirstDivergence, d.Notes)
			}
			got := d.Result.Stats.Map()
			for k, v := range row.Stats {
				if v != nil && got[k] != *v {
					t.Errorf("%s = %d, PyTorch reported %d", k, got[k], *v)
				}
			}
		})
	}
	if n < 10 {
		t.Fatalf("only %d unseen workloads", n)
	}
}

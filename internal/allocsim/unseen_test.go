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
	replayResults(t, filepath.Join(root, "unseen"))
}

// replayResults replays every snapshot a results.jsonl in dir describes and
// compares the memory_stats() values PyTorch recorded.
func replayResults(t *testing.T, dir string) {
	f, err := os.Open(filepath.Join(dir, "results.jsonl"))
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
			s, err := snapshot.LoadFile(filepath.Join(dir, row.Name+".pickle.gz"))
			if err != nil {
				t.Fatal(err)
			}
			d := mustReplay(t, s, ReplayOptions{})
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
		t.Fatalf("only %d workloads in %s", n, dir)
	}
}

// TestBlindWorkloads does the same for the second held-out set.
func TestBlindWorkloads(t *testing.T) {
	replayResults(t, filepath.Join(root, "blind"))
}

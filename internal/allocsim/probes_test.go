package allocsim

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// TestEngineProbes replays the allocator probes captured on the H200
// (bench/gpu/engine_probes.py): GC under a memory fraction, oversize
// blocks with OOM retries, several streams with record_stream, expandable
// segments under churn and under a fraction, list-form roundup with
// large_segment_size_mb, and max_non_split_rounding_mb. Every counter must
// equal PyTorch's, except two that traces cannot fully determine:
// num_sync_all_streams misses empty_cache() calls that released nothing,
// and num_alloc_retries can count one retry for an empty_cache() followed
// by a malloc that looks exactly like a failed cudaMalloc and its retry.
func TestEngineProbes(t *testing.T) {
	for _, pr := range loadProbes(t, "probes", 8) {
		t.Run(pr.name, func(t *testing.T) {
			o := ReplayOptions{TotalMemory: pr.TotalMemory}
			if pr.MemoryFraction != nil {
				o.MemoryFraction = *pr.MemoryFraction
			}
			d := mustReplay(t, pr.snap, o)
			if !d.TraceComplete {
				t.Fatalf("not reproduced: %s %v", d.Result.FirstDivergence, d.Notes)
			}
			got := d.Result.Stats.Map()
			for k, v := range pr.Stats {
				switch k {
				case "num_sync_all_streams":
					if got[k] > v {
						t.Errorf("%s = %d, more than PyTorch's %d", k, got[k], v)
					}
				case "num_alloc_retries":
					if math.Abs(float64(got[k]-v)) > 1 {
						t.Errorf("%s = %d, PyTorch %d", k, got[k], v)
					}
				default:
					if got[k] != v {
						t.Errorf("%s = %d, PyTorch reported %d", k, got[k], v)
					}
				}
			}
		})
	}
}

// probe is one scripted run captured on the H200: its snapshot and what
// bench/gpu/*_probes.py recorded beside it (PyTorch's memory_stats() at
// the end, and the settings snapshots do not carry).
type probe struct {
	name           string
	snap           *snapshot.Snapshot
	MemoryFraction *float64         `json:"memory_fraction"`
	TotalMemory    int64            `json:"total_memory"`
	Stats          map[string]int64 `json:"stats"`
}

// loadProbes reads every NAME.json + NAME.pickle.gz pair of testdata/dir,
// failing when fewer than min are there.
func loadProbes(t *testing.T, dir string, min int) []probe {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(root, dir, "*.json"))
	if len(files) < min {
		t.Fatalf("%s: want at least %d probes, found %v", dir, min, files)
	}
	var out []probe
	for _, jf := range files {
		b, err := os.ReadFile(jf)
		if err != nil {
			t.Fatal(err)
		}
		pr := probe{name: strings.TrimSuffix(filepath.Base(jf), ".json")}
		if err := json.Unmarshal(b, &pr); err != nil {
			t.Fatalf("%s: %v", jf, err)
		}
		if pr.snap, err = snapshot.LoadFile(strings.TrimSuffix(jf, ".json") + ".pickle.gz"); err != nil {
			t.Fatal(err)
		}
		out = append(out, pr)
	}
	return out
}

// TestGCNeedsFraction: snapshots do not record the memory fraction, and
// garbage collection only runs under one; without it the replay must say
// it could not follow the trace and ask for the fraction.
func TestGCNeedsFraction(t *testing.T) {
	s := load(t, "probes/gc-fraction.pickle.gz")
	d := mustReplay(t, s, DefaultReplayOptions())
	if d.TraceComplete {
		t.Fatal("replayed GC without knowing the fraction")
	}
	if !strings.Contains(strings.Join(d.Notes, " "), "--memory-fraction") {
		t.Errorf("notes do not ask for the fraction: %v", d.Notes)
	}
}

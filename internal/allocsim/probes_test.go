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
	files, _ := filepath.Glob(filepath.Join(root, "probes", "*.json"))
	if len(files) < 8 {
		t.Fatalf("probes missing: %v", files)
	}
	for _, jf := range files {
		name := strings.TrimSuffix(filepath.Base(jf), ".json")
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(jf)
			if err != nil {
				t.Fatal(err)
			}
			var info struct {
				MemoryFraction *float64         `json:"memory_fraction"`
				TotalMemory    int64            `json:"total_memory"`
				Stats          map[string]int64 `json:"stats"`
			}
			if err := json.Unmarshal(b, &info); err != nil {
				t.Fatal(err)
			}
			s, err := snapshot.LoadFile(strings.TrimSuffix(jf, ".json") + ".pickle.gz")
			if err != nil {
				t.Fatal(err)
			}
			o := ReplayOptions{TotalMemory: info.TotalMemory}
			if info.MemoryFraction != nil {
				o.MemoryFraction = *info.MemoryFraction
			}
			d := ReplayDeviceWith(s, 0, o)
			if !d.TraceComplete {
				t.Fatalf("not reproduced: %s %v", d.Result.FirstDivergence, d.Notes)
			}
			got := d.Result.Stats.Map()
			for k, v := range info.Stats {
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

// TestGCNeedsFraction: snapshots do not record the memory fraction, and
// garbage collection only runs under one; without it the replay must say
// it could not follow the trace and ask for the fraction.
func TestGCNeedsFraction(t *testing.T) {
	s := load(t, "probes/gc-fraction.pickle.gz")
	d := ReplayDevice(s, 0)
	if d.TraceComplete {
		t.Fatal("replayed GC without knowing the fraction")
	}
	if !strings.Contains(strings.Join(d.Notes, " "), "--memory-fraction") {
		t.Errorf("notes do not ask for the fraction: %v", d.Notes)
	}
}

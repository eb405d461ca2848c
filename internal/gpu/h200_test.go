package gpu

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// TestH200AgainstFixtures checks the H200 entry against what the fixtures'
// H200 recorded: total memory as CUDA reports it (every engine probe
// stores torch.cuda.get_device_properties().total_memory) and the CUDA
// context, nvml_used less reserved memory at the end of each measured run.
func TestH200AgainstFixtures(t *testing.T) {
	g, err := Lookup("h200")
	if err != nil {
		t.Fatal(err)
	}
	probes, _ := filepath.Glob("../../testdata/probes/*.json")
	if len(probes) == 0 {
		t.Fatal("no probes")
	}
	for _, p := range probes {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var pr struct {
			TotalMemory int64 `json:"total_memory"`
		}
		if err := json.Unmarshal(b, &pr); err != nil {
			t.Fatal(err)
		}
		if pr.TotalMemory != g.MemoryBytes {
			t.Errorf("%s: total_memory %d, table %d", p, pr.TotalMemory, g.MemoryBytes)
		}
	}
	f, err := os.Open("../../testdata/h200/measured.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ctx []int64
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r struct {
			NVMLUsed int64            `json:"nvml_used"`
			Stats    map[string]int64 `json:"stats"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if res, ok := r.Stats["reserved_bytes.all.current"]; ok && r.NVMLUsed > 0 {
			ctx = append(ctx, r.NVMLUsed-res)
		}
	}
	if len(ctx) < 10 {
		t.Fatalf("only %d measured contexts", len(ctx))
	}
	sort.Slice(ctx, func(i, j int) bool { return ctx[i] < ctx[j] })
	med := ctx[len(ctx)/2]
	if d := g.ContextBytes - med; d > 8<<20 || d < -8<<20 {
		t.Errorf("context %d B, measured median %d B (range %d..%d)", g.ContextBytes, med, ctx[0], ctx[len(ctx)-1])
	}
}

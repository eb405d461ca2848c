package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// simDevice runs simulate --format json with args and returns device 0.
func simDevice(t *testing.T, args ...string) (int, map[string]any) {
	t.Helper()
	code, out, _ := runCLI(t, append([]string{"simulate", "--format", "json"}, args...)...)
	if code != 0 {
		return code, nil
	}
	var doc struct {
		Devices []map[string]any `json:"devices"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	return code, doc.Devices[0]
}

// TestSimulateFractionSpellings: --alloc-conf per_process_memory_fraction
// used to be overwritten by --memory-fraction's default (0 OOMs, fraction
// 1); both spellings are one setting, and at 1% of an H200 BERT-base at
// batch 16 (1.49 GB reserved at its peak) does not fit.
func TestSimulateFractionSpellings(t *testing.T) {
	f := filepath.Join(testdata, "h200", "bert-base-s128-b16-fp32.pickle.gz")
	_, conf := simDevice(t, "--alloc-conf", "per_process_memory_fraction:0.01", f)
	_, flag := simDevice(t, "--memory-fraction", "0.01", f)
	for name, d := range map[string]map[string]any{"alloc-conf": conf, "memory-fraction": flag} {
		if d == nil {
			t.Fatalf("%s: simulate failed", name)
		}
		st := d["settings"].(map[string]any)
		if d["memory_fraction"] != 0.01 || d["num_ooms"].(float64) < 1 || st["memory_fraction_source"] != "flag" {
			t.Errorf("--%s: fraction %v, OOMs %v, settings %v", name, d["memory_fraction"], d["num_ooms"], st)
		}
	}
	if conf["num_ooms"] != flag["num_ooms"] || conf["peak_reserved_bytes"] != flag["peak_reserved_bytes"] {
		t.Errorf("spellings disagree: %v/%v OOMs, %v/%v reserved", conf["num_ooms"], flag["num_ooms"],
			conf["peak_reserved_bytes"], flag["peak_reserved_bytes"])
	}
	if code, _ := simDevice(t, "--alloc-conf", "per_process_memory_fraction:0.01", "--memory-fraction", "0.01", f); code != 0 {
		t.Errorf("agreeing spellings: exit %d", code)
	}
	code, _, errs := runCLI(t, "simulate", "--alloc-conf", "per_process_memory_fraction:0.01", "--memory-fraction", "0.02", f)
	if code != 2 || !strings.Contains(errs, "conflicting") {
		t.Errorf("conflicting spellings: exit %d, %q", code, errs)
	}
}

// TestSimulateCudaMallocAsync: the async backend bypasses the caching
// allocator; simulate must refuse it rather than simulate the native one.
func TestSimulateCudaMallocAsync(t *testing.T) {
	f := filepath.Join(testdata, "h200", "bert-base-s128-b16-fp32.pickle.gz")
	code, _, errs := runCLI(t, "simulate", "--alloc-conf", "backend:cudaMallocAsync", f)
	if code != 2 || !strings.Contains(errs, "cudaMallocAsync") || !strings.Contains(errs, "does not simulate") {
		t.Errorf("exit %d, %q", code, errs)
	}
}

// TestReportFractionReachesAnalysis: report replayed its timeline under
// --memory-fraction but analysed without it, and the page said the trace
// "could not be replayed … pass --memory-fraction". One replay now feeds
// both.
func TestReportFractionReachesAnalysis(t *testing.T) {
	snap := filepath.Join(testdata, "probes", "gc-fraction.pickle.gz")
	page := filepath.Join(t.TempDir(), "r.html")
	if code, _, errs := runCLI(t, "report", "--tune", "never", "--memory-fraction", "0.02", "-o", page, snap); code != 0 {
		t.Fatalf("report: exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "could not be replayed") {
		t.Error("the page says the trace could not be replayed under the fraction given")
	}
	if !strings.Contains(string(b), "memory fraction 0.02 [flag]") {
		t.Error("the page does not say where the memory fraction came from")
	}
	// Without the fraction the GC cannot be replayed, and the page says so.
	if code, _, errs := runCLI(t, "report", "--tune", "never", "-o", page, snap); code != 0 {
		t.Fatalf("report: exit %d: %s", code, errs)
	}
	if b, _ = os.ReadFile(page); !strings.Contains(string(b), "could not be replayed") {
		t.Error("without the fraction the page should say the trace could not be replayed")
	}
}

// TestOutputsSaySources: every settings-dependent command's JSON carries
// the resolved settings with their sources.
func TestOutputsSaySources(t *testing.T) {
	f := filepath.Join(testdata, "h200", "oom-vitl16-b96-fp32.pickle.gz")
	for _, args := range [][]string{{"stats"}, {"simulate"}, {"simulate", "--memory-fraction", "0.05"}, {"tune"}, {"analyze", "--tune=false"}} {
		code, out, errs := runCLI(t, append(append(args, "--format", "json"), f)...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errs)
		}
		for _, want := range []string{`"memory_fraction_source"`, `"capacity_source": "snapshot"`, `"total_memory_source": "gpu table"`} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: JSON lacks %s", args, want)
			}
		}
	}
}

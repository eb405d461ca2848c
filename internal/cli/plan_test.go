package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlanSpecJSON(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "s.json")
	os.WriteFile(spec, []byte(`{"model":"gpt2","hf_config":null,"task":null,"batch":2,"seq":256,"image":0,
		"precision":"bf16-amp","checkpoint":"none","accum":1,"optimizer":"adamw","lora":null,
		"parallel":{"strategy":"none","gpus":1,"tp":1,"pp":1,"micro_batches":1},"gpu":"h200","alloc_conf":""}`), 0o644)
	code, out, errs := runCLI(t, "plan", "--format", "json", "--spec", spec)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"peak_allocated_bytes", "peak_reserved_bytes", "process_bytes", "step_time_s", "fits", "breakdown"} {
		if _, ok := r[k]; !ok {
			t.Errorf("JSON output lacks %q", k)
		}
	}
	if r["peak_reserved_bytes"].(float64) < r["peak_allocated_bytes"].(float64) {
		t.Errorf("reserved below allocated: %v", r)
	}
}

func TestPlanFlagsText(t *testing.T) {
	code, out, errs := runCLI(t, "plan", "--model", "resnet18", "--batch", "16", "--gpu", "t4", "--precision", "fp16-amp")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"peak allocated", "peak reserved", "process (smi)", "step time", "GiB", "breakdown"} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
}

func TestPlanBadInputOneLine(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "bad.json")
	os.WriteFile(spec, []byte(`{"model":"bert-base","batch":0}`), 0o644)
	for _, args := range [][]string{
		{"plan", "--spec", spec},
		{"plan", "--model", "gpt2", "--gpu", "t4", "--precision", "bf16"},
		{"plan", "--model", "nosuchnet"},
		{"plan"},
	} {
		code, _, errs := runCLI(t, args...)
		if code == 0 {
			t.Errorf("%v: exit 0", args)
		}
		first := strings.SplitN(strings.TrimSpace(errs), "\n", 2)[0]
		if !strings.HasPrefix(first, "vramkit plan: ") || strings.Contains(errs, "panic") {
			t.Errorf("%v: stderr %q", args, errs)
		}
	}
}

func TestPlanSweepAndFit(t *testing.T) {
	code, out, errs := runCLI(t, "plan", "--model", "resnet18", "--gpu", "t4", "--sweep", "batch=8..64", "--format", "json")
	if code != 0 {
		t.Fatalf("sweep exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `"largest_fitting"`) {
		t.Errorf("sweep JSON lacks largest_fitting: %s", out)
	}
	code, out, errs = runCLI(t, "plan", "--fit", "--model", "resnet18", "--gpu", "t4", "--global-batch", "32")
	if code != 0 || !strings.Contains(out, "best:") {
		t.Fatalf("fit exit %d: %s %s", code, out, errs)
	}
}

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

// TestPlanVerdictLine is issue 18's example: LLaMA-3-8B with LoRA r16,
// pure bf16 and checkpointing on a 24 GB RTX 4090. The verdict is one
// line made on the band's top at the stated confidence; the text's
// headroom and the JSON's fits, headroom and band agree with it.
func TestPlanVerdictLine(t *testing.T) {
	args := []string{"plan", "--model", "llama3-8b", "--precision", "bf16", "--lora-rank", "16", "--checkpoint", "block",
		"--batch", "1", "--seq", "2048", "--gpu", "rtx4090"}
	code, out, errs := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var verdict []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "fit") && strings.Contains(l, "confidence") {
			verdict = append(verdict, l)
		}
	}
	// With bands from measured error the top of this one is within a few
	// hundred MiB of the card: LoRA runs were measured up to 6% above the
	// prediction (LLaMA bf16 LoRA; Qwen3 LoRA's 16% is the logits-split
	// variant, which the top also reaches) and the RTX 4090 has no
	// capture. What must hold is one line whose words, headroom and JSON
	// agree.
	if len(verdict) != 1 || !strings.Contains(verdict[0], "fit with 95% confidence: ") && !strings.HasPrefix(verdict[0], "fits with 95% confidence: ") ||
		!strings.Contains(verdict[0], "of 23.6 GiB (headroom ") ||
		strings.HasPrefix(verdict[0], "fits") == strings.Contains(verdict[0], "headroom -") {
		t.Errorf("verdict lines %q in:\n%s", verdict, out)
	}
	code, out, errs = runCLI(t, append(args, "--format", "json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Fits        bool    `json:"fits"`
		Headroom    int64   `json:"headroom_bytes"`
		Capacity    int64   `json:"capacity_bytes"`
		ProcessHigh int64   `json:"process_high_bytes"`
		Confidence  float64 `json:"confidence"`
		Verdict     struct {
			Fits     bool   `json:"fits"`
			Headroom int64  `json:"headroom_bytes"`
			Text     string `json:"text"`
		} `json:"verdict"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Verdict.Fits != r.Fits || r.Headroom != r.Capacity-r.ProcessHigh || r.Verdict.Headroom != r.Headroom ||
		r.Confidence != 0.95 || strings.HasPrefix(r.Verdict.Text, "fits with 95%") != r.Fits || !strings.HasPrefix(verdict[0], r.Verdict.Text) {
		t.Errorf("JSON verdict disagrees: %+v", r)
	}
}

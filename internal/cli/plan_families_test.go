package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPlanCompileFlag: --compile plans a smaller step than eager for the
// same model and says how the compiled step was modelled.
func TestPlanCompileFlag(t *testing.T) {
	peak := func(args ...string) (int64, []any) {
		code, out, errs := runCLI(t, append([]string{"plan", "--format", "json", "--model", "gpt2", "--batch", "4",
			"--seq", "512", "--precision", "bf16-amp"}, args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var r struct {
			Peak  int64 `json:"peak_allocated_bytes"`
			Notes []any `json:"notes"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r.Peak, r.Notes
	}
	eager, _ := peak()
	compiled, notes := peak("--compile")
	if compiled >= eager {
		t.Errorf("compiled %d bytes, eager %d", compiled, eager)
	}
	if !strings.Contains(strings.ToLower(strings.Join(strs(notes), " ")), "torch.compile") {
		t.Errorf("no compile note: %v", notes)
	}
}

func strs(v []any) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i], _ = x.(string)
	}
	return out
}

// TestPlanByModuleText: --by-module adds the per-module table with the
// layers merged, and --attn / --quant reach the spec.
func TestPlanByModuleText(t *testing.T) {
	code, out, errs := runCLI(t, "plan", "--model", "Qwen/Qwen3-0.6B", "--batch", "2", "--seq", "256",
		"--precision", "bf16", "--lora-rank", "8", "--quant", "nf4", "--attn", "eager", "--by-module")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"per module", "layers.{0..27}.mlp", "embed_tokens", "lm_head", "held-out QLoRA captures"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, _, errs = runCLI(t, "plan", "--model", "gpt2", "--attn", "eager")
	if code == 0 || !strings.Contains(errs, "use sdpa") {
		t.Errorf("--attn eager on gpt2: exit %d, %s", code, errs)
	}
}

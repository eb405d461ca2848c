package infer

import (
	"path/filepath"
	"testing"
)

var heldoutDir = filepath.Join("..", "..", "testdata", "heldout")

// TestGenerateHeldout evaluates the model, as built on the dev captures,
// on the generate workloads held out of them (other models and shapes:
// Qwen2.5-1.5B, Mistral-7B, TinyLlama under no_grad, a Qwen2.5-0.5B
// trace) and on Mistral-7B's timed decode. It was run once, after the
// model was final (docs/inference.md has the figures), and holds the
// issue's targets: reserved median |error| ≤ 3%, max ≤ 8%, decode
// tokens/s within 15%.
func TestGenerateHeldout(t *testing.T) {
	rows := loadCaptures(t, filepath.Join(heldoutDir, "generate", "results.jsonl"))
	if len(rows) == 0 {
		t.Fatal("no held-out generate rows")
	}
	ev := evaluate(t, rows)
	resv, _, _ := summarize(t, ev)
	if medianAbs(resv) > 0.03 || maxAbs(resv) > 0.08 {
		t.Errorf("reserved: median |error| %.1f%%, max %.1f%%; targets 3%% and 8%%", 100*medianAbs(resv), 100*maxAbs(resv))
	}
	checkCoverage(t, ev, 0.9) // 95% bands; issue 18 asks at least 90% inside
	trows := loadCaptures(t, filepath.Join(heldoutDir, "timing", "generate_timing.jsonl"))
	for _, r := range trows {
		res, err := Estimate(r.spec())
		if err != nil {
			t.Fatal(err)
		}
		d := (res.DecodeTokensPerSec - r.Decode) / r.Decode
		t.Logf("%s: prefill %.1f ms (measured %.1f), decode %.1f tokens/s (measured %.1f, %+.0f%%), %s-bound",
			r.Name, 1e3*res.PrefillTime, 1e3*r.Prefill, res.DecodeTokensPerSec, r.Decode, 100*d, res.DecodeBound)
		if d < -0.15 || d > 0.15 {
			t.Errorf("%s: decode tokens/s off by %+.0f%%, target 15%%", r.Name, 100*d)
		}
	}
}

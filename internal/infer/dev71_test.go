package infer

import (
	"path/filepath"
	"testing"
)

// TestGenerateOlmoGraniteDev71 holds generate for OLMo, OLMo 2 and
// Granite to dev71, their first generate captures (development data,
// testdata/dev71: a DynamicCache under inference_mode at three points and
// a StaticCache under no_grad at one, and the short traced call, per model).
// Their traces showed the float32 rotary of OLMo and OLMo 2 (castBack);
// with it, reserved median 0.3%, max 1.4% (Granite's StaticCache point),
// allocated within 0.05%: held at 1%, 2% and 0.5%.
func TestGenerateOlmoGraniteDev71(t *testing.T) {
	rows := loadCaptures(t, filepath.Join("..", "..", "testdata", "dev71", "generate", "results.jsonl"))
	if len(rows) != 15 {
		t.Fatalf("%d generate rows, want the 15 captured", len(rows))
	}
	ev := evaluate(t, rows)
	resv, alloc, _ := summarize(t, ev)
	if medianAbs(resv) > 0.01 || maxAbs(resv) > 0.02 || maxAbs(alloc) > 0.005 {
		t.Errorf("reserved median |error| %.2f%%, max %.2f%%; allocated max %.2f%%", 100*medianAbs(resv), 100*maxAbs(resv), 100*maxAbs(alloc))
	}
}

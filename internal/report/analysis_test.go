package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/analyze"
)

// TestForwardOnlyNoOptimizerClause: testdata/analyze's BERT eval run
// (measured.jsonl records mode "eval-grad": forward passes only, never a
// backward or an optimizer step) was told its steady-state peak skips the first iteration
// because "the first has no optimizer state yet", which is about training.
func TestForwardOnlyNoOptimizerClause(t *testing.T) {
	name := "bert-base-s512-b32-eval-grad"
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "analyze", "measured.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Name  string `json:"name"`
		Mode  string `json:"mode"`
		Iters int    `json:"iters"`
	}
	for _, line := range strings.Split(string(raw), "\n") {
		var r = rec
		if json.Unmarshal([]byte(line), &r) == nil && r.Name == name {
			rec = r
		}
	}
	if !strings.HasPrefix(rec.Mode, "eval") || rec.Iters < 2 {
		t.Fatalf("recorded mode %q, %d iterations: not a forward-only run of several passes", rec.Mode, rec.Iters)
	}
	rep, err := analyze.Analyze(load(t, filepath.Join("analyze", name+".pickle.gz")), analyze.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	DeviceText(&out, name, &rep.Devices[0])
	if strings.Contains(out.String(), "optimizer state yet") {
		t.Errorf("a forward-only run is told about optimizer state:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "the pass the run repeats") {
		t.Errorf("no note on why the steady-state peak skips the first pass:\n%s", out.String())
	}
}

package rules

import (
	"os"
	"testing"

	"github.com/vramkit/vramkit/internal/lint"
)

func TestShow(t *testing.T) {
	path := os.Getenv("SHOW")
	if path == "" {
		t.Skip()
	}
	data, _ := os.ReadFile(path)
	diags, _ := lint.Check(options(All()...), nil, path, data)
	for _, d := range diags {
		t.Logf("%d:%d %s %s\n      fix: %s (edits %d)", d.Start.Line, d.Start.Col, d.Code, d.Message, d.Fix, len(d.Edits))
	}
}

package lint_test

import (
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/lint"
)

func TestNotebook(t *testing.T) {
	nb := `{
 "cells": [
  {"cell_type": "markdown", "metadata": {}, "source": ["# Title\n", "bad()\n"]},
  {"cell_type": "code", "metadata": {}, "outputs": [], "source": [
    "%pip install torch\n",
    "import torch\n",
    "if True:\n",
    "    !echo DANGER\n",
    "x = bad()"
  ]},
  {"cell_type": "code", "metadata": {}, "outputs": [], "source": "%%bash\necho DANGER\n"},
  {"cell_type": "code", "metadata": {}, "outputs": [], "source": ["files = !ls\n", "bad(]  # broken\n"]}
 ],
 "metadata": {}, "nbformat": 4, "nbformat_minor": 5
}`
	diags, f := lint.Check(opts(), nil, "nb.ipynb", []byte(nb))
	if f != nil {
		t.Error("a notebook with a syntax error came back as checked")
	}
	got := strings.Join(locations(diags), "\n")
	// The last cell's second line is a syntax error: the notebook is not
	// checked, and the error says where.
	want := strings.Join([]string{
		"nb.ipynb:cell 4:2:1 VK000",
	}, "\n")
	if got != want {
		t.Errorf("findings:\n%s\nwant:\n%s", got, want)
	}

	// Without the broken cell every finding lands on its cell and line.
	nb = strings.Replace(nb, `"bad(]  # broken\n"`, `"bad()\n"`, 1)
	diags, f = lint.Check(opts(), nil, "nb.ipynb", []byte(nb))
	got = strings.Join(locations(diags), "\n")
	want = strings.Join([]string{
		"nb.ipynb:cell 2:4:11 VK901",
		"nb.ipynb:cell 2:5:5 VK900",
		"nb.ipynb:cell 3:2:6 VK901",
		"nb.ipynb:cell 4:2:1 VK900",
	}, "\n")
	if got != want {
		t.Errorf("findings:\n%s\nwant:\n%s", got, want)
	}
	// Notebook findings carry the line of the JSON text, for SARIF.
	for _, d := range diags {
		if d.Start.JSONLine == 0 {
			t.Errorf("%s: no JSON line", d.Location())
		}
		if len(d.Edits) != 0 {
			t.Errorf("%s: notebook findings must not carry edits", d.Location())
		}
	}
	if d := diags[1]; d.Start.JSONLine != 9 {
		t.Errorf("cell 2 line 5 is on JSON line %d, want 9", d.Start.JSONLine)
	}
	if f.Cells[0].Index != 2 {
		t.Errorf("first code cell numbered %d, want 2", f.Cells[0].Index)
	}

	_, f = lint.Check(opts(), nil, "broken.ipynb", []byte(`{"cells": [`))
	if f != nil {
		t.Error("broken JSON parsed")
	}
	diags, _ = lint.Check(opts(), nil, "broken.ipynb", []byte(`{"cells": [`))
	if len(diags) != 1 || diags[0].Code != "VK000" || !strings.Contains(diags[0].Message, "not a Jupyter notebook") {
		t.Errorf("broken notebook: %+v", diags)
	}
}

// IPython lines that are not Python: a !shell line ending in a backslash
// continues on the next lines (huggingface/notebooks' benchmark notebook),
// and pip, conda and cd run without their % (automagic; Time-Series-
// Library's tutorial starts with "pip install -r requirements.txt"). Each
// cell ends in a real syntax error, the only finding wanted, while Python
// continued with a backslash or merely using such a name stays Python.
func TestNotebookIPythonLines(t *testing.T) {
	for _, c := range []struct {
		name, source, want string
	}{
		{"shell continuation", `[
    "!python run_benchmark.py \\\n",
    "  --models bert-base-cased \\\n",
    "  --sequence_lengths 8 32 128\n",
    "x = 1 + \\\n",
    "    2\n",
    "y = bad(]\n"]`, "nb.ipynb:cell 1:6:1 VK000"},
		{"automagic", `[
    "pip install -r requirements.txt\n",
    "cd ../data\n",
    "pip = 3\n",
    "cd = pip + 1\n",
    "y = bad(]\n"]`, "nb.ipynb:cell 1:5:1 VK000"},
	} {
		nb := `{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": ` + c.source +
			`}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
		diags, _ := lint.Check(opts(), nil, "nb.ipynb", []byte(nb))
		if got := strings.Join(locations(diags), "\n"); got != c.want {
			t.Errorf("%s: findings:\n%s\nwant only the real syntax error:\n%s", c.name, got, c.want)
		}
	}
}

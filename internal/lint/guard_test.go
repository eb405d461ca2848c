package lint_test

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/vramkit/vramkit/internal/lint"
)

// A 3 MB binary file named .py once took 9 s and 800 MB to "parse". It must
// be refused before parsing, with one finding.
func TestBinaryAndHugeFilesRefusedFast(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	bin := make([]byte, 3<<20)
	rng.Read(bin)
	huge := bytes.Repeat([]byte("x = 1\n"), (lint.MaxSource/6)+1)
	for name, src := range map[string][]byte{"weights.py": bin, "generated.py": huge} {
		start := time.Now()
		diags, f := lint.Check(opts(), nil, name, src)
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: took %v", name, d)
		}
		if f != nil || len(diags) != 1 || diags[0].Code != "VK000" || strings.Contains(diags[0].Message, "\n") {
			t.Errorf("%s: want one one-line VK000 and no parse, got %v (parsed: %v)", name, diags, f != nil)
		}
	}
	// A notebook is big because of its outputs, not its code: checked.
	img := strings.Repeat("A", 3<<20)
	nb := `{"cells": [{"cell_type": "code", "source": ["import torch\n", "x = torch.zeros(3)\n"],
	  "outputs": [{"data": {"image/png": "` + img + `"}, "output_type": "display_data"}]}],
	  "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
	if diags, f := lint.Check(opts(), nil, "demo.ipynb", []byte(nb)); f == nil || len(diags) != 0 {
		t.Errorf("3 MB notebook with 2 lines of code: %v (parsed: %v)", diags, f != nil)
	}
	// Non-ASCII text is still source.
	diags, _ := lint.Check(opts(), nil, "ok.py", []byte("# café\nx = 'naïve'\n"))
	for _, d := range diags {
		if d.Code == "VK000" {
			t.Errorf("UTF-8 source refused: %v", d)
		}
	}
}

// Hint rules run only when asked for.
func TestHintsAreOptIn(t *testing.T) {
	hint := &lint.Rule{Code: "VK998", Name: "hint", Severity: lint.Info, Hint: true,
		Run: func(p *lint.Pass) { p.Report(p.File.Root, "hint", "") }}
	o := lint.Options{Rules: []*lint.Rule{hint}, Parse: opts().Parse}
	if diags, _ := lint.Check(o, nil, "a.py", []byte("x = 1\n")); len(diags) != 0 {
		t.Errorf("hint ran without Hints: %v", diags)
	}
	o.Hints = true
	if diags, _ := lint.Check(o, nil, "a.py", []byte("x = 1\n")); len(diags) != 1 {
		t.Errorf("hint did not run with Hints: %v", diags)
	}
}

// A finding reported as a hint is shown only with Hints, like a hint
// rule's, while the same rule's other findings are always shown; a hint
// rule's findings carry the mark too.
func TestHintFindings(t *testing.T) {
	r := &lint.Rule{Code: "VK997", Name: "some-hints", Severity: lint.Warning,
		Run: func(p *lint.Pass) {
			p.Report(p.File.Root, "costs GPU memory", "")
			p.ReportHint(p.File.Root, "costs host memory", "")
		}}
	o := lint.Options{Rules: []*lint.Rule{r}, Parse: opts().Parse}
	diags, _ := lint.Check(o, nil, "a.py", []byte("x = 1\n"))
	if len(diags) != 1 || diags[0].Hint || diags[0].Severity != lint.Warning {
		t.Errorf("without Hints: %v, want the warning alone", diags)
	}
	o.Hints = true
	diags, _ = lint.Check(o, nil, "a.py", []byte("x = 1\n"))
	if len(diags) != 2 {
		t.Fatalf("with Hints: %v, want both", diags)
	}
	for _, d := range diags {
		if d.Hint != (d.Message == "costs host memory") || (d.Hint && d.Severity != lint.Info) {
			t.Errorf("%+v: a hint is marked and at info, the other is not", d)
		}
	}
	hint := &lint.Rule{Code: "VK998", Name: "hint", Severity: lint.Info, Hint: true,
		Run: func(p *lint.Pass) { p.Report(p.File.Root, "hint", "") }}
	o.Rules = []*lint.Rule{hint}
	if diags, _ := lint.Check(o, nil, "a.py", []byte("x = 1\n")); len(diags) != 1 || !diags[0].Hint {
		t.Errorf("hint rule's finding not marked: %v", diags)
	}
}

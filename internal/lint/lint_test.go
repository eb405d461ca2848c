package lint_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/lint"
	"github.com/vramkit/vramkit/internal/lint/pyparse"
)

// badCall flags every call of a function named bad(), and offers to
// rename it to good().
var badCall = &lint.Rule{
	Code: "VK900", Name: "bad-call", Severity: lint.Warning, Fixable: true,
	Summary: "test rule", Doc: "Blind spots: it is a test.",
	Run: func(p *lint.Pass) {
		for _, c := range p.File.Nodes("call") {
			if fn := c.Child("function"); p.File.TextIs(fn, "bad") {
				p.Report(c, "bad call", "call good()", lint.Edit{Start: fn.Start, End: fn.End, New: "good"})
			}
		}
	},
}

// shellRule flags shell lines mentioning DANGER.
var shellRule = &lint.Rule{
	Code: "VK901", Name: "shell-danger", Severity: lint.Info, Shell: true,
	Summary: "test rule", Doc: "Blind spots: it is a test.",
	Run: func(p *lint.Pass) {
		for _, l := range p.File.Shell {
			if i := strings.Index(l.Text, "DANGER"); i >= 0 {
				p.ReportRange(l.Start+i, l.Start+i+6, "danger", "")
			}
		}
	},
}

func opts() lint.Options {
	return lint.Options{Rules: []*lint.Rule{badCall, shellRule}, Parse: pyparse.Parse}
}

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func locations(diags []lint.Diagnostic) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.Location()+" "+d.Code)
	}
	return out
}

func TestCollect(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, ".git/HEAD", "ref: refs/heads/main\n")
	write(t, dir, ".gitignore", "build/\n*.gen.py\n!keep.gen.py\n/top_only.py\n")
	write(t, dir, "train.py", "")
	write(t, dir, "top_only.py", "")
	write(t, dir, "sub/top_only.py", "")
	write(t, dir, "sub/a.gen.py", "")
	write(t, dir, "sub/keep.gen.py", "")
	write(t, dir, "sub/.gitignore", "local.py\n")
	write(t, dir, "sub/local.py", "")
	write(t, dir, "other/local.py", "")
	write(t, dir, "build/x.py", "")
	write(t, dir, "run.sh", "")
	write(t, dir, "nb.ipynb", "{}")
	write(t, dir, "README.md", "")
	write(t, dir, "__pycache__/x.py", "")
	write(t, dir, ".venv/pyvenv.cfg", "")
	write(t, dir, ".venv/lib/torch.py", "")
	write(t, dir, "env2/pyvenv.cfg", "")
	write(t, dir, "env2/site.py", "")
	write(t, dir, "pyproject.toml", "[tool.vramkit]\nexclude = [\"legacy/\"]\n")
	write(t, dir, "legacy/old.py", "")

	files, err := lint.Collect([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		got = append(got, filepath.ToSlash(rel))
	}
	sort.Strings(got)
	want := []string{"nb.ipynb", "other/local.py", "run.sh", "sub/keep.gen.py", "sub/top_only.py", "train.py"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("collected %v\nwant      %v", got, want)
	}

	// From a subdirectory the repository's .gitignore still applies, and a
	// file named explicitly is always checked.
	files, err = lint.Collect([]string{filepath.Join(dir, "sub"), filepath.Join(dir, "build", "x.py")})
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		got = append(got, filepath.ToSlash(rel))
	}
	want = []string{"sub/keep.gen.py", "sub/top_only.py", "build/x.py"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("collected %v\nwant      %v", got, want)
	}
}

func TestConfig(t *testing.T) {
	toml := `
[project]
name = "x"
disable = ["nope"]

[tool.vramkit]
# comment
disable = [
  "VK007",  # pinned memory is not ours to choose
  'dataloader-num-workers',
]
fail-on = "error"
exclude = ["legacy/"]

[tool.other]
disable = ["VK001"]
`
	c, found, err := lint.ParseConfig([]byte(toml))
	if err != nil || !found {
		t.Fatalf("found=%v err=%v", found, err)
	}
	if strings.Join(c.Disable, ",") != "VK007,dataloader-num-workers" || c.FailOn != "error" || strings.Join(c.Exclude, ",") != "legacy/" {
		t.Errorf("config %+v", c)
	}
	if _, found, _ := lint.ParseConfig([]byte("[tool.ruff]\nx = 1\n")); found {
		t.Error("found a table that is not there")
	}
	if _, _, err := lint.ParseConfig([]byte("[tool.vramkit]\ndisable = \"VK001\"\n")); err == nil {
		t.Error("a string for disable should be an error")
	}

	dir := t.TempDir()
	write(t, dir, ".git/HEAD", "")
	write(t, dir, "pyproject.toml", "[tool.vramkit]\ndisable = [\"bad-call\"]\n")
	write(t, dir, "pkg/pyproject.toml", "[project]\nname = \"pkg\"\n")
	p := write(t, dir, "pkg/deep/train.py", "bad()\n")
	res, err := lint.Run(context.Background(), opts(), []string{filepath.Join(dir, "pkg")})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Diagnostics) != 0 {
		t.Errorf("rule disabled in the repository's pyproject.toml still reported: %v", locations(res.Diagnostics))
	}
	// Above the repository root nothing is read.
	write(t, filepath.Dir(dir), "pyproject.toml", "")
	c2, err := lint.FindConfig(filepath.Dir(p))
	if err != nil || c2.Path != filepath.Join(dir, "pyproject.toml") {
		t.Errorf("FindConfig = %+v, %v", c2, err)
	}
}

func TestSuppressions(t *testing.T) {
	src := `bad()  # vramkit: ignore[VK900]
bad()  # vramkit: ignore[bad-call]
bad()  # vramkit: ignore
bad()  # vramkit: ignore[VK001]
# vramkit: ignore[VK900]
bad()
bad()
x = 1  # vramkit: ignore[VK900]
bad()
`
	diags, _ := lint.Check(opts(), nil, "t.py", []byte(src))
	got := strings.Join(locations(diags), ",")
	if want := "t.py:4:1 VK900,t.py:7:1 VK900,t.py:9:1 VK900"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	diags, _ = lint.Check(opts(), nil, "t.py", []byte("# vramkit: ignore-file[VK900]\nbad()\nbad()\n"))
	if len(diags) != 0 {
		t.Errorf("ignore-file: %v", locations(diags))
	}
}

func TestParseErrorDoesNotStopRun(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a_broken.py", "import os\ndef train(model:\n    pass\nbad()\n")
	write(t, dir, "b_good.py", "bad()\n")
	write(t, dir, "c_conflict.py", "<<<<<<< HEAD\nx = 1\n=======\nx = 2\n>>>>>>> branch\n")
	write(t, dir, "d_binary.py", "\x00\x01\x02garbage(((\n")
	res, err := lint.Run(context.Background(), opts(), []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, filepath.Base(d.Path)+":"+d.Code)
		if d.Code == "VK000" && !strings.Contains(d.Message, "cannot check this file") {
			t.Errorf("unclear message: %s", d.Message)
		}
	}
	want := "a_broken.py:VK000 b_good.py:VK900 c_conflict.py:VK000 d_binary.py:VK000"
	if strings.Join(got, " ") != want {
		t.Errorf("got %v, want %s", got, want)
	}
	if d := res.Diagnostics[0]; d.Start.Line != 2 || !strings.Contains(d.Message, `near "def train(model:"`) {
		t.Errorf("error at line %d: %s", d.Start.Line, d.Message)
	}
}

func TestFix(t *testing.T) {
	src := []byte("bad()\nbad(bad())\n")
	diags, f := lint.Check(opts(), nil, "t.py", src)
	r := lint.Fix(pyparse.Parse, f, diags)
	if string(r.New) != "good()\ngood(good())\n" || len(r.Fixed) != 3 {
		t.Errorf("fixed %d: %q", len(r.Fixed), r.New)
	}
	// Overlapping fixes: the first wins, the second waits for a rerun.
	d1 := lint.Diagnostic{Edits: []lint.Edit{{Start: 0, End: 3, New: "xyz"}}}
	d2 := lint.Diagnostic{Edits: []lint.Edit{{Start: 2, End: 5, New: "q"}}}
	out, fixed := lint.ApplyFixes([]byte("bad()\n"), []lint.Diagnostic{d1, d2})
	if string(out) != "xyz()\n" || len(fixed) != 1 {
		t.Errorf("overlap: %q, %d fixed", out, len(fixed))
	}
	// A rewrite that breaks the syntax is refused.
	broken := lint.Diagnostic{Edits: []lint.Edit{{Start: 3, End: 4, New: "(("}}}
	r = lint.Fix(pyparse.Parse, f, []lint.Diagnostic{broken})
	if r.New != nil || !strings.Contains(r.Reason, "would not parse") {
		t.Errorf("broken rewrite accepted: %q %q", r.New, r.Reason)
	}
}

func TestOutputs(t *testing.T) {
	src := []byte("bad()\n")
	diags, _ := lint.Check(opts(), nil, "dir/t.py", src)
	var text bytes.Buffer
	if err := lint.WriteText(&text, diags, 1); err != nil {
		t.Fatal(err)
	}
	want := "dir/t.py:1:1: VK900 warning: bad call\n    fix: call good() [--fix]\n1 finding (1 warning) in 1 file; 1 fixable with --fix\n"
	if text.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", text.String(), want)
	}

	var js bytes.Buffer
	if err := lint.WriteJSON(&js, diags, 1, opts().Rules, "test"); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Files       int
		Summary     lint.Summary
		Diagnostics []struct {
			Path     string
			Code     string
			Severity string
			Fixable  bool
			Start    struct{ Line, Column int }
		}
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Files != 1 || doc.Summary.Warnings != 1 || len(doc.Diagnostics) != 1 ||
		doc.Diagnostics[0].Severity != "warning" || !doc.Diagnostics[0].Fixable || doc.Diagnostics[0].Start.Line != 1 {
		t.Errorf("json: %s", js.String())
	}

	var sarif bytes.Buffer
	if err := lint.WriteSARIF(&sarif, diags, opts().Rules, "test"); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string
					Rules []struct {
						ID      string
						HelpURI string
					}
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           struct{ StartLine, StartColumn int }
					}
				}
				Fixes []struct {
					ArtifactChanges []struct {
						Replacements []struct {
							DeletedRegion   struct{ ByteOffset, ByteLength int }
							InsertedContent struct{ Text string }
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal(sarif.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("sarif: %s", sarif.String())
	}
	run := log.Runs[0]
	res := run.Results[0]
	loc := res.Locations[0].PhysicalLocation
	rep := res.Fixes[0].ArtifactChanges[0].Replacements[0]
	if run.Tool.Driver.Name != "vramkit" || run.Tool.Driver.Rules[res.RuleIndex].ID != "VK900" || res.Level != "warning" ||
		loc.ArtifactLocation.URI != "dir/t.py" || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" || loc.Region.StartLine != 1 ||
		rep.DeletedRegion.ByteOffset != 0 || rep.DeletedRegion.ByteLength != 3 || rep.InsertedContent.Text != "good" {
		t.Errorf("sarif: %s", sarif.String())
	}
}

func TestShellScript(t *testing.T) {
	diags, f := lint.Check(opts(), nil, "run.sh", []byte("#!/bin/sh\necho ok\n  DANGER=1 python bad.py\n"))
	if f == nil || f.Root != nil {
		t.Fatal("a shell script is not parsed as Python")
	}
	if got := strings.Join(locations(diags), ","); got != "run.sh:3:3 VK901" {
		t.Errorf("got %s", got)
	}
}

package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/lint"
)

// docsPath is the rule reference that each rule's URL points into.
var docsPath = filepath.Join("..", "..", "..", "docs", "lint.md")

// TestDocs keeps docs/lint.md in step with the rules' own documentation
// (go test -update rewrites it).
func TestDocs(t *testing.T) {
	var b strings.Builder
	b.WriteString(`# vramkit lint rules

Generated from the rules' documentation by ` + "`go test ./internal/lint/rules -update`" + `; do not edit.

` + "`vramkit lint [PATH...]`" + ` checks Python files, Jupyter notebooks and shell scripts for
patterns that waste or leak GPU memory in PyTorch training. Turn a rule off on one line
with ` + "`# vramkit: ignore[VK003]`" + ` (on the line or alone on the line above), in a whole
file with ` + "`# vramkit: ignore-file[VK003]`" + `, or for a project in ` + "`pyproject.toml`" + `:

` + "```toml" + `
[tool.vramkit]
disable = ["VK007", "dataloader-num-workers"]   # codes or names
fail-on = "error"                               # info | warning | error | none
exclude = ["legacy/"]                          # gitignore-style patterns
` + "```" + `

Hints — advice that is right for some programs and noise for others (rules marked
"hint" below), and findings that cost no GPU memory (a rule's documentation says which) —
are opt-in: show them with ` + "`--hints`" + `, or name their rule in ` + "`--select`" + `.

Severity follows a measured policy. Each finding comes from one sub-pattern of its rule
(the heuristic path that produced it; JSON output names it in ` + "`pattern`" + `), and each
sub-pattern's level comes from how often its findings were real problems on a corpus of
real public training code (bench/lint: every judged finding, including false alarms of
findings since fixed): a warning needs at least 95%, the default output (warning or
info) at least 85%; the rest are hints. A pattern judged fewer than five times keeps the
level its rule was designed with. A rule's sub-patterns and their levels are listed in
its section.

| code | name | severity | --fix | summary |
|---|---|---|---|---|
`)
	rules := append(All(), lint.ParseError)
	for _, r := range rules {
		fix := ""
		if r.Fixable {
			fix = "yes"
		}
		sev := r.Severity.String()
		if r.Hint {
			sev += " (hint)"
		}
		fmt.Fprintf(&b, "| [%s](#%s-%s) | %s | %s | %s | %s |\n", r.Code, strings.ToLower(r.Code), r.Name, r.Name, sev, fix, r.Summary)
	}
	for _, r := range rules {
		fmt.Fprintf(&b, "\n## %s %s\n\n", r.Code, r.Name)
		fix := ""
		if r.Fixable {
			fix = "; safe rewrite with `--fix`"
		}
		hint := ""
		if r.Hint {
			hint = " (hint, opt-in with `--hints`)"
		}
		fmt.Fprintf(&b, "Severity: %s%s%s.\n\n%s.\n\n", r.Severity, hint, fix, r.Summary)
		if len(r.Patterns) > 0 {
			names := make([]string, 0, len(r.Patterns))
			for n := range r.Patterns {
				names = append(names, n)
			}
			sort.Strings(names)
			b.WriteString("Sub-patterns:")
			for i, n := range names {
				lv := r.Patterns[n]
				level := lv.Severity.String()
				if lv.Hint {
					level = "hint"
				}
				sep := ","
				if i == 0 {
					sep = ""
				}
				fmt.Fprintf(&b, "%s `%s` %s", sep, n, level)
			}
			b.WriteString(".\n\n")
		}
		for _, para := range strings.Split(r.Doc, "\n\n") {
			b.WriteString(strings.Join(strings.Fields(para), " ") + "\n\n")
		}
	}
	got := strings.TrimRight(b.String(), "\n") + "\n"
	if *update {
		if err := os.WriteFile(docsPath, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/lint/rules -update)", err)
	}
	if string(want) != got {
		t.Errorf("docs/lint.md is out of date: run go test ./internal/lint/rules -update\n%s", lint.UnifiedDiff("docs/lint.md", want, []byte(got)))
	}
}

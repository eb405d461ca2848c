package rules

import (
	"flag"
	"fmt"
	"github.com/vramkit/vramkit/internal/allocsim"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/lint"
	"github.com/vramkit/vramkit/internal/lint/pyparse"
)

var update = flag.Bool("update", false, "rewrite the .fixed golden files")

func options(rules ...*lint.Rule) lint.Options {
	return lint.Options{Rules: rules, Parse: pyparse.Parse, Hints: true, AllocConf: func(c string) error { _, err := allocsim.ParseConfig(c); return err }}
}

var (
	wantRE   = regexp.MustCompile(`#\s*want((?:\s+"(?:[^"\\]|\\.)*")+)`)
	quotedRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
)

// wants reads the `# want "re" ...` comments of a source, by line.
func wants(t *testing.T, src string) map[int][]*regexp.Regexp {
	out := map[int][]*regexp.Regexp{}
	for i, line := range strings.Split(src, "\n") {
		m := wantRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, q := range quotedRE.FindAllString(m[1], -1) {
			// The text between the quotes is a regexp as written; only \"
			// stands for a quote.
			s := strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`)
			re, err := regexp.Compile(s)
			if err != nil {
				t.Fatalf("line %d: bad want %s: %v", i+1, q, err)
			}
			out[i+1] = append(out[i+1], re)
		}
	}
	return out
}

// srcLine maps a finding back to the line of File.Src (notebooks report
// cell-relative lines).
func srcLine(f *lint.File, d lint.Diagnostic) int {
	if d.Start.Cell == 0 {
		return d.Start.Line
	}
	for _, c := range f.Cells {
		if c.Index == d.Start.Cell {
			return c.FirstLine + d.Start.Line - 1
		}
	}
	return -1
}

// checkWants lints one testdata file with the rules and compares the
// findings with its want comments. It returns the findings.
func checkWants(t *testing.T, path string, rules ...*lint.Rule) []lint.Diagnostic {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	diags, f := lint.Check(options(rules...), nil, path, data)
	if f == nil {
		t.Fatalf("%s did not parse: %v", path, diags)
	}
	want := wants(t, string(f.Src))
	if len(f.Shell) > 0 && f.Root == nil {
		want = wants(t, string(data))
	}
	for _, d := range diags {
		line := srcLine(f, d)
		text := d.Code + " " + d.Message
		ok := false
		for i, re := range want[line] {
			if re.MatchString(text) {
				want[line] = append(want[line][:i], want[line][i+1:]...)
				ok = true
				break
			}
		}
		if !ok {
			t.Errorf("%s:%d: unexpected finding: %s", path, line, text)
		}
	}
	lines := make([]int, 0, len(want))
	for l := range want {
		lines = append(lines, l)
	}
	sort.Ints(lines)
	for _, l := range lines {
		for _, re := range want[l] {
			t.Errorf("%s:%d: no finding matched %q", path, l, re)
		}
	}
	return diags
}

// TestRules runs each rule on its own testdata files.
func TestRules(t *testing.T) {
	for _, r := range All() {
		files, _ := filepath.Glob(filepath.Join("testdata", strings.ToLower(r.Code)+"_*"))
		var inputs []string
		for _, f := range files {
			if !strings.HasSuffix(f, ".fixed") {
				inputs = append(inputs, f)
			}
		}
		if len(inputs) == 0 {
			t.Errorf("%s has no testdata/%s_*.py", r.Code, strings.ToLower(r.Code))
		}
		for _, path := range inputs {
			t.Run(filepath.Base(path), func(t *testing.T) {
				diags := checkWants(t, path, r)
				if len(diags) == 0 && !strings.Contains(path, "_clean") {
					t.Errorf("%s: no finding at all; only *_clean* files may have none", path)
				}
				checkFix(t, path, r, diags)
			})
		}
	}
}

// checkFix applies the fixes and compares with path+".fixed" when the rule
// is fixable.
func checkFix(t *testing.T, path string, r *lint.Rule, diags []lint.Diagnostic) {
	golden := path + ".fixed"
	if !r.Fixable || filepath.Ext(path) != ".py" {
		return
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, f := lint.Check(options(r), nil, path, src)
	res := lint.Fix(pyparse.Parse, f, diags)
	if res.Reason != "" {
		t.Fatalf("%s: %s", path, res.Reason)
	}
	got := res.New
	if got == nil {
		got = src
	}
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s: fixed output differs from %s:\n%s", path, golden, lint.UnifiedDiff(golden, want, got))
	}
	// Fixing twice changes nothing more: the fixed file has no fixable
	// finding left.
	after, f2 := lint.Check(options(r), nil, path, got)
	if f2 == nil {
		t.Fatalf("fixed %s does not parse", path)
	}
	for _, d := range after {
		if len(d.Edits) > 0 {
			t.Errorf("%s: still fixable after --fix: %d:%d %s", golden, d.Start.Line, d.Start.Col, d.Message)
		}
	}
}

// TestRealStyle runs every rule over training scripts written in the
// styles of well-known examples: only the findings marked want may appear.
func TestRealStyle(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "real", "*"))
	if len(files) < 4 {
		t.Fatalf("want at least 4 real-style scripts, have %d", len(files))
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			diags := checkWants(t, path, All()...)
			if testing.Verbose() {
				for _, d := range diags {
					t.Logf("%s:%d:%d: %s %s", path, d.Start.Line, d.Start.Col, d.Code, d.Message)
				}
				t.Logf("%s: %d findings", path, len(diags))
			}
		})
	}
}

func TestRuleMetadata(t *testing.T) {
	codes := map[string]bool{}
	names := map[string]bool{}
	codeRE := regexp.MustCompile(`^VK\d{3}$`)
	nameRE := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	for _, r := range append(All(), lint.ParseError) {
		if !codeRE.MatchString(r.Code) || codes[r.Code] {
			t.Errorf("bad or duplicate code %q", r.Code)
		}
		if !nameRE.MatchString(r.Name) || names[r.Name] {
			t.Errorf("bad or duplicate name %q", r.Name)
		}
		codes[r.Code], names[r.Name] = true, true
		if r.Severity < lint.Info || r.Severity > lint.Error {
			t.Errorf("%s: no severity", r.Code)
		}
		if r.Summary == "" || strings.Contains(r.Summary, "\n") {
			t.Errorf("%s: summary must be one line", r.Code)
		}
		if r != lint.ParseError && !strings.Contains(r.Doc, "Blind spots:") {
			t.Errorf("%s: doc must list its blind spots (a \"Blind spots:\" paragraph)", r.Code)
		}
		if r != lint.ParseError && r.Run == nil {
			t.Errorf("%s: no Run", r.Code)
		}
		if !strings.HasPrefix(r.URL(), lint.DocsURL+"#"+strings.ToLower(r.Code)) {
			t.Errorf("%s: URL %s", r.Code, r.URL())
		}
	}
	_ = fmt.Sprint
}

// TestEvalWithGradSeverity pins the level VK003's policy gives each
// sub-pattern: a forward after model.eval() whose callers live in other
// files is a note (info); a forward in a helper named like sampling, the
// pattern that was right least often on real code, is a hint (shown only
// with --hints); an output only saved as an image, right every time, is a
// warning.
func TestEvalWithGradSeverity(t *testing.T) {
	type level struct {
		sev     lint.Severity
		hint    bool
		pattern string
	}
	cases := []struct {
		file string
		want map[int]level
	}{
		{"vk003_frozen_and_callers.py", map[int]level{
			31: {lint.Info, false, "after-eval-elsewhere"},
			40: {lint.Info, true, "helper-elsewhere"},
		}},
		{"vk003_eval_without_no_grad.py", map[int]level{
			9: {lint.Info, false, "after-eval-elsewhere"},
		}},
		{"vk003_sampling_helpers.py", map[int]level{
			102: {lint.Info, false, "saved-image"},
		}},
		{"vk003_act.py", map[int]level{
			22: {lint.Info, false, "act"},
			43: {lint.Info, false, "act"},
		}},
		{"vk003_cpu_only.py", map[int]level{
			10: {lint.Info, true, "cpu-only"},
			17: {lint.Info, true, "cpu-only"},
		}},
	}
	for _, c := range cases {
		diags := checkWants(t, filepath.Join("testdata", c.file), EvalWithGrad)
		got := map[int]level{}
		for _, d := range diags {
			got[d.Start.Line] = level{d.Severity, d.Hint, d.Pattern}
		}
		for line, want := range c.want {
			if got[line] != want {
				t.Errorf("%s:%d: got %+v, want %+v", c.file, line, got[line], want)
			}
		}
	}
}

// TestLossAccumulatedSeverity pins VK001's severity: backward frees each
// step's saved activations, so a total of losses grows host memory only (a
// hint, at info) unless backward retains the graph (warning: GPU memory
// grows). Without Hints the default output keeps only the warning.
func TestLossAccumulatedSeverity(t *testing.T) {
	path := filepath.Join("testdata", "vk001_loss_accumulated.py")
	diags := checkWants(t, path, LossAccumulated)
	var warn, hint int
	for _, d := range diags {
		switch {
		case d.Severity == lint.Warning && !d.Hint && strings.Contains(d.Message, "saved activations stay alive"):
			warn++
		case d.Severity == lint.Info && d.Hint && strings.Contains(d.Message, "host memory"):
			hint++
		default:
			t.Errorf("line %d: %v hint=%v %q", d.Start.Line, d.Severity, d.Hint, d.Message)
		}
	}
	if warn != 1 || hint == 0 {
		t.Errorf("%d warnings (want 1, the retain_graph loop) and %d hints (want some)", warn, hint)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	o := options(LossAccumulated)
	o.Hints = false
	shown, _ := lint.Check(o, nil, path, src)
	if len(shown) != 1 || shown[0].Severity != lint.Warning || shown[0].Start.Line != 115 {
		t.Errorf("default output: %v, want only the retain_graph warning on line 115", shown)
	}
}

// TestGraphAppendedSeverity pins VK002's severity: a kept model output
// stays on the GPU every step (warning); a kept loss is one element whose
// saved activations backward already freed (info).
func TestGraphAppendedSeverity(t *testing.T) {
	diags := checkWants(t, filepath.Join("testdata", "vk002_graph_appended.py"), GraphAppended)
	got := map[int]lint.Severity{}
	for _, d := range diags {
		got[d.Start.Line] = d.Severity
	}
	for line, want := range map[int]lint.Severity{13: lint.Info, 14: lint.Warning} {
		if got[line] != want {
			t.Errorf("line %d: severity %v, want %v", line, got[line], want)
		}
	}
}

// TestPatternLevels pins the policy levels of VK013's and VK014's
// sub-patterns: a checkpoint load is shown by default (info); a load used
// as a whole object and DataParallel (trained in the file or not) are
// hints.
func TestPatternLevels(t *testing.T) {
	cases := []struct {
		file string
		rule *lint.Rule
		want map[int]string // line -> pattern, "+hint" when a hint
	}{
		{"vk013_load_without_map_location.py", LoadWithoutMapLocation, map[int]string{
			4: "checkpoint", 5: "object+hint", 18: "object+hint",
			23: "checkpoint", 25: "checkpoint", 26: "object+hint", 27: "object+hint",
		}},
		{"vk014_data_parallel.py", DataParallel, map[int]string{5: "trained+hint", 30: "trained+hint"}},
		{"vk014_not_trained.py", DataParallel, map[int]string{7: "unknown+hint"}},
		{"vk014_trained.py", DataParallel, map[int]string{6: "trained+hint"}},
	}
	for _, c := range cases {
		diags := checkWants(t, filepath.Join("testdata", c.file), c.rule)
		got := map[int]string{}
		for _, d := range diags {
			got[d.Start.Line] = d.Pattern
			if d.Hint {
				got[d.Start.Line] += "+hint"
			}
			if d.Severity != lint.Info {
				t.Errorf("%s:%d: severity %v, want info", c.file, d.Start.Line, d.Severity)
			}
		}
		for line, want := range c.want {
			if got[line] != want {
				t.Errorf("%s:%d: pattern %q, want %q", c.file, line, got[line], want)
			}
		}
	}
}

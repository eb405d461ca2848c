package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func run(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	code = Main(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

const trainPy = `import torch
from torch.cuda.amp import GradScaler


def train(model, loader, optimizer):
    scaler = GradScaler()
    total = 0.0
    for x, y in loader:
        optimizer.zero_grad(set_to_none=False)
        loss = model(x, y)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        total += loss
    print(total / len(loader))
`

func project(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		".git/HEAD":     "",
		"train.py":      trainPy,
		"broken.py":     "def f(:\n    pass\n",
		"ignored/x.py":  "torch.load('x')\n",
		".gitignore":    "ignored/\n",
		"run.sh":        "export PYTORCH_CUDA_ALLOC_CONF=cuda_memory_pool:True\n",
		"clean/eval.py": "import torch\n\n@torch.no_grad()\ndef f(model, x):\n    model.eval()\n    return model(x)\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLintText(t *testing.T) {
	dir := project(t)
	code, out, _ := run(t, dir, "lint")
	if code != 1 {
		t.Errorf("exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{
		"train.py:2:28: VK006 warning: torch.cuda.amp.GradScaler is deprecated",
		"train.py:9:9: VK005 warning: zero_grad(set_to_none=False)",
		"broken.py:1:",
		"VK000 error: cannot check this file: not valid Python 3 syntax near \"def f(:\"",
		"run.sh:1:32: VK020 error: PYTORCH_CUDA_ALLOC_CONF \"cuda_memory_pool:True\" is rejected",
		"in 4 files; 2 fixable with --fix",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// total += loss costs no GPU memory (backward freed the activations):
	// a hint, shown with --hints or when VK001 is selected.
	if strings.Contains(out, "VK001") {
		t.Errorf("VK001 hint in the default output:\n%s", out)
	}
	for _, args := range [][]string{{"lint", "--hints", "train.py"}, {"lint", "--select", "VK001", "train.py"}} {
		_, out, _ = run(t, dir, args...)
		for _, want := range []string{
			"train.py:13:9: VK001 info (hint): total accumulates loss with its autograd graph",
			"    fix: add a number: total += loss.item()",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: output lacks %q:\n%s", args, want, out)
			}
		}
	}
	if strings.Contains(out, "ignored/") || strings.Contains(out, "eval.py") {
		t.Errorf("gitignored or clean file reported:\n%s", out)
	}
}

func TestLintFailOn(t *testing.T) {
	dir := project(t)
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"lint", "--fail-on", "error", "train.py"}, 0},
		{[]string{"lint", "--fail-on", "warning", "train.py"}, 1},
		{[]string{"lint", "--fail-on", "none", "."}, 0},
		{[]string{"lint", "--fail-on", "error", "."}, 1},
		{[]string{"lint", "--select", "VK005", "--fail-on", "info", "clean"}, 0},
		{[]string{"lint", "--disable", "VK001,VK005,VK006", "train.py"}, 0},
		{[]string{"lint", "--fail-on", "severe"}, 2},
		{[]string{"lint", "--select", "VK999"}, 2},
		{[]string{"lint", "--format", "xml"}, 2},
		{[]string{"lint", "no/such/path"}, 1},
	} {
		if code, out, errs := run(t, dir, c.args...); code != c.code {
			t.Errorf("%v: exit %d, want %d\n%s%s", c.args, code, c.code, out, errs)
		}
	}
	// pyproject.toml's fail-on applies when the flag is not given.
	os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte("[tool.vramkit]\nfail-on = \"error\"\n"), 0o644)
	if code, out, _ := run(t, dir, "lint", "train.py"); code != 0 {
		t.Errorf("pyproject fail-on error: exit %d\n%s", code, out)
	}
}

func TestLintJSONAndSARIF(t *testing.T) {
	dir := project(t)
	code, out, _ := run(t, dir, "lint", "--format", "json", "train.py")
	var doc struct {
		Files       int
		Diagnostics []struct{ Code, Severity, URL string }
		Rules       []struct{ Code string }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 1 {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	if doc.Files != 1 || len(doc.Diagnostics) != 2 || doc.Diagnostics[0].URL == "" || len(doc.Rules) < 17 {
		t.Errorf("json: %s", out)
	}
	code, out, _ = run(t, dir, "lint", "--format", "sarif", ".")
	var log struct {
		Version string `json:"version"`
		Schema  string `json:"$schema"`
		Runs    []struct {
			Results []struct {
				RuleID string
				Level  string
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || code != 1 {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-2.1.0") || len(log.Runs[0].Results) != 4 {
		t.Errorf("sarif: %s", out)
	}
}

func TestLintFixAndDiff(t *testing.T) {
	dir := project(t)
	// --hints: the VK001 hint's .item() rewrite is applied with the others.
	code, out, errs := run(t, dir, "lint", "--hints", "--diff", "train.py")
	if code != 1 || !strings.Contains(out, "-from torch.cuda.amp import GradScaler\n+from torch.amp import GradScaler\n") ||
		!strings.Contains(out, "+        total += loss.item()\n") || !strings.Contains(errs, "would fix 3 findings in 1 file") {
		t.Errorf("--diff: exit %d\n%s%s", code, out, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "train.py")); string(b) != trainPy {
		t.Error("--diff wrote the file")
	}

	code, out, errs = run(t, dir, "lint", "--hints", "--fix", "train.py")
	if code != 0 || !strings.Contains(errs, "fixed 3 findings in 1 file") || !strings.Contains(out, "0 findings in 1 file") {
		t.Errorf("--fix: exit %d\n%s%s", code, out, errs)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "train.py"))
	want := strings.NewReplacer(
		"from torch.cuda.amp import GradScaler", "from torch.amp import GradScaler",
		"GradScaler()", `GradScaler("cuda")`,
		"zero_grad(set_to_none=False)", "zero_grad()",
		"total += loss\n", "total += loss.item()\n",
	).Replace(trainPy)
	if string(got) != want {
		t.Errorf("fixed file:\n%s\nwant:\n%s", got, want)
	}
	code, _, errs = run(t, dir, "lint", "--hints", "--diff", "train.py")
	if code != 0 || !strings.Contains(errs, "would fix 0 findings in 0 files") {
		t.Errorf("second --diff: exit %d %s", code, errs)
	}
}

func TestLintRulesHelp(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := run(t, dir, "lint", "--list-rules")
	if code != 0 || !strings.Contains(out, "VK001") || !strings.Contains(out, "VK021") || !strings.Contains(out, "VK000") {
		t.Errorf("--list-rules: %d\n%s", code, out)
	}
	code, out, _ = run(t, dir, "lint", "--explain", "oom-retry-in-except")
	if code != 0 || !strings.Contains(out, "VK004 oom-retry-in-except (error)") || !strings.Contains(out, "Blind spots:") {
		t.Errorf("--explain: %d\n%s", code, out)
	}
	code, out, _ = run(t, dir, "help", "lint")
	if code != 0 || !strings.Contains(out, "usage: vramkit lint") {
		t.Errorf("help lint: %d\n%s", code, out)
	}
}

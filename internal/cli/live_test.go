package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/monitor"
)

func runMain(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestWatchOnceFake(t *testing.T) {
	code, out, errs := runMain(t, "watch", "--once", "--fake-gpu")
	if code != 0 || !strings.Contains(out, "GPU 0 NVIDIA H200 (fake)") || !strings.Contains(out, "python3 train.py --model llama-8b") {
		t.Fatalf("code %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	code, out, _ = runMain(t, "watch", "--once", "--fake-gpu", "--format", "json")
	var s monitor.Sample
	if err := json.Unmarshal([]byte(out), &s); err != nil || code != 0 || len(s.GPUs) != 3 || s.GPUs[0].Procs[0].User == "" {
		t.Fatalf("json: code %d err %v: %.500s", code, err, out)
	}
}

func TestLiveUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"watch", "--format", "json"}, // needs --once
		{"watch", "--interval", "0s", "--once"},
		{"watch", "extra"},
		{"export", "--format", "xml"},
		{"run"},
		{"run", "--context", "some", "--", "true"},
	} {
		if code, _, errs := runMain(t, args...); code != 2 || !strings.Contains(errs, "usage:") {
			t.Errorf("%v: code %d, stderr %q", args, code, errs)
		}
	}
}

func TestWatchNeedsTerminal(t *testing.T) {
	code, _, errs := runMain(t, "watch", "--fake-gpu")
	if code != 1 || !strings.Contains(errs, "--once") {
		t.Errorf("code %d, stderr %q", code, errs)
	}
}

func TestExportBadWebConfig(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "web.yml")
	os.WriteFile(cfg, []byte("basic_auth_users: [not, a, map]\n"), 0o600)
	code, _, errs := runMain(t, "export", "--fake-gpu", "--web.config.file", cfg, "--listen", "127.0.0.1:0")
	if code != 1 || !strings.Contains(errs, "web config") {
		t.Errorf("code %d, stderr %q", code, errs)
	}
}

// The CLI end to end: the command's exit code comes back, its stdout is
// its own, the summary goes to stderr and files land in --out.
func TestRunPassesExitCode(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: the run end-to-end test needs it")
	}
	abs, _ := filepath.Abs("../capture/testdata")
	t.Setenv("PYTHONPATH", filepath.Join(abs, "pylib"))
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := runMain(t, "run", "--out", out, "--context", "none", "--", py, filepath.Join(abs, "train_fake.py"), "ok", "5")
	if code != 5 {
		t.Errorf("exit code %d, want 5\n%s", code, stderr)
	}
	if strings.TrimSpace(stdout) != "shim=True usersite=None" {
		t.Errorf("stdout %q: only the command writes there", stdout)
	}
	if !strings.Contains(stderr, "exit status 5") || !strings.Contains(stderr, "peak allocated 3.00 MiB") {
		t.Errorf("summary:\n%s", stderr)
	}
	var sum struct {
		ExitCode int `json:"exit_code"`
		Ranks    []struct {
			Context string `json:"context"`
		} `json:"ranks"`
	}
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil || sum.ExitCode != 5 || len(sum.Ranks) != 1 || sum.Ranks[0].Context != "none" {
		t.Errorf("summary.json: %v %+v", err, sum)
	}
}

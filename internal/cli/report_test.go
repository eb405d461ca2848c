package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportAndExports runs report, export-pprof and export-perfetto on the
// OOM fixture and checks what they write against stats.
func TestReportAndExports(t *testing.T) {
	snap := filepath.Join(testdata, "h200", "oom-vitl16-b96-fp32.pickle.gz")
	dir := t.TempDir()
	page := filepath.Join(dir, "r.html")
	if code, _, errs := runCLI(t, "report", snap, "-o", page); code != 0 {
		t.Fatalf("report: exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="vramkit-data"`, `"recorded_reserved":7449083904`, `"kind":"oom"`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("report lacks %s", want)
		}
	}

	trace := filepath.Join(dir, "t.json")
	if code, _, errs := runCLI(t, "export-perfetto", "-o", trace, snap); code != 0 {
		t.Fatalf("export-perfetto: exit %d: %s", code, errs)
	}
	var doc struct {
		TraceEvents []struct {
			Name string         `json:"name"`
			Ph   string         `json:"ph"`
			Args map[string]any `json:"args"`
		} `json:"traceEvents"`
	}
	tb, _ := os.ReadFile(trace)
	if err := json.Unmarshal(tb, &doc); err != nil {
		t.Fatal(err)
	}
	var peak int64
	for _, e := range doc.TraceEvents {
		if e.Ph == "C" && e.Name == "allocated" {
			peak = max(peak, int64(e.Args["bytes"].(float64)))
		}
	}
	_, out, _ := runCLI(t, "stats", "--format", "json", snap)
	var st struct {
		Devices []struct {
			Stats map[string]int64 `json:"stats"`
		} `json:"devices"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if want := st.Devices[0].Stats["allocated_bytes.all.peak"]; peak != want {
		t.Errorf("perfetto allocated peaks at %d, stats says %d", peak, want)
	}

	prof := filepath.Join(dir, "mem.pb.gz")
	if code, _, errs := runCLI(t, "export-pprof", snap, "-o", prof, "--at", "peak"); code != 0 {
		t.Fatalf("export-pprof: exit %d: %s", code, errs)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to run go tool pprof")
	}
	top, err := exec.Command(goTool, "tool", "pprof", "-top", "-lines", prof).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof: %v\n%s", err, top)
	}
	// Top sites at peak are per line; the two heaviest tie at 1.15 GiB.
	if !strings.Contains(string(top), "torch.nn.modules.linear.forward") || !strings.Contains(string(top), "linear.py:134") {
		t.Errorf("pprof -top does not list the top site linear.py:134:\n%s", top)
	}
}

// TestReportBadInput: wrong flags and files give one line and a non-zero
// exit, and leave no half-written output behind.
func TestReportBadInput(t *testing.T) {
	dir := t.TempDir()
	snap := filepath.Join(testdata, "h200", "oom-vitl16-b96-fp32.pickle.gz")
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"export-pprof", snap}, 2},                                              // no -o
		{[]string{"export-pprof", snap, "-o", dir + "/p", "--at", "later"}, 2},           // bad --at
		{[]string{"export-perfetto", "-o", dir + "/t.json", dir + "/missing.pickle"}, 1}, // no file
		{[]string{"report", filepath.Join(testdata, "bad", "garbage.gz"), "-o", dir + "/r.html"}, 1},
		{[]string{"report", "-o", dir + "/r.html"}, 2},
		{[]string{"export-perfetto", "-o", dir + "/x/t.json", snap}, 1}, // unwritable
	} {
		code, _, errs := runCLI(t, c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (%s)", c.args, code, c.code, errs)
		}
		if first := strings.SplitN(errs, "\n", 2)[0]; !strings.HasPrefix(first, "vramkit "+c.args[0]+": ") {
			t.Errorf("%v: stderr %q", c.args, errs)
		}
	}
	if _, err := os.Stat(dir + "/r.html"); err == nil {
		t.Error("a failed report left its output file")
	}
}

func TestDefaultHTMLName(t *testing.T) {
	for in, want := range map[string]string{"a/run.pickle.gz": "a/run.html", "x.pickle": "x.html", "-": "report.html", "snap": "snap.html"} {
		if got := defaultHTMLName(in); got != want {
			t.Errorf("defaultHTMLName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRunReports: run --html writes a page beside each snapshot and only
// reports, on stderr, a snapshot it cannot draw.
func TestRunReports(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(testdata, "h200", "oom-vitl16-b96-fp32.pickle.gz"))
	if err != nil {
		t.Fatal(err)
	}
	good, bad := filepath.Join(dir, "snapshot-oom.pickle"), filepath.Join(dir, "broken.pickle")
	if err := os.WriteFile(good, src, 0o644); err != nil { // gzip is detected by content
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("not a pickle"), 0o644); err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	writeRunReports(context.Background(), &Env{Stderr: &errb, Stdout: io.Discard}, []string{good, bad})
	if _, err := os.Stat(filepath.Join(dir, "snapshot-oom.html")); err != nil {
		t.Errorf("no report: %v (%s)", err, errb.String())
	}
	if lines := strings.Split(strings.TrimSpace(errb.String()), "\n"); len(lines) != 2 || !strings.Contains(lines[1], "no report for") {
		t.Errorf("stderr: %q", errb.String())
	}
}

func TestPlanSweepHTML(t *testing.T) {
	code, out, errs := runCLI(t, "plan", "--sweep", "batch=1..64", "--model", "resnet50", "--gpu", "a100-40", "--format", "html")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `"sweep":{"title":"Predicted peak memory against batch size on a100-40"`) || strings.Contains(out, "https://") {
		t.Errorf("sweep page: %.300s", out)
	}
	if code, _, _ := runCLI(t, "plan", "--model", "resnet50", "--format", "html"); code != 2 {
		t.Errorf("plan --format html without --sweep: exit %d, want 2", code)
	}
}

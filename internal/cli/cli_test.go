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

const testdata = "../../testdata"

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestStatsJSONMatchesPyTorch(t *testing.T) {
	code, out, errs := runCLI(t, "stats", "--format", "json", filepath.Join(testdata, "h200", "oom-vitl16-b96-fp32.pickle.gz"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Devices []struct {
			Device        int              `json:"device"`
			TraceComplete bool             `json:"trace_complete"`
			Stats         map[string]int64 `json:"stats"`
		} `json:"devices"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	d := got.Devices[0]
	// torch.cuda.memory_stats() at the end of that run (measured.jsonl)
	want := map[string]int64{"allocated_bytes.all.peak": 7372207104, "reserved_bytes.all.peak": 7449083904,
		"num_alloc_retries": 1, "num_ooms": 1, "num_sync_all_streams": 1, "inactive_split_bytes.all.peak": 238128128}
	if !d.TraceComplete {
		t.Error("trace_complete = false")
	}
	for k, v := range want {
		if d.Stats[k] != v {
			t.Errorf("%s = %d, PyTorch %d", k, d.Stats[k], v)
		}
	}
}

func TestStatsTextIsPyTorchSummary(t *testing.T) {
	code, out, _ := runCLI(t, "stats", "../../examples/resnet50-b64-fp32.pickle.gz")
	if code != 0 {
		t.Fatal(code)
	}
	// lines of torch.cuda.memory_summary() printed by the capture run
	for _, line := range []string{
		"| Allocated memory      | 410338 KiB |   5685 MiB |  59758 MiB |  59357 MiB |",
		"| Non-releasable memory |  85277 KiB | 784957 KiB |  23185 MiB |  23102 MiB |",
		"|       from small pool |      44    |      44    |      44    |       0    |",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("summary lacks %q", line)
		}
	}
}

func TestSimulate(t *testing.T) {
	f := filepath.Join(testdata, "h200", "oom-vitl16-b96-fp32.pickle.gz")
	code, out, errs := runCLI(t, "simulate", "--format", "json", f)
	if code != 0 || !strings.Contains(out, `"reproduced": true`) {
		t.Fatalf("exit %d %s %s", code, out, errs)
	}
	// The run died of an OOM under a 5% memory fraction; with the whole
	// device (capacity from the OOM record) the same requests fit.
	code, out, _ = runCLI(t, "simulate", "--format", "json", "--capacity", "auto", f)
	if code != 0 || !strings.Contains(out, `"oom_at_event": null`) || !strings.Contains(out, `"reproduced": null`) {
		t.Fatalf("what-if: exit %d %s", code, out)
	}
	// Under the recorded cap of 0.05 x the H200 the OOM comes back.
	code, out, _ = runCLI(t, "simulate", "--format", "json", "--memory-fraction", "0.05", f)
	if code != 0 || strings.Contains(out, `"oom_at_event": null`) {
		t.Fatalf("fraction: exit %d %s", code, out)
	}
}

func TestTune(t *testing.T) {
	code, out, errs := runCLI(t, "tune", filepath.Join(testdata, "h200", "gpt2-dyn-pad-batch-default.pickle.gz"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// expandable segments was the one setting that lowered reserved memory
	// on this workload (fixtures README); tune must find it.
	if !strings.Contains(out, "use: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True") {
		t.Errorf("tune output:\n%s", out)
	}
}

func TestBadInputs(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testdata, "bad", "*"))
	if len(files) < 8 {
		t.Fatalf("bad inputs missing: %v", files)
	}
	for _, f := range files {
		for _, cmd := range []string{"stats", "simulate", "tune"} {
			code, out, errs := runCLI(t, cmd, f)
			if code != 1 {
				t.Errorf("%s %s: exit %d, want 1", cmd, f, code)
			}
			if out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "vramkit "+cmd+": ") {
				t.Errorf("%s %s: want one error line, got stdout %q stderr %q", cmd, f, out, errs)
			}
		}
	}
}

func TestUsageErrors(t *testing.T) {
	ex := "../../examples/resnet50-b64-fp32.pickle.gz"
	for _, args := range [][]string{
		{"stats"}, {"stats", "a", "b"}, {"stats", "--format", "xml", ex}, {"stats", "--bogus", ex},
		{"simulate", "--alloc-conf", "cuda_memory_pool:x", ex}, {"simulate", "--capacity", "lots", ex},
		{"simulate", "--memory-fraction", "2", ex}, {"nosuchcommand"}, {},
	} {
		if code, _, _ := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, out, _ := runCLI(t, "help", "stats"); code != 0 || !strings.Contains(out, "usage: vramkit stats") {
		t.Errorf("help stats: %d %q", code, out)
	}
}

// TestREADMEFormats: the README's output table says, word for word, what
// each command's help says it writes, and lists every command.
func TestREADMEFormats(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range commands() {
		if c.Formats == "" {
			t.Errorf("%s: no Formats", c.Name)
			continue
		}
		row := "| `" + c.Name + "` | " + c.Formats + " |"
		if !strings.Contains(string(readme), row) {
			t.Errorf("README.md lacks the row %s", row)
		}
		code, out, _ := runCLI(t, "help", c.Name)
		if code != 0 || !strings.Contains(out, "\noutput: "+c.Formats+"\n") {
			t.Errorf("help %s does not say its output: %q", c.Name, out)
		}
	}
}

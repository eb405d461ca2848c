package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// goldenFixtures are one snapshot per workload family. Their golden
// reports' numbers were checked against measured.jsonl: the peaks are
// max_memory_allocated()/max_memory_reserved() to the byte, the memory
// kept after each iteration is alloc_after_iter, parameters are 4 bytes
// per parameter (params × 4) and Adam's state 8 bytes per parameter.
var goldenFixtures = []string{
	"resnet50-b64-fp32", "bert-base-s512-b32-fp32", "gpt2-s1024-b8-bf16", "vitl16-b32-fp32",
	"bert-dyn-pad-batch", "leak-gpt2-keep-logits", "oom-vitl16-b96-fp32", "bert-base-s512-b32-eval-grad",
}

func TestAnalyzeGolden(t *testing.T) {
	for _, name := range goldenFixtures {
		t.Run(name, func(t *testing.T) {
			in := filepath.Join("..", "..", "testdata", "analyze", name+".pickle.gz")
			var out, errb bytes.Buffer
			if code := Main(context.Background(), []string{"analyze", in}, nil, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			golden := filepath.Join("..", "..", "testdata", "analyze", "golden", name+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("analyze output differs from %s (run go test -update and review the diff)\n%s", golden, out.String())
			}
		})
	}
}

// TestAnalyzeJSONContract checks the field names issue 3 fixes.
func TestAnalyzeJSONContract(t *testing.T) {
	in := filepath.Join("..", "..", "testdata", "analyze", "oom-vitl16-b96-fp32.pickle.gz")
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"analyze", "--format", "json", in}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var v struct {
		Files []struct {
			Path    string                       `json:"path"`
			Devices []map[string]json.RawMessage `json:"devices"`
		} `json:"files"`
	}
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	d := v.Files[0].Devices[0]
	for _, k := range []string{"device", "peak_allocated_bytes", "peak_reserved_bytes", "iterations", "categories_at_peak",
		"top_sites", "fragmentation", "leaks", "oom", "advice"} {
		if _, ok := d[k]; !ok {
			t.Errorf("missing %q", k)
		}
	}
	var oom map[string]any
	if err := json.Unmarshal(d["oom"], &oom); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"requested_bytes", "allocated_bytes", "reserved_bytes", "device_free_bytes", "cause"} {
		if _, ok := oom[k]; !ok {
			t.Errorf("oom: missing %q", k)
		}
	}
}

// TestAnalyzeFlags: the replay's settings a snapshot does not record can
// be given, and bad values are usage errors.
func TestAnalyzeFlags(t *testing.T) {
	in := filepath.Join("..", "..", "testdata", "analyze", "leak-gpt2-keep-logits.pickle.gz")
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"--memory-fraction", "0"}, 2},
		{[]string{"--memory-fraction", "1.5"}, 2},
		{[]string{"--capacity", "lots"}, 2},
		{[]string{"--capacity", "80GiB", "--memory-fraction", "0.5"}, 0},
	} {
		var out, errb bytes.Buffer
		args := append(append([]string{"analyze"}, tc.args...), in)
		if code := Main(context.Background(), args, nil, &out, &errb); code != tc.code {
			t.Errorf("%v: exit %d, want %d: %s", tc.args, code, tc.code, errb.String())
		}
		if tc.code == 0 && !bytes.Contains(out.Bytes(), []byte("40.0 GiB (the --capacity given × memory fraction 0.5)")) {
			t.Errorf("%v: the leak's capacity does not follow the flags:\n%s", tc.args, out.String())
		}
	}
}

// TestAnalyzeModuleLevelFrames: in a script whose training loop runs at
// module level (nanoGPT style, captured on the H200), the user's own line
// must show on every site that has one, even when its function is
// "<module>": the parameters and optimizer state were made by lines 68
// and 81 of the script itself.
func TestAnalyzeModuleLevelFrames(t *testing.T) {
	in := filepath.Join("..", "..", "testdata", "captures", "scripts", "nanogpt-b8-bf16.pickle.gz")
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"analyze", "--tune=false", "--top", "20", in}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	text := out.String()
	for _, want := range []string{"nanogpt_train.py:68 <module>", "nanogpt_train.py:81 <module>"} {
		if !bytes.Contains(out.Bytes(), []byte(want)) {
			t.Errorf("missing %q in:\n%s", want, text)
		}
	}
	sites := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "Where it was allocated") {
			sites = true
			continue
		}
		if sites && line == "" {
			break
		}
		// A site with frames names its library call "name (file:line)";
		// unless the allocation came from the autograd engine, a user
		// frame must follow.
		if sites && strings.Contains(line, ".py:") && !strings.Contains(line, "nanogpt_train.py") {
			t.Errorf("site without the user's line: %s", line)
		}
	}
}

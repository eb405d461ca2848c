package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlanInferenceScript runs plan --task generate|serve the way a user
// would, as a script of command lines with their exit codes and what the
// output must say.
func TestPlanInferenceScript(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "gen.json")
	os.WriteFile(spec, []byte(`{"model":"qwen2-0.5b","task":"generate","batch":4,"seq":256,"new_tokens":16,
		"precision":"bf16","cache":"static","gpu":"a100-80"}`), 0o644)
	cfg := filepath.Join(dir, "config.json")
	os.WriteFile(cfg, []byte(`{"model_type":"llama","hidden_size":2048,"intermediate_size":5632,"num_hidden_layers":22,
		"num_attention_heads":32,"num_key_value_heads":4,"vocab_size":32000,"tie_word_embeddings":false}`), 0o644)
	script := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"plan", "--task", "generate", "--model", "llama3.2-1b", "--precision", "bf16", "--batch", "8", "--seq", "1024", "--new-tokens", "64"},
			0, []string{"peak reserved", "KV cache", "decode", "tokens/s", "-bound", "GB/s", "breakdown at peak", "kv_cache"}},
		{[]string{"plan", "--spec", spec}, 0, []string{"KV cache static", "a100-80"}},
		{[]string{"plan", "--task", "generate", "--hf-config", cfg, "--precision", "fp32", "--batch", "2", "--seq", "128", "--new-tokens", "8"},
			0, []string{"fp32", "peak allocated"}},
		{[]string{"plan", "--task", "serve", "--model", "llama3-8b", "--precision", "bf16", "--gpu", "h100", "--context", "8192"},
			0, []string{"# GPU blocks", "KV cache tokens", "max concurrency", "8192 tokens"}},
		// without --precision inference loads half precision, fp16 where the GPU has no bf16
		{[]string{"plan", "--task", "serve", "--model", "llama3-8b", "--gpu", "v100-32"}, 0, []string{"weights fp16"}},
		{[]string{"plan", "--task", "generate", "--model", "llama3.2-1b", "--batch", "1", "--seq", "64", "--new-tokens", "4"}, 0, []string{"weights bf16"}},
		{[]string{"plan", "--task", "generate", "--fit", "--model", "gpt2", "--precision", "bf16", "--seq", "512", "--new-tokens", "32", "--gpu", "t4", "--precision", "fp16"},
			0, []string{"largest batch that fits t4"}},
		// bad input: one line, exit 2 (a bad spec is bad usage, as for training plans)
		{[]string{"plan", "--task", "generate", "--model", "llama3.2-1b", "--cache", "paged"}, 2, []string{"cache"}},
		{[]string{"plan", "--task", "generate", "--model", "resnet50"}, 2, []string{"decoder"}},
		{[]string{"plan", "--task", "generate", "--model", "llama3.2-1b", "--new-tokens", "-3"}, 2, []string{"new_tokens"}},
		{[]string{"plan", "--task", "serve", "--model", "llama3.2-1b", "--fit"}, 2, []string{"--fit"}},
		{[]string{"plan", "--task", "generate", "--model", "llama3.2-1b", "--format", "html"}, 2, []string{"html"}},
		{[]string{"plan", "--task", "serve", "--model", "llama3.2-1b", "--gpu-memory-utilization", "2"}, 2, []string{"--gpu-memory-utilization must be in (0, 1]"}},
	}
	for _, st := range script {
		code, out, errs := runCLI(t, st.args...)
		if code != st.code {
			t.Errorf("%v: exit %d, want %d\n%s%s", st.args, code, st.code, out, errs)
			continue
		}
		text := out + errs
		for _, w := range st.want {
			if !strings.Contains(text, w) {
				t.Errorf("%v: output lacks %q:\n%s", st.args, w, text)
			}
		}
		if code != 0 && strings.Count(strings.TrimSpace(errs), "\n") > 2 {
			t.Errorf("%v: error is not short:\n%s", st.args, errs)
		}
	}
}

func TestPlanGenerateJSON(t *testing.T) {
	code, out, errs := runCLI(t, "plan", "--format", "json", "--task", "generate", "--model", "qwen2-0.5b",
		"--precision", "bf16", "--batch", "2", "--seq", "300", "--new-tokens", "20")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"peak_allocated_bytes", "peak_reserved_bytes", "process_bytes", "weights_bytes",
		"kv_cache_bytes", "prefill_s", "decode_tokens_per_s", "decode_bound", "bandwidth_gbps", "breakdown", "process_band"} {
		if _, ok := r[k]; !ok {
			t.Errorf("JSON output lacks %q", k)
		}
	}
}

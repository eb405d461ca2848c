package memmodel

import (
	"strings"
	"testing"
)

// TestMisplacedKey: a spec key its task does not read is refused by name
// (it was planned as if absent), and the defaults a spec file starts from
// are never taken for one.
func TestMisplacedKey(t *testing.T) {
	for _, tc := range []struct {
		spec, key string
	}{
		{`{"model": "gpt2", "batch": 8, "seq": 512}`, ""},
		{`{"model": "gpt2", "task": "generate", "new_tokens": 64, "cache": "static"}`, ""},
		{`{"model": "gpt2", "task": "serve", "context": 1024, "kv_dtype": "fp8"}`, ""},
		{`{"model": "gpt2", "new_tokens": 64}`, "new_tokens"},
		{`{"model": "gpt2", "context": 4096}`, "context"},
		{`{"model": "gpt2", "task": "generate", "checkpoint": "block"}`, "checkpoint"},
		{`{"model": "gpt2", "task": "generate", "lora": {"rank": 8}}`, "lora"},
		{`{"model": "gpt2", "task": "generate", "parallel": {"strategy": "ddp", "gpus": 2}}`, "parallel"},
		{`{"model": "gpt2", "task": "generate", "block_size": 32}`, "block_size"},
		{`{"model": "gpt2", "task": "serve", "new_tokens": 64}`, "new_tokens"},
	} {
		s, err := ParseSpec(strings.NewReader(tc.spec))
		if err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		if k, _ := s.MisplacedKey(); k != tc.key {
			t.Errorf("%s: misplaced %q, want %q", tc.spec, k, tc.key)
		}
		if tc.key == "" || s.Inference() {
			continue // internal/infer refuses the inference ones
		}
		if _, err := Estimate(s, DefaultOptions()); err == nil || !strings.Contains(err.Error(), tc.key+": a training plan does not read it") {
			t.Errorf("%s: Estimate's error %v", tc.spec, err)
		}
	}
}

package memmodel

import "testing"

// TestRopeFactor: how many times max_position_embeddings vLLM's rotary
// table covers, from config.json's rope_scaling as vLLM's get_rope reads
// it (Gemma 3 4B's linear 8; Qwen2.5's YaRN recipe, factor 4 over 32,768
// original positions with max_position_embeddings 131,072; Llama 3.1's
// llama3 scaling keeps the length).
func TestRopeFactor(t *testing.T) {
	for _, c := range []struct {
		cfg    string
		maxPos int
		want   float64
	}{
		{`{"rope_scaling": {"factor": 8.0, "rope_type": "linear"}}`, 131072, 8},
		{`{"rope_scaling": {"type": "dynamic", "factor": 2.0}}`, 4096, 2},
		{`{"rope_scaling": {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}`, 131072, 1},
		{`{"rope_scaling": {"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192}}`, 131072, 0},
		{`{"rope_scaling": null}`, 32768, 0},
		{`{"rope_parameters": {"rope_type": "linear", "factor": 4.0}}`, 8192, 4},
	} {
		if got := ropeFactor([]byte(c.cfg), c.maxPos); got != c.want {
			t.Errorf("%s: factor %g, want %g", c.cfg, got, c.want)
		}
	}
}

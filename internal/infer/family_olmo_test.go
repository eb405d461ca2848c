package infer

import "testing"

// TestServeOlmoGranite: vLLM serves OLMo, OLMo 2 and Granite. Their
// weights are as Hugging Face builds them: OLMo 2 1B and the Granite 3
// 2B shape have exactly the parameters transformers counted when
// late42 built them on the H200 (1,484,916,736 and 2,533,531,648);
// OLMo 1B (tied, no norm weights) and 7B, OLMo 2 7B and 13B and Granite
// 3 8B are within 1% of their model cards. A KV block holds 16 tokens of
// every layer's K and V in bf16. Generate plans them too (dev71).
func TestServeOlmoGranite(t *testing.T) {
	for _, c := range []struct {
		model          string
		params         float64
		exact          bool
		layers, kvDims int64
	}{
		{"olmo-2-1b", 1484916736, true, 16, 16 * 128},
		{"granite-3-2b", 2533531648, true, 40, 8 * 64},
		{"olmo-1b", 1.18e9, false, 16, 16 * 128},
		{"olmo-7b", 6.89e9, false, 32, 32 * 128},
		{"olmo-2-7b", 7.30e9, false, 32, 32 * 128},
		{"olmo-2-13b", 13.7e9, false, 40, 40 * 128},
		{"granite-3-8b", 8.17e9, false, 40, 8 * 128},
	} {
		r, err := Serve(serveSpec(c.model, "h200", "bf16"))
		if err != nil {
			t.Fatalf("%s: %v", c.model, err)
		}
		d := float64(r.Params)/c.params - 1
		if (c.exact && r.Params != int64(c.params)) || d < -0.01 || d > 0.01 {
			t.Errorf("%s: %d parameters, want %.4g", c.model, r.Params, c.params)
		}
		if r.Weights < 2*r.Params || r.Weights > 2*r.Params+4<<20 { // and vLLM's rotary cos/sin cache (1 MiB at 4096 positions of 128)
			t.Errorf("%s: weights %d B for %d bf16 parameters", c.model, r.Weights, r.Params)
		}
		if want := 16 * 2 * c.layers * c.kvDims * 2; r.BlockBytes != want {
			t.Errorf("%s: KV block %d B, want %d", c.model, r.BlockBytes, want)
		}
		g := serveSpec(c.model, "h200", "bf16")
		task := "generate"
		g.Task, g.Batch, g.Seq, g.NewTokens = &task, 2, 256, 16
		if r, err := Estimate(g); err != nil || r.PeakAllocated <= r.Weights {
			t.Errorf("%s generate: %v", c.model, err)
		}
	}
}

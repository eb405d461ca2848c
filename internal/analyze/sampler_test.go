package analyze

import (
	"strings"
	"testing"
)

// TestGenerationProcessors reads dev102's sampled generate traces. Qwen2.5
// 0.5B under Qwen2.5 Instruct's warpers (repetition penalty, temperature,
// top_k 20, top_p 0.8; 48 sequences × 151,936 tokens, one float32 copy of
// the scores 29,171,712 bytes) peaks in the last step's top-p sort, where
// the processors hold 13 copies (the sort's values, indices, pairs and
// cub storage beside the chain's outputs); the prefill peaks within 1%
// below it, so no advice claims that dropping top_p lowers the peak. Llama
// 3.2 1B under Llama 3 Instruct's warpers peaks in prefill: the processors
// hold nothing then. A greedy trace has no processor allocations.
func TestGenerationProcessors(t *testing.T) {
	o := DefaultOptions()
	dir := "../../testdata/dev102/sample/generate/"
	d := analyzePath(t, dir+"dev102-gen-sample-q25inst-qwen25-05b.pickle.gz", o)
	g := d.Generation
	const u = 48 * 151936 * 4
	if g == nil || g.PeakIn != "decode" || g.Processors < 12*u || g.Processors > 14*u {
		t.Fatalf("Qwen2.5 top_p: generation %+v, want a decode peak with 12 to 14 score copies (%d bytes each) in the processors", g, u)
	}
	for _, a := range d.Advice {
		if strings.Contains(a.Action, "top_k alone") {
			t.Errorf("Qwen2.5: advice %q saving %d, but the prefill peaks within 1%% below", a.Action, a.Saving)
		}
	}
	d = analyzePath(t, dir+"dev102-gen-sample-l3inst-llama32-1b.pickle.gz", o)
	if g := d.Generation; g == nil || g.PeakIn != "prefill" || g.Processors != 0 {
		t.Errorf("Llama 3.2 1B: generation %+v, want a prefill peak with no processor tensors alive", g)
	}
	d = analyzePath(t, "../../testdata/captures/generate/gentrace-tinyllama-bf16-dynamic.pickle.gz", o)
	if g := d.Generation; g == nil || g.Processors != 0 {
		t.Errorf("greedy TinyLlama: generation %+v, want no processor tensors", g)
	}
}

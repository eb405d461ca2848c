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
	if g == nil || g.PeakIn != "decode" || g.Processors < 12*u || g.Processors > 14*u || !g.ProcessorsSort {
		t.Fatalf("Qwen2.5 top_p: generation %+v, want a decode peak with 12 to 14 score copies (%d bytes each) in the processors, sorted", g, u)
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

// TestKeptScores: generate(return_dict_in_generate=True, output_scores=True)
// keeps every step's float32 scores in its output. dev103's greedy Llama
// 3.2 1B trace (b16, 256 new tokens) holds 254 of them from earlier steps
// at its peak (16 × 128256 × 4 bytes each), its output_logits Qwen2.5-0.5B
// trace (b32, top_p, 128 new tokens) 126; analyze says so and advises
// dropping them, saving the trace replayed without them (Llama: down to
// its load's transient, 2.79 GiB, so 1.71 GiB of the 1.94 GiB kept). The
// same sampling without the flags, and greedy search, keep none.
func TestKeptScores(t *testing.T) {
	o := DefaultOptions()
	dir := "../../testdata/dev103/sample/generate/"
	for _, tc := range []struct {
		file      string
		u         int64
		min, max  int
		processor bool
	}{
		{"dev103-gen-greedy-scores-llama32-1b.pickle.gz", 16 * 128256 * 4, 250, 255, false},
		{"dev103-gen-sample-logits-qwen25-05b.pickle.gz", 32 * 151936 * 4, 122, 127, true},
	} {
		d := analyzePath(t, dir+tc.file, o)
		g := d.Generation
		if g == nil || g.KeptScoresTensors < tc.min || g.KeptScoresTensors > tc.max || g.KeptScores != int64(g.KeptScoresTensors)*tc.u {
			t.Fatalf("%s: generation %+v, want %d to %d kept score tensors of %d bytes", tc.file, g, tc.min, tc.max, tc.u)
		}
		var kept, topK *Advice
		for i, a := range d.Advice {
			switch {
			case strings.Contains(a.Action, "output_scores"):
				kept = &d.Advice[i]
			case strings.Contains(a.Action, "top_k alone"):
				topK = &d.Advice[i]
			}
		}
		if kept == nil || kept.Saving < g.KeptScores*4/5 || kept.Saving > g.KeptScores*101/100 { // saving in blocks, rounded up
			t.Errorf("%s: advice %+v, want dropping output_scores to save most of the %d bytes kept", tc.file, kept, g.KeptScores)
		}
		// top_p's sort still sets the decode peak's other part; the
		// processors counted are not the kept scores
		if (topK != nil) != tc.processor || g.Processors >= g.KeptScores {
			t.Errorf("%s: top_k advice %v, processors %d bytes beside %d kept", tc.file, topK != nil, g.Processors, g.KeptScores)
		}
	}
	for _, p := range []string{dir + "dev103-gen-sample-l3inst-llama32-1b-long.pickle.gz",
		"../../testdata/dev102/sample/generate/dev102-gen-sample-q25inst-qwen25-05b.pickle.gz",
		"../../testdata/captures/generate/gentrace-tinyllama-bf16-dynamic.pickle.gz"} {
		d := analyzePath(t, p, o)
		if g := d.Generation; g == nil || g.KeptScores != 0 {
			t.Errorf("%s: generation %+v, want no kept scores", p, g)
		}
	}
}

// TestProcessorsWithoutSort: dev103's GPT-2 medium trace samples with
// transformers' defaults (top_k 50, no top_p): its warpers make a float32
// copy of the scores and a bool mask, never a sort's int64 indices, so the
// analysis says no warper sorted and gives no "top_k instead of top_p"
// advice (top_p is off already). Llama 3.2 1B's long trace under Llama 3
// Instruct's warpers (top_p 0.9) sorts, and gets it.
func TestProcessorsWithoutSort(t *testing.T) {
	dir := "../../testdata/dev103/sample/generate/"
	for _, tc := range []struct {
		file string
		sort bool
	}{
		{"dev103-gen-sample-default-gpt2-medium-long.pickle.gz", false},
		{"dev103-gen-sample-l3inst-llama32-1b-long.pickle.gz", true},
	} {
		d := analyzePath(t, dir+tc.file, DefaultOptions())
		g := d.Generation
		if g == nil || g.Processors == 0 || g.ProcessorsSort != tc.sort {
			t.Fatalf("%s: generation %+v, want processor tensors at the peak, sorted %v", tc.file, g, tc.sort)
		}
		topK := false
		for _, a := range d.Advice {
			topK = topK || strings.Contains(a.Action, "top_k alone")
		}
		if topK != tc.sort {
			t.Errorf("%s: top_k advice %v, want it only where top_p sorted", tc.file, topK)
		}
	}
}

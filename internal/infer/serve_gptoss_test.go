package infer

import "testing"

// gptOSSSeen are the gpt-oss logs read while its serve plan was written
// (collected by someone else; docs/inference.md cites them).
var gptOSSSeen = []quantLog{
	// dennislee22/vLLM-benchmarking: 120B, TP 4 over four A100 nodes, Marlin
	{src: "A-S1 4xA100 TP4", version: "0.10.1", model: "gpt-oss-120b", gpu: "a100-80", tp: 4, context: 16384, tokensBatched: 2048, util: 0.8, weightsGiB: 17.2217, kvGiB: 45.32},
	// vllm#23278: 120B on one H100 (Marlin), vLLM refuses to start
	{src: "vllm#23278", version: "0.10.1", model: "gpt-oss-120b", gpu: "h100", context: 131072, weightsGiB: 65.9651, kvGiB: -2.14},
	// vllm#27508: 120B on one H100 from a pip install, util 0.95, 1024 batched tokens
	{src: "vllm#27508", version: "0.11.0", model: "gpt-oss-120b", gpu: "h100", context: 131072, tokensBatched: 1024, util: 0.95, kvGiB: 1.71},
	// llm-d-benchmark (DEBUG summaries, vllm-openai ~0.11, H100, block 128)
	{src: "llm-d 20b", version: "0.11.0", model: "gpt-oss-20b", gpu: "h100", context: 16000, block: 128, util: 0.9, weightsGiB: 13.47, kvGiB: 50.28},
	{src: "llm-d 120b", version: "0.11.0", model: "gpt-oss-120b", gpu: "h100", context: 16000, block: 128, util: 0.9, weightsGiB: 64.38, kvGiB: 3.33},
}

// TestServeGptOSSSeen: every seen figure inside its band.
func TestServeGptOSSSeen(t *testing.T) { allInside(t, gptOSSSeen) }

// gptOSSBlind were kept from the author until the plan above was
// committed; the rows are written from their inputs alone.
var gptOSSBlind = []quantLog{
	// A-B1: 20B, TP 2 over two AMD Radeon AI PRO R9700 nodes (the table
	// lacks the card: ROCm's Triton layout on an MI300X; weights only)
	{src: "A-B1 R9700 TP2", version: "0.11.1", model: "gpt-oss-20b", gpu: "mi300x", tp: 2, context: 131072, tokensBatched: 2048, eager: true, weightsGiB: 7.2637},
	// A-B2: 20B on an RTX 3090 (Marlin), the gptoss image
	{src: "A-B2 RTX 3090", version: "0.10.1", model: "gpt-oss-20b", gpu: "rtx3090", context: 131072, weightsGiB: 12.8848},
	// A-B3: 120B on an H100, util 0.97, 5120 tokens, one sequence (weights only)
	{src: "A-B3 H100", version: "0.14.1", model: "gpt-oss-120b", gpu: "h100", context: 5120, seqs: 1, util: 0.97, weightsGiB: 64.38},
	// A-B4: 20B on an A100 80GB, util 0.65
	{src: "A-B4 A100", version: "0.19.0", model: "gpt-oss-20b", gpu: "a100-80", context: 131072, util: 0.65, weightsGiB: 13.72, kvGiB: 36.56},
}

func TestServeGptOSSBlind(t *testing.T) {
	inside, scored := 0, 0
	for _, l := range gptOSSBlind {
		r, err := l.plan()
		if err != nil {
			t.Fatalf("%s: %v", l.src, err)
		}
		if l.weightsGiB == 0 {
			continue
		}
		in, n := l.score(t, r)
		inside, scored = inside+in, scored+n
	}
	// first sight: 3 of 5. Outside: the R9700's ROCm layout (-6.3%:
	// ROCm pads to its own alignment, which vramkit does not know) and
	// the RTX 3090 under the gptoss preview image (+6.1%: the unpadded
	// checkpoint's size, not Marlin's padding)
	if inside < 3 {
		t.Errorf("%d of %d figures inside their bands, 3 at first sight", inside, scored)
	}
	t.Logf("%d of %d figures inside their bands", inside, scored)
}

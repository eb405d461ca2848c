package infer

import (
	"testing"
)

// vllmV1BlindLogs were collected by someone else while the V1 sizing was
// written and evaluated once it was done (docs/inference.md: on first
// sight 4 of 9 fell inside the band, from -0.8% to +21.9%; the sampler's
// sort became the figure and the band's top after that, so they are seen
// now). Tokens is "GPU KV cache size"; where a log gives only "Available
// KV cache memory", KVGiB.
var vllmV1BlindLogs = []struct {
	src, version, model, gpu, entry string
	util                            float64
	context, seqs                   int
	eager                           bool
	tokens                          int64
	kvGiB                           float64
}{
	// Qwen3-8B, vllm serve defaults, A100-SXM4-40GB, no FlashInfer
	{"blog notes, 4xA100 box", "0.9.2", "qwen3-8b", "a100-40", "serve", 0, 40960, 0, false, 136080, 0},
	// TechBroMoho/quantized-llm-serving server logs (vllm-openai:v0.10.2)
	{"quantized-llm-serving L4", "0.10.2", "qwen3-0.6b", "l4", "serve", 0.85, 1024, 256, true, 159840, 0},
	{"quantized-llm-serving L40S eager", "0.10.2", "qwen3-8b", "l40s", "serve", 0.9, 4096, 0, true, 175728, 0},
	{"quantized-llm-serving L40S graphs", "0.10.2", "qwen3-8b", "l40s", "serve", 0, 1024, 256, false, 170944, 0},
	{"quantized-llm-serving lm-eval", "0.10.2", "qwen3-8b", "l40s", "llm", 0.8, 4096, 0, true, 141328, 0},
	// Qwen2.5-7B-Instruct, vllm serve defaults, AWS g6e (L40S)
	{"quantization benchmark blog", "0.8.5", "qwen2.5-7b", "l40s", "serve", 0, 32768, 0, false, 444592, 0},
	// Hermes-3-Llama-3.1-8B on an RTX 3090 (version inferred from the log's line tags)
	{"assistant project doc", "0.12", "llama3-8b", "rtx3090", "serve", 0.85, 16384, 0, false, 30960, 0},
	// llm-d-benchmark empirical-vllm-memory-results.md, H100, ~0.11
	{"llm-d-benchmark", "0.11", "llama3-8b", "h100", "serve", 0.9, 16000, 0, false, 0, 51.38},
	{"llm-d-benchmark", "0.11", "qwen3-0.6b", "h100", "serve", 0.9, 16000, 0, false, 0, 64.45},
}

func TestServeV1BlindLogs(t *testing.T) {
	for _, l := range vllmV1BlindLogs {
		s := serveSpec(l.model, l.gpu, "bf16")
		s.Context, s.VLLM, s.Entry, s.EnforceEager = l.context, l.version, l.entry, l.eager
		s.GPUMemoryUtilization, s.MaxNumSeqs = l.util, l.seqs
		r, err := Serve(s)
		if err != nil {
			t.Fatal(err)
		}
		got, lo, hi, want := float64(r.Tokens), float64(r.TokensLow), float64(r.TokensHigh), float64(l.tokens)
		if l.tokens == 0 {
			got, lo, hi, want = float64(r.kvSigned[0])/(1<<30), float64(r.kvSigned[1])/(1<<30), float64(r.kvSigned[2])/(1<<30), l.kvGiB
		}
		rel := (got - want) / want
		t.Logf("%s (vLLM %s) %s on %s: %.6g (%.6g-%.6g), vLLM %.6g (%+.1f%%)", l.src, l.version, l.model, l.gpu, got, lo, hi, want, 100*rel)
		if want < lo || want > hi {
			t.Errorf("%s: vLLM's %.6g outside the band %.6g-%.6g", l.src, want, lo, hi)
		}
		// over-counting the cache promises concurrency vLLM will not have
		if rel > 0.03 || rel < -0.07 {
			t.Errorf("%s: %.6g against vLLM's %.6g (%+.1f%%)", l.src, got, want, 100*rel)
		}
	}
}

// vllmMoELogs are MoE start-up figures collected by someone else and
// evaluated once, after the MoE plan was written, with nothing changed
// since (docs/inference.md). All three are Qwen3-30B-A3B's attention shape
// (48 layers, 4 KV heads of 128).
var vllmMoELogs = []struct {
	src, version, gpu string
	util              float64
	context, seqs, tp int
	tokens            int64
}{
	// Qwen3-Coder-30B-A3B-Instruct on "a single 80GB card" (an H100 or an
	// A100: +2.1% if an A100), --max-num-seqs 8, quoted in an HPC script
	{"Barkla HPC script", "0.10", "h100", 0.9, 131072, 8, 1, 150272},
	// vllm-project/vllm#21524: TP 2 across two H100 nodes (-6.4% at first
	// sight, -10.5% since NVSwitch NCCL is charged on H100s: two nodes
	// share no NVSwitch, vramkit cannot tell)
	{"vllm#21524", "0.10", "h100", 0.9, 40960, 0, 2, 878416},
	// vllm-project/vllm#17469: TP 4 on A10s, v0.8.5 (utilization not in
	// the excerpt: vLLM's default assumed)
	{"vllm#17469", "0.8.5", "a10", 0, 8192, 0, 4, 198784},
}

func TestServeMoEBlindLogs(t *testing.T) {
	for _, l := range vllmMoELogs {
		s := serveSpec("qwen3-30b-a3b", l.gpu, "bf16")
		s.Context, s.VLLM, s.GPUMemoryUtilization, s.MaxNumSeqs = l.context, l.version, l.util, l.seqs
		s.Parallel.TP = l.tp
		r, err := Serve(s)
		if err != nil {
			t.Fatal(err)
		}
		rel := float64(r.Tokens-l.tokens) / float64(l.tokens)
		t.Logf("%s (vLLM %s, tp %d, %s): %d tokens (%d-%d), vLLM %d (%+.1f%%)", l.src, l.version, l.tp, l.gpu, r.Tokens, r.TokensLow, r.TokensHigh, l.tokens, 100*rel)
		if l.tokens < r.TokensLow || l.tokens > r.TokensHigh {
			t.Errorf("%s: vLLM's %d tokens outside the band %d-%d", l.src, l.tokens, r.TokensLow, r.TokensHigh)
		}
		if rel > 0.03 || rel < -0.12 {
			t.Errorf("%s: %d tokens against vLLM's %d (%+.1f%%)", l.src, r.Tokens, l.tokens, 100*rel)
		}
	}
}

// vllmTPLogs are dense tensor-parallel figures collected by someone else
// and evaluated once (docs/inference.md: 4 of 6 inside the band at first
// sight; the two H100 ones then showed vLLM's NCCL communicators charged
// to the budget, priced since from late44's measurement, so they are
// seen now). Tokens is "GPU KV cache size".
var vllmTPLogs = []struct {
	src, version, model, gpu string
	hf                       string // config.json when the catalog lacks the model
	tp, context, seqs        int
	tokens                   int64
}{
	// gnosia93/eks-agentic-ai lesson: 4x L40S, vllm-openai 0.19.0
	{"EKS lesson", "0.19", "qwen2.5-72b", "l40s", "", 4, 8192, 0, 67024},
	// LMCache FAQ table (PR LMCache#1769), H100, model defaults
	{"LMCache FAQ", "0.11", "", "h100", qwen3_32b, 2, 40960, 0, 275760},
	{"LMCache FAQ", "0.11", "llama3-70b", "h100", "", 4, 131072, 0, 420208},
	// natoscott/benchmarks llm-d 0.4.0 report, 2x L40S, --max-num-seq 1024
	{"llm-d report", "0.11.2", "qwen3-8b", "l40s", "", 2, 40960, 1024, 390704},
	{"llm-d report", "0.11.2", "qwen3-14b", "l40s", "", 2, 40960, 1024, 269712},
	// AMD ROCm blog: DeepSeek-R1-Distill-Qwen-14B (Qwen2.5-14B's shape), MI300X
	{"ROCm blog", "0.11.1", "qwen2.5-14b", "mi300x", "", 2, 4096, 0, 1661008},
}

// qwen3_32b is Qwen3-32B's config.json (the shape that matters here).
const qwen3_32b = `{"model_type":"qwen3","hidden_size":5120,"num_hidden_layers":64,"num_attention_heads":64,
"num_key_value_heads":8,"head_dim":128,"intermediate_size":25600,"vocab_size":151936,"tie_word_embeddings":false,
"max_position_embeddings":40960}`

func TestServeTPBlindLogs(t *testing.T) {
	for _, l := range vllmTPLogs {
		s := serveSpec(l.model, l.gpu, "bf16")
		if l.hf != "" {
			s.Model, s.HFConfig = nil, []byte(l.hf)
		}
		s.Context, s.VLLM, s.MaxNumSeqs = l.context, l.version, l.seqs
		s.Parallel.TP = l.tp
		r, err := Serve(s)
		if err != nil {
			t.Fatal(err)
		}
		rel := float64(r.Tokens-l.tokens) / float64(l.tokens)
		t.Logf("%s (vLLM %s) %s tp %d on %s: %d tokens (%d-%d), vLLM %d (%+.1f%%)", l.src, l.version, r.Model, l.tp, l.gpu, r.Tokens, r.TokensLow, r.TokensHigh, l.tokens, 100*rel)
		if l.tokens < r.TokensLow || l.tokens > r.TokensHigh {
			t.Errorf("%s: vLLM's %d tokens outside the band %d-%d", l.src, l.tokens, r.TokensLow, r.TokensHigh)
		}
		if rel > 0.03 || rel < -0.12 {
			t.Errorf("%s: %d tokens against vLLM's %d (%+.1f%%)", l.src, r.Tokens, l.tokens, 100*rel)
		}
	}
}

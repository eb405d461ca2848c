package infer

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// vllmLogs are KV-cache sizes vLLM printed at start-up, pasted by users in
// public threads (docs/inference.md lists them with their links). Blocks
// is "# GPU blocks" (or, where the log gives the KV memory instead, that
// memory over the 16-token block size).
var vllmLogs = []struct {
	src, version, model, gpu string
	context                  int
	util                     float64
	blocks                   int64
}{
	// vllm-project/vllm#2031 (v0.2.x), TP=1, Llama-2-7B, 1×A100-80GB
	{"vllm#2031", "0.2", "llama2-7b", "a100-80", 4096, 0.9, 7351},
	// vllm-project/vllm#10511 (v0.6.5): available_kv_cache_memory 53.29GiB
	// for Meta-Llama-3-8B on an 80 GB card (total_gpu_memory 79.22GiB)
	{"vllm#10511", "0.6.5", "llama3-8b", "h100", 8192, 0.9, 27284},
	// vllm-project/vllm#10517 (v0.6.4): Llama-3.1-8B-Instruct on an RTX
	// 3090 at --max-model-len 20000 and 29000
	{"vllm#10517", "0.6.4", "llama3-8b", "rtx3090", 20000, 0.9, 1952},
	{"vllm#10517", "0.6.4", "llama3-8b", "rtx3090", 29000, 0.9, 1478},
}

func TestServeMatchesVLLMLogs(t *testing.T) {
	for _, l := range vllmLogs {
		s := serveSpec(l.model, l.gpu, "bf16")
		s.Context, s.GPUMemoryUtilization, s.VLLM = l.context, l.util, l.version
		r, err := Serve(s)
		if err != nil {
			t.Fatal(err)
		}
		rel := float64(r.Blocks-l.blocks) / float64(l.blocks)
		t.Logf("%s %s on %s at %d tokens: %d blocks, vLLM %d (%+.1f%%)", l.src, l.model, l.gpu, l.context, r.Blocks, l.blocks, 100*rel)
		if math.Abs(rel) > 0.05 {
			t.Errorf("%s: %d blocks, vLLM logged %d (%+.1f%%)", l.src, r.Blocks, l.blocks, 100*rel)
		}
		if r.Tokens != r.Blocks*int64(r.BlockSize) || r.MaxConcurrent != float64(r.Tokens)/float64(l.context) {
			t.Errorf("%s: tokens %d / concurrency %.2f inconsistent with %d blocks", l.src, r.Tokens, r.MaxConcurrent, r.Blocks)
		}
		if logged := l.blocks * 16; logged < r.TokensLow || logged > r.TokensHigh {
			t.Errorf("%s: vLLM's %d tokens outside the band %d-%d", l.src, logged, r.TokensLow, r.TokensHigh)
		}
	}
}

// vllmV1Logs are V1-engine start-up logs ("GPU KV cache size: N tokens")
// quoted in public repositories (docs/inference.md lists them). They were
// read while the V1 sizing was written, so they check it; they are not a
// blind test.
var vllmV1Logs = []struct {
	src, version, model, gpu, prec, entry string
	eager                                 bool
	context                               int
	tokens                                int64
}{
	// Llama-3.1-8B-Instruct, LLM(enforce_eager=True), A100 40GB (GCE)
	{"ilseokoh/vllm-gce README", "0.15.1", "llama3-8b", "a100-40", "bf16", "llm", true, 131072, 157936},
	// Qwen2.5-7B-Instruct in fp16 on an sm70 32 GB card (TRITON_ATTN)
	{"gpu-util-interference log", "0.18.0", "qwen2.5-7b", "v100-32", "fp16", "llm", true, 32768, 245360},
	// Llama-3.1-8B-Instruct, vllm/vllm-openai:v0.31.0, no flags, A100 80GB
	{"A100 lab notes", "0.31.0", "llama3-8b", "a100-80", "bf16", "serve", false, 131072, 460496},
}

func TestServeMatchesVLLMV1Logs(t *testing.T) {
	for _, l := range vllmV1Logs {
		s := serveSpec(l.model, l.gpu, l.prec)
		s.Context, s.VLLM, s.Entry, s.EnforceEager = l.context, l.version, l.entry, l.eager
		r, err := Serve(s)
		if err != nil {
			t.Fatal(err)
		}
		rel := float64(r.Tokens-l.tokens) / float64(l.tokens)
		t.Logf("%s (vLLM %s) %s on %s: %d tokens (%d-%d), vLLM %d (%+.1f%%)", l.src, l.version, l.model, l.gpu, r.Tokens, r.TokensLow, r.TokensHigh, l.tokens, 100*rel)
		if math.Abs(rel) > 0.03 {
			t.Errorf("%s: %d tokens, vLLM logged %d (%+.1f%%)", l.src, r.Tokens, l.tokens, 100*rel)
		}
		if l.tokens < r.TokensLow || l.tokens > r.TokensHigh {
			t.Errorf("%s: vLLM's %d tokens outside the band %d-%d", l.src, l.tokens, r.TokensLow, r.TokensHigh)
		}
	}
}

// TestServeEngineDefaults pins the V1 engine arguments' defaults to
// vllm/engine/arg_utils.py: the OpenAI server on a >= 70 GiB GPU other
// than an A100 profiles 8192 tokens over 1024 sequences, the LLM class
// 16384; smaller GPUs and A100s (from 0.9) 2048 or 8192 over 256; V0
// profiles max(max_model_len, 2048). An A100 got the large defaults in
// 0.8.
func TestServeEngineDefaults(t *testing.T) {
	cases := []struct {
		version, gpu, entry string
		context             int
		tokens, seqs        int
		util                float64
	}{
		{"", "h100", "serve", 4096, 8192, 1024, 0.92},
		{"0.11", "h200", "llm", 4096, 16384, 1024, 0.9},
		{"0.11", "a100-80", "serve", 4096, 2048, 256, 0.9},
		{"0.8.5", "a100-80", "serve", 4096, 8192, 1024, 0.9},
		{"0.11", "l4", "llm", 4096, 8192, 256, 0.9},
		{"0.6.5", "h100", "serve", 32768, 32768, 256, 0.9},
		{"0.6.5", "h100", "serve", 1024, 2048, 256, 0.9},
		// V0 chunks the prefill of models longer than 32K (vllm#6666)
		{"0.6.5", "h100", "serve", 131072, 512, 256, 0.9},
		{"0.5", "h100", "serve", 131072, 131072, 256, 0.9},
		// V1 caps max_num_seqs at the batched tokens
		{"0.31", "l4", "serve", 4096, 2048, 256, 0.92},
	}
	for _, c := range cases {
		s := serveSpec("llama3.2-1b", c.gpu, "bf16")
		s.Context, s.VLLM, s.Entry = c.context, c.version, c.entry
		r, err := Serve(s)
		if err != nil {
			t.Fatal(err)
		}
		if r.MaxNumBatchedTokens != c.tokens || r.MaxNumSeqs != c.seqs || r.Utilization != c.util {
			t.Errorf("vLLM %q %s %s: %d tokens, %d seqs, util %.2f; want %d, %d, %.2f", c.version, c.gpu, c.entry,
				r.MaxNumBatchedTokens, r.MaxNumSeqs, r.Utilization, c.tokens, c.seqs, c.util)
		}
	}
	s := memmodel.DefaultSpec()
	m, task := "llama3.2-1b", "serve"
	s.Model, s.Task = &m, &task
	for _, bad := range []string{"abc", "0.1", "7"} {
		s.VLLM = bad
		if _, err := Serve(s); !IsSpecError(err) {
			t.Errorf("vllm %q: want a spec error, got %v", bad, err)
		}
	}
	s.VLLM, s.Entry = "", "python"
	if _, err := Serve(s); !IsSpecError(err) {
		t.Errorf("entry python: want a spec error, got %v", err)
	}
	// without chunked prefill V0 cannot schedule a whole prompt in fewer
	// batched tokens than the model length, and refuses to start
	s.VLLM, s.Entry, s.Context, s.MaxNumBatchedTokens = "0.6.5", "", 8192, 4096
	if _, err := Serve(s); !IsSpecError(err) {
		t.Errorf("V0 max_num_batched_tokens below the model length: want a spec error, got %v", err)
	}
	// a sliding-window model keeps V0's whole-length profile past 32K
	mis := "mistral-7b"
	s.Model, s.MaxNumBatchedTokens, s.Context, s.Precision = &mis, 0, 32768+16, "bf16"
	if r, err := Serve(s); err != nil || r.MaxNumBatchedTokens != 32768+16 {
		t.Errorf("V0 Mistral-7B at 32784 tokens: %v, %+v", err, r)
	}
}

// TestServeRefusesWhatCannotStart: vLLM refuses to start when the cache
// cannot hold one sequence of the model length; 16 GB cards cannot serve
// an 8B model in bf16 at all.
func TestServeRefusesWhatCannotStart(t *testing.T) {
	m, task := "llama3-8b", "serve"
	s := memmodel.DefaultSpec()
	s.Model, s.Task, s.Precision, s.GPU, s.Context = &m, &task, "fp16", "v100-16", 4096
	r, err := Serve(s)
	if err != nil {
		t.Fatal(err)
	}
	if r.Fits || r.Blocks != 0 {
		t.Errorf("8B fp16 on a 16 GB V100: fits=%v with %d blocks", r.Fits, r.Blocks)
	}
	s.GPUMemoryUtilization = 1.5
	if _, err := Serve(s); !IsSpecError(err) {
		t.Errorf("utilization 1.5: want a spec error, got %v", err)
	}
}

// TestServeTensorParallel: under tensor parallelism each GPU holds its
// share of the weights and of the KV heads, so a 70B model that cannot
// start on one H100 serves on four, each GPU's blocks a quarter of the
// single-GPU block size; KV heads fewer than the GPUs are replicated, and
// a degree that does not split the heads is refused, as vLLM refuses it.
func TestServeTensorParallel(t *testing.T) {
	serve := func(model string, tp int) (*ServeResult, error) {
		s := serveSpec(model, "h100", "bf16")
		s.Context = 8192
		s.Parallel.TP = tp
		return Serve(s)
	}
	must := func(model string, tp int) *ServeResult {
		r, err := serve(model, tp)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	one, four := must("llama3-70b", 1), must("llama3-70b", 4)
	if one.Fits || !four.Fits {
		t.Errorf("70B on one H100 fits=%v, on four fits=%v", one.Fits, four.Fits)
	}
	// 80 layers x 8 KV heads x 128 x 2 (K, V) x 2 bytes x 16 tokens = 5 MiB
	if one.BlockBytes != 5<<20 || four.BlockBytes != one.BlockBytes/4 {
		t.Errorf("block bytes %d on one GPU, %d on four", one.BlockBytes, four.BlockBytes)
	}
	if d := float64(four.Weights)/float64(one.Weights) - 0.25; d < -0.001 || d > 0.001 {
		t.Errorf("weights per GPU %d of %d: not a quarter", four.Weights, one.Weights)
	}
	// Llama 3 8B has 8 KV heads: on 16 GPUs each holds one, replicated
	sixteen, eight := must("llama3-8b", 16), must("llama3-8b", 8)
	if sixteen.BlockBytes != eight.BlockBytes || sixteen.Weights <= eight.Weights/2 {
		t.Errorf("tp 16: block %d (tp 8: %d), weights %d (tp 8: %d)", sixteen.BlockBytes, eight.BlockBytes, sixteen.Weights, eight.Weights)
	}
	for _, c := range []struct {
		model string
		tp    int
	}{{"llama3-70b", 3}, {"qwen2.5-7b", 8}} {
		if _, err := serve(c.model, c.tp); !IsSpecError(err) {
			t.Errorf("%s tp %d: want a spec error, got %v", c.model, c.tp, err)
		}
	}
}

// serveSpec is a serve plan of model on gpu with weights in prec.
func serveSpec(model, gpu, prec string) memmodel.Spec {
	m, task := model, "serve"
	s := memmodel.DefaultSpec()
	s.Model, s.Task, s.Precision, s.GPU = &m, &task, prec, gpu
	return s
}

// TestServeMixtureOfExperts: vLLM serves the MoE families; their weights
// are every expert's (Qwen3-30B-A3B 30.5B parameters, Mixtral-8x7B
// 46.7B, as their model cards say), and Hugging Face generate, which
// vramkit does not plan for them, is refused by name.
func TestServeMixtureOfExperts(t *testing.T) {
	for _, c := range []struct {
		model  string
		params float64
	}{{"qwen3-30b-a3b", 30.5e9}, {"mixtral-8x7b", 46.7e9}, {"qwen1.5-moe-a2.7b", 14.3e9}} {
		r, err := Serve(serveSpec(c.model, "h200", "bf16"))
		if err != nil {
			t.Fatal(err)
		}
		if d := float64(r.Params)/c.params - 1; d < -0.01 || d > 0.01 {
			t.Errorf("%s: %d parameters, the model card %.3g", c.model, r.Params, c.params)
		}
		if !r.Fits || r.Weights < int64(2*c.params*0.99) {
			t.Errorf("%s on an H200: fits=%v, weights %d", c.model, r.Fits, r.Weights)
		}
		g := serveSpec(c.model, "h200", "bf16")
		task := "generate"
		g.Task = &task
		if _, err := Estimate(g); !IsSpecError(err) || !strings.Contains(err.Error(), "--task serve plans it") {
			t.Errorf("%s generate: %v", c.model, err)
		}
	}
}

// TestServeFit: the fewest tensor-parallel H100s whose cache holds 64
// sequences of 8192 tokens of Llama 3 70B at the band's low end. One and
// two cannot start (131 and 66 GiB of weights a GPU against a 73 GiB
// budget, the second leaving too little for one sequence), four hold
// about 50 (409k tokens at the low end), eight hold them; and an ask no
// degree meets is ErrNothingFits with every degree tried.
func TestServeFit(t *testing.T) {
	s := serveSpec("llama3-70b", "h100", "bf16")
	s.Context = 8192
	r, err := ServeFit(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	if r.Best == nil || r.Best.TP != 8 || len(r.Tried) != 4 || r.Need != 64*8192 {
		t.Fatalf("best %+v after %d tries, need %d", r.Best, len(r.Tried), r.Need)
	}
	if four := r.Tried[2]; four.TP != 4 || four.TokensLow >= r.Need || !four.Fits {
		t.Errorf("tp 4: %d tokens at the low end, fits=%v", four.TokensLow, four.Fits)
	}
	if r.Tried[0].Fits {
		t.Errorf("70B on one H100 starts")
	}
	s.GPU, s.Context = "l4", 32768
	r, err = ServeFit(s, 500)
	if !errors.Is(err, ErrNothingFits) || r == nil || r.Best != nil || r.Tried[len(r.Tried)-1].TP != 16 {
		t.Errorf("500 sequences of 32k on L4s: %v, %+v", err, r)
	}
	if _, err := ServeFit(s, 0); !IsSpecError(err) {
		t.Errorf("concurrency 0: want a spec error, got %v", err)
	}
}

package infer

import (
	"math"
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// vllmLogs are KV-cache sizes vLLM printed at start-up, pasted by users in
// public threads (docs/inference.md lists them with their links). Blocks
// is "# GPU blocks" (or, where the log gives the KV memory instead, that
// memory over the 16-token block size).
var vllmLogs = []struct {
	src, model, gpu string
	context         int
	util            float64
	blocks          int64
}{
	// vllm-project/vllm#2031 (v0.2.x), TP=1, Llama-2-7B, 1×A100-80GB
	{"vllm#2031", "llama2-7b", "a100-80", 4096, 0.9, 7351},
	// vllm-project/vllm#10511 (v0.6.5): available_kv_cache_memory 53.29GiB
	// for Meta-Llama-3-8B on an 80 GB card (total_gpu_memory 79.22GiB)
	{"vllm#10511", "llama3-8b", "h100", 8192, 0.9, 27284},
	// vllm-project/vllm#10517 (v0.6.4): Llama-3.1-8B-Instruct on an RTX
	// 3090 at --max-model-len 20000 and 29000
	{"vllm#10517", "llama3-8b", "rtx3090", 20000, 0.9, 1952},
	{"vllm#10517", "llama3-8b", "rtx3090", 29000, 0.9, 1478},
}

func TestServeMatchesVLLMLogs(t *testing.T) {
	for _, l := range vllmLogs {
		m, task := l.model, "serve"
		s := memmodel.DefaultSpec()
		s.Model, s.Task, s.Precision, s.GPU = &m, &task, "bf16", l.gpu
		s.Context, s.GPUMemoryUtilization = l.context, l.util
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

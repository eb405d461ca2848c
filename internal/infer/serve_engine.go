package infer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vramkit/vramkit/internal/gpu"
)

// engine is what one vLLM version does when it sizes its KV cache at
// start-up (gpu_worker.determine_available_memory and the engine
// arguments' defaults). Read from vLLM's source at each boundary:
//
//   - before 0.8 (the V0 engine, chunked prefill off): the profiled
//     forward is max(max_model_len, 2048) tokens over at most 256
//     sequences (from 0.6 — vllm#6666 landed in 0.5.3 — a model longer
//     than 32K tokens without a sliding window gets chunked prefill and
//     512-token chunks); everything on the device that is not a live tensor —
//     the CUDA context among it — is charged inside the budget;
//   - 0.8 (the V1 engine is the default): chunked prefill is always on,
//     so the profiled forward is max_num_batched_tokens, whose default
//     depends on the entry point and the GPU (vllm/engine/arg_utils.py);
//     the budget is still charged with everything on the device (V0 had
//     taken a baseline from 0.7, vllm#12126: V0 0.7 keeps the context
//     outside);
//   - 0.9 (vllm#17885): A100s get the small-GPU defaults;
//   - 0.10 (vllm#19312): a snapshot taken before the model loads is the
//     baseline, so the CUDA context and other processes are outside the
//     budget; only what grows during loading and profiling comes off it;
//   - 0.21 (vllm#38284): VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults
//     to 1, so an estimate of the CUDA graphs' memory comes off the budget
//     (before, the graphs were captured after the cache, beyond the
//     budget; enforce_eager captures none), and gpu_memory_utilization
//     defaults to 0.92 to make up for it.
type engine struct {
	// major, minor: the version followed.
	major, minor int
	// newer: the spec asked for a version past the newest modelled.
	newer bool
}

// newestMinor is the newest vLLM release (0.x) whose sizing vramkit has read.
const newestMinor = 31

func (e engine) String() string {
	v := fmt.Sprintf("%d.%d", e.major, e.minor)
	if e.v1() {
		return "vLLM " + v + " (V1 engine)"
	}
	return "vLLM " + v + " (V0 engine)"
}

func (e engine) atLeast(minor int) bool { return e.major > 0 || e.minor >= minor }
func (e engine) v1() bool               { return e.atLeast(8) }

// baseline: the CUDA context is outside the budget — V0 from 0.7
// (vllm#11809, #12126 take the baseline when the worker starts), V1 from
// 0.10 (vllm#19312; V1's own worker in 0.8 and 0.9 charged everything on
// the device).
func (e engine) baseline() bool { return e.atLeast(10) || e.atLeast(7) && !e.v1() }

// graphsInBudget: the estimate of the CUDA graphs' memory comes off the
// budget (not for enforce_eager, which captures none).
func (e engine) graphsInBudget() bool { return e.atLeast(21) }

// parseVLLM reads "0.6.5", "v0.11", "0.31.0rc1"; empty is the newest.
func parseVLLM(v string) (engine, error) {
	if v == "" {
		return engine{minor: newestMinor}, nil
	}
	s := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(v)), "v")
	parts := strings.SplitN(s, ".", 3)
	if len(parts) < 2 {
		return engine{}, fmt.Errorf("want a version such as 0.11 or 0.6.5, got %q", v)
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(strings.TrimRightFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' }))
	if err1 != nil || err2 != nil || major < 0 || minor < 0 {
		return engine{}, fmt.Errorf("want a version such as 0.11 or 0.6.5, got %q", v)
	}
	e := engine{major: major, minor: minor}
	if major == 0 && minor < 2 {
		return engine{}, fmt.Errorf("vLLM %s predates the paged KV cache sizing vramkit follows (0.2 and later)", v)
	}
	if major > 0 || minor > newestMinor {
		e.major, e.minor, e.newer = 0, newestMinor, true
	}
	return e, nil
}

// defaults are vLLM's max_num_batched_tokens and max_num_seqs when the
// user sets neither: V0 profiles the whole model length; V1's depend on
// the entry point and the GPU (>= 70 GiB and, from 0.9, not an A100:
// 8192 tokens and 1024 sequences for the server, 16384 for the LLM class;
// else 2048 and 256, or 8192 for the LLM class).
func (e engine) defaults(entry string, g gpu.GPU, context int, window bool) (tokens, seqs int) {
	if !e.v1() {
		if e.atLeast(6) && context > 32768 && !window {
			// V0 turns chunked prefill on for models longer than 32K
			// (vllm#6666, without a sliding window) with 512-token chunks
			return 512, 256
		}
		return max(context, 2048), 256
	}
	big := g.MemoryBytes >= 70<<30 && (!e.atLeast(9) || !strings.HasPrefix(g.Name, "a100"))
	switch {
	case big && entry == "llm":
		return 16384, 1024
	case big:
		return 8192, 1024
	case entry == "llm":
		return 8192, 256
	}
	return 2048, 256
}

// defaultUtil is gpu_memory_utilization when unset.
func (e engine) defaultUtil() float64 {
	if e.atLeast(utilRaisedMinor) {
		return 0.92
	}
	return 0.9
}

// utilRaisedMinor is the first 0.x release whose default
// gpu_memory_utilization is 0.92 (vllm#38284, with the graph estimate).
const utilRaisedMinor = 21

// What V1 adds to the budget besides weights and the profiled torch peak,
// read off the start-up logs docs/inference.md lists (nominal, and the
// range the band spans):
//   - nonTorchGrowth: memory outside PyTorch that appears while loading
//     and profiling, after the baseline (workspaces, compiled kernels):
//     0.02 GiB on an L4 and an L40S (v0.10.2), 0.13 on an H100 (~0.11),
//     0.26 on an A100 (v0.31), 0.56 under WSL2 (v0.27);
//   - graphEstimate: the CUDA graphs of the default capture sizes,
//     0.23–0.37 GiB captured on dense 0.5B–8B models; vLLM's estimate
//     extrapolates from one graph and runs over (vllm#45178, #45197), and
//     the v0.31 log's activation peak leaves room for up to about 1.2 GiB.
const (
	nonTorchGrowth     = 256 << 20
	nonTorchGrowthLow  = 0
	nonTorchGrowthHigh = 640 << 20
	graphEstimate      = 320 << 20
	graphEstimateLow   = 96 << 20
	graphEstimateHigh  = 1280 << 20
)

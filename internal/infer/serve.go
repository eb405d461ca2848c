package infer

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// ServeResult is a vLLM-style paged KV-cache capacity.
type ServeResult struct {
	Task        string  `json:"task"`
	Model       string  `json:"model"`
	GPU         string  `json:"gpu"`
	Params      int64   `json:"params"`
	Precision   string  `json:"precision"`
	KVDType     string  `json:"kv_dtype"`
	Utilization float64 `json:"gpu_memory_utilization"`
	BlockSize   int     `json:"block_size"`
	MaxNumSeqs  int     `json:"max_num_seqs"`
	// MaxNumBatchedTokens is the profiled forward's token count.
	MaxNumBatchedTokens int `json:"max_num_batched_tokens"`
	// Total is the device memory; Requested = Total × Utilization.
	Total     int64 `json:"total_bytes"`
	Requested int64 `json:"requested_bytes"`
	Weights   int64 `json:"weights_bytes"`
	// Activation is the torch peak of the profiling run above the weights:
	// the larger of one forward of MaxNumBatchedTokens tokens and the
	// dummy sampler over MaxNumSeqs rows of logits.
	Activation int64 `json:"activation_peak_bytes"`
	NonTorch   int64 `json:"non_torch_bytes"`
	KVCache    int64 `json:"kv_cache_bytes"`
	// BlockBytes is one block of BlockSize tokens across all layers.
	BlockBytes int64 `json:"block_bytes"`
	Blocks     int64 `json:"gpu_blocks"`
	Tokens     int64 `json:"kv_tokens"`
	// Context is the per-sequence length concurrency is counted at.
	Context       int      `json:"context_tokens"`
	MaxConcurrent float64  `json:"max_concurrency"`
	Fits          bool     `json:"fits"`
	Notes         []string `json:"notes,omitempty"`
}

// vLLM's engine defaults this model follows (v0.6.x/v0.7 V0 engine,
// chunked prefill off): 16-token blocks, 256 sequences, 0.9 of the GPU,
// and a profiled batch of max(max_model_len, 2048) tokens.
const (
	defaultBlockSize   = 16
	defaultMaxNumSeqs  = 256
	defaultUtilization = 0.9
	defaultContext     = 4096
)

// Serve sizes the KV cache the way vLLM's worker does in
// determine_available_memory: the memory the instance may use is the
// device's total times gpu_memory_utilization; weights, the activation
// peak of a profiling forward and the memory outside PyTorch (CUDA context
// and libraries) come off it; the rest is cut into blocks of block_size
// tokens, each holding K and V of every layer.
func Serve(spec memmodel.Spec) (*ServeResult, error) {
	c, err := resolve(spec)
	if err != nil {
		return nil, err
	}
	r := &ServeResult{Task: "serve", Model: c.arch.Name, GPU: c.gpu.Name, Precision: c.prec, KVDType: kvName(c),
		Utilization: spec.GPUMemoryUtilization, BlockSize: spec.BlockSize, MaxNumSeqs: spec.MaxNumSeqs,
		MaxNumBatchedTokens: spec.MaxNumBatchedTokens, Context: spec.Context}
	if r.Utilization == 0 {
		r.Utilization = defaultUtilization
	}
	if r.Utilization < 0 || r.Utilization > 1 {
		return nil, specErr("gpu_memory_utilization", "must be in (0, 1], got %g", r.Utilization)
	}
	if r.BlockSize == 0 {
		r.BlockSize = defaultBlockSize
	}
	if r.BlockSize < 1 {
		return nil, specErr("block_size", "must be positive, got %d", r.BlockSize)
	}
	if r.MaxNumSeqs == 0 {
		r.MaxNumSeqs = defaultMaxNumSeqs
	}
	if r.Context == 0 {
		r.Context = spec.Seq
		if r.Context == 0 {
			r.Context = defaultContext
		}
	}
	if r.MaxNumBatchedTokens == 0 {
		r.MaxNumBatchedTokens = max(r.Context, 2048)
	}
	if r.MaxNumSeqs < 0 || r.MaxNumBatchedTokens < 0 || r.Context < 0 {
		return nil, specErr("max_num_seqs", "counts must be positive")
	}
	if msg := memmodel.CheckScale(&c.arch, float64(max(r.MaxNumBatchedTokens, r.Context)), 1, float64(max(r.MaxNumBatchedTokens, r.Context))); msg != "" {
		return nil, specErr("context", "%s", msg)
	}
	if c.static || c.eager {
		r.Notes = append(r.Notes, "cache and attention settings are Hugging Face generate's; vLLM pages its own cache")
	}
	w := buildWeights(c)
	r.Params = w.params
	r.Weights = vllmWeights(c, w)
	r.Total = c.gpu.MemoryBytes
	r.Requested = int64(float64(r.Total) * r.Utilization)
	r.Activation = profilePeak(c, int64(r.MaxNumBatchedTokens), int64(min(r.MaxNumSeqs, r.MaxNumBatchedTokens)))
	r.NonTorch = c.gpu.ContextBytes
	r.KVCache = r.Requested - r.Weights - r.Activation - r.NonTorch
	r.BlockBytes = int64(r.BlockSize) * c.kvBytesPerToken()
	if r.KVCache > 0 {
		r.Blocks = r.KVCache / r.BlockBytes
	}
	r.Tokens = r.Blocks * int64(r.BlockSize)
	r.MaxConcurrent = float64(r.Tokens) / float64(r.Context)
	r.Fits = r.Blocks > 0 && r.Tokens >= int64(r.Context)
	if !r.Fits {
		r.Notes = append(r.Notes, fmt.Sprintf("vLLM refuses to start: the KV cache (%d tokens) cannot hold one sequence of %d tokens", r.Tokens, r.Context))
	}
	return r, nil
}

// vllmWeights is the weights as vLLM loads them: its ParallelLMHead and
// VocabParallelEmbedding pad the vocabulary to a multiple of 64.
func vllmWeights(c *config, w *weights) int64 {
	pad := (c.vocab+63)/64*64 - c.vocab
	tables := int64(1)
	if !c.arch.Tied {
		tables = 2
	}
	return w.bytes + tables*pad*c.hidden*c.dt
}

// profilePeak is the torch allocated peak of vLLM's profile_run above the
// weights: the larger of one forward of T tokens and the dummy sampler.
// In the forward, LlamaModel's loop keeps each layer's input alive while
// the layer runs (the caller still holds it; fused_add_rms_norm rewrites
// it in place), so at the MLP there live the input, the residual, the
// attention output normed in place, the fused gate_up output (2·ffn) and
// the SiluAndMul output (ffn): T·dt·(3·hidden + 3·ffn); GPT-2's fused
// GELU keeps 2·ffn. The dummy sampler runs on S rows of logits with top-p
// and top-k set: logits in the model dtype, a float32 copy, sort (values
// and int64 indices), softmax and cumulative sum — about dt + 32 bytes
// per logit; it runs after the forward has freed its intermediates.
func profilePeak(c *config, T, S int64) int64 {
	h, dt := c.hidden, c.dt
	qd, kd := c.heads*c.headDim, c.kvHeads*c.headDim
	attn := qd + 2*kd + qd
	mlp := c.dec.servedMLP * c.ffn
	fwd := T * dt * (3*h + max(attn, mlp))
	sampler := T*h*dt + S*c.vocab*(dt+32)
	return max(fwd, sampler)
}

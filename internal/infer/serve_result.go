package infer

// ServeResult is a vLLM-style paged KV-cache capacity.
type ServeResult struct {
	Task  string `json:"task"`
	Model string `json:"model"`
	GPU   string `json:"gpu"`
	// Engine is the vLLM version followed, in words; Entry is "serve" (the
	// OpenAI server) or "llm" (the LLM class).
	Engine       string `json:"engine"`
	Entry        string `json:"entry"`
	EnforceEager bool   `json:"enforce_eager"`
	// TP is vLLM's tensor_parallel_size: every figure below is one GPU's;
	// KVHeads of the model's KVHeadsTotal are each GPU's.
	TP int `json:"tensor_parallel_size"`
	// PP is vLLM's pipeline_parallel_size; with it the figures are the
	// binding stage's (Stage, 0-based), StageLayers each stage's layers.
	PP           int     `json:"pipeline_parallel_size,omitempty"`
	Stage        int     `json:"binding_stage,omitempty"`
	StageLayers  []int64 `json:"stage_layers,omitempty"`
	KVHeads      int     `json:"kv_heads_per_gpu"`
	KVHeadsTotal int     `json:"kv_heads"`
	Params       int64   `json:"params"`
	Precision    string  `json:"precision"`
	// Quant is the checkpoint's quantisation (spec key quant), empty for
	// none; bitsandbytes' int8/int4 are Precision.
	Quant       string  `json:"quant,omitempty"`
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
	// WeightsLow and WeightsHigh bound a quantised checkpoint's weights
	// (repacking layouts and versions move them; equal to Weights
	// otherwise).
	WeightsLow  int64 `json:"weights_low_bytes"`
	WeightsHigh int64 `json:"weights_high_bytes"`
	// LoRASlots is the part of Weights vLLM's LoRA adapter slots take
	// (max_lora_rank set).
	LoRASlots int64 `json:"lora_slots_bytes,omitempty"`
	// ImageEncoder is the part of Weights a multimodal checkpoint's image
	// encoder and projector take; EncoderImages the dummy images the
	// profile runs through it at once and EncoderPeak that pass's peak
	// (serve_mm.go).
	ImageEncoder  int64 `json:"image_encoder_bytes,omitempty"`
	EncoderImages int64 `json:"encoder_profile_images,omitempty"`
	EncoderPeak   int64 `json:"encoder_profile_peak_bytes,omitempty"`
	// Activation is the torch peak of the profiling run above the
	// weights: the larger of one forward of MaxNumBatchedTokens tokens and
	// the dummy sampler over MaxNumSeqs rows of logits. ActivationLow has
	// the sampler's top-k/top-p in kernels that do not sort (FlashInfer's,
	// V1's default on GPUs with bfloat16), ActivationHigh in PyTorch's sort
	// (V0's, and V1's elsewhere); Activation is the one the engine runs.
	Activation     int64 `json:"activation_peak_bytes"`
	ActivationLow  int64 `json:"activation_peak_low_bytes"`
	ActivationHigh int64 `json:"activation_peak_high_bytes"`
	// NonTorch is memory outside PyTorch charged to the budget: the CUDA
	// context and workspaces (V0 and V1 before 0.10), or only what grows
	// after the baseline (0.10 and later).
	NonTorch int64 `json:"non_torch_bytes"`
	// CUDAGraphs is the CUDA-graph estimate charged to the budget (0.21
	// and later, unless enforce_eager).
	CUDAGraphs int64 `json:"cuda_graph_bytes"`
	KVCache    int64 `json:"kv_cache_bytes"`
	// KVCacheLow and KVCacheHigh bound KVCache by the ranges of the parts
	// vramkit does not compute exactly (docs/inference.md).
	KVCacheLow  int64 `json:"kv_cache_low_bytes"`
	KVCacheHigh int64 `json:"kv_cache_high_bytes"`
	// KVShort is how far the budget falls short of the rest when it
	// leaves nothing for the cache (KVCache is then 0)
	KVShort int64 `json:"kv_cache_short_bytes,omitempty"`
	// kvSigned is KVCache and its band before clampKV: what vLLM's log
	// prints (negative when the budget is short)
	kvSigned [3]int64
	// BlockBytes is one block id: BlockSize tokens of every layer, or
	// with sliding-window layers of each of the layers a KV-cache group
	// holds; KVGroups is how many groups share the ids (1 without).
	BlockBytes int64 `json:"block_bytes"`
	KVGroups   int   `json:"kv_cache_groups"`
	Blocks     int64 `json:"gpu_blocks"`
	Tokens     int64 `json:"kv_tokens"`
	TokensLow  int64 `json:"kv_tokens_low"`
	TokensHigh int64 `json:"kv_tokens_high"`
	// Process is the device memory the server holds under load, as
	// nvidia-smi shows it: the budget plus what lies outside it (the CUDA
	// context from 0.10; CUDA graphs captured after the cache before 0.21).
	Process int64 `json:"process_bytes"`
	// Context is the per-sequence length concurrency is counted at:
	// vLLM's max_model_len, given (--context, --seq) or the model's own
	// (serve_len.go); ContextSource says which.
	Context       int     `json:"context_tokens"`
	ContextSource string  `json:"context_source"`
	MaxConcurrent float64 `json:"max_concurrency"`
	// ConcurrencyLow and ConcurrencyHigh are MaxConcurrent at the KV
	// cache's band.
	ConcurrencyLow  float64 `json:"max_concurrency_low"`
	ConcurrencyHigh float64 `json:"max_concurrency_high"`
	// Fits: vLLM starts, the KV cache holding one sequence of Context
	// tokens; KVNeeded is what one such sequence takes. When it does not,
	// MaxModelLenFit is the longest max_model_len the cache holds (vLLM's
	// "estimated maximum model length", 0 when not one block is left).
	// Verdict says it in one line.
	Fits           bool     `json:"fits"`
	KVNeeded       int64    `json:"kv_cache_needed_bytes"`
	MaxModelLenFit int64    `json:"max_model_len_fit,omitempty"`
	Verdict        string   `json:"verdict"`
	Notes          []string `json:"notes,omitempty"`
}

// clampKV reports a budget that leaves nothing for the cache as no cache
// and the shortfall (KVShort), instead of negative cache bytes.
func (r *ServeResult) clampKV() {
	r.kvSigned = [3]int64{r.KVCache, r.KVCacheLow, r.KVCacheHigh}
	if r.KVCache < 0 {
		r.KVShort = -r.KVCache
	}
	r.KVCache, r.KVCacheLow, r.KVCacheHigh = max(r.KVCache, 0), max(r.KVCacheLow, 0), max(r.KVCacheHigh, 0)
}

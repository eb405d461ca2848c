package infer

import (
	"fmt"
	"math"
	"slices"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// blockSizes are the block sizes vLLM's --block-size accepts (its
// BlockSize literal; older versions take fewer, never others).
var blockSizes = []int{1, 8, 16, 32, 64, 128, 256}

// defaultBlockSize is vLLM's block_size when the spec gives none.
const defaultBlockSize = 16

// Serve sizes the KV cache the way vLLM's worker does in
// determine_available_memory: the memory the instance may use is the
// device's total times gpu_memory_utilization; weights, the activation
// peak of a profiling forward and the memory outside PyTorch that the
// version charges (serve_engine.go) come off it; the rest is cut into
// blocks of block_size tokens, each holding K and V of every layer.
func Serve(spec memmodel.Spec) (*ServeResult, error) {
	c, err := resolve(spec)
	if err != nil {
		return nil, err
	}
	e := c.engine
	entry := spec.Entry
	if entry == "" {
		entry = "serve"
	}
	if entry != "serve" && entry != "llm" {
		return nil, specErr("entry", "serve (vllm serve, the OpenAI server) or llm (the LLM class), got %q", entry)
	}
	if c.q.kind == "bnb" && c.q.bits == 4 && !e.atLeast(bnbExpandedMinor) {
		c.q.scaleBytes, c.q.nested = quantInt4DQ.scaleBytes, quantInt4DQ.nested
	}
	tp, err := servedTP(c, spec.Parallel)
	if err != nil {
		return nil, err
	}
	c.tp = tp
	if err := servable(c, tp); err != nil {
		return nil, err
	}
	if err := refuseImages(c, spec.ImagesPerPrompt, spec.SkipMMProfiling); err != nil {
		return nil, err
	}
	r := &ServeResult{Task: "serve", Model: c.arch.Name, GPU: c.gpu.Name, Engine: e.String(), Entry: entry, TP: int(tp),
		KVHeads: int(kvHeadsPerRank(c, tp)), KVHeadsTotal: int(c.kvHeads),
		EnforceEager: spec.EnforceEager, Precision: c.prec, KVDType: kvName(c),
		Utilization: spec.GPUMemoryUtilization, BlockSize: spec.BlockSize, MaxNumSeqs: spec.MaxNumSeqs,
		MaxNumBatchedTokens: spec.MaxNumBatchedTokens, Context: spec.Context}
	if c.q != quantNone {
		if spec.Quant != "" || c.ckptNote != "" {
			r.Quant = c.q.name
		}
		if c.ckptNote != "" {
			r.Notes = append(r.Notes, c.ckptNote)
		}
		r.Notes = append(r.Notes, quantNote(c, e))
	}
	if e.newer {
		r.Notes = append(r.Notes, fmt.Sprintf("vLLM %s is newer than the versions vramkit has read (to 0.%d): planned as 0.%d", spec.VLLM, newestMinor, newestMinor))
	}
	if r.Utilization == 0 {
		r.Utilization = e.defaultUtil()
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
	if !slices.Contains(blockSizes, r.BlockSize) {
		// planned, 7 cut the cache into 7-token blocks of a server that
		// never starts
		return nil, specErr("block_size", "vLLM accepts %v, got %d", blockSizes, r.BlockSize)
	}
	derived, why := maxModelLen(c)
	switch {
	case r.Context == 0 && spec.Seq > 0:
		r.Context, r.ContextSource = spec.Seq, "as given"
	case r.Context == 0:
		// vLLM's max_model_len defaults to the model's own length (it
		// counted 4096 for every rotary model: Llama 3.1's 131072 went
		// unplanned, and with it vLLM's refusal to start on small GPUs)
		r.Context, r.ContextSource = derived, why
	default:
		r.ContextSource = "as given"
	}
	if c.dec.learnedPos && c.arch.MaxPos > 0 && r.Context > c.arch.MaxPos {
		// planned as if it served them, gpt2 at --context 4096 counted
		// 512 sequences vLLM never starts with
		return nil, specErr("context", "%d is past %s's %d positions: vLLM refuses a max_model_len beyond a learned position table", r.Context, c.arch.Name, c.arch.MaxPos)
	}
	if r.Context > derived && c.arch.MaxPos > 0 {
		// vllm/config/model.py raises unless VLLM_ALLOW_LONG_MAX_MODEL_LEN
		// is set; planned as asked, as before
		r.Notes = append(r.Notes, fmt.Sprintf("max_model_len %d is past %s's %d (%s): vLLM refuses it unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 is set, and positions past it are untrained; planned as asked", r.Context, c.arch.Name, derived, why))
	}
	for _, k := range []struct {
		name string
		v    int
	}{{"max_num_seqs", r.MaxNumSeqs}, {"max_num_batched_tokens", r.MaxNumBatchedTokens}, {"context", r.Context}} {
		if k.v < 0 {
			return nil, specErr(k.name, "must be positive, got %d", k.v)
		}
	}
	tokens, seqs := e.defaults(entry, c.gpu, r.Context, c.arch.Decoder.SlidingWindow > 0)
	if !e.v1() && spec.MaxNumBatchedTokens > 0 && spec.MaxNumBatchedTokens < r.Context && tokens != 512 {
		return nil, specErr("max_num_batched_tokens", "vLLM %d.%d refuses max_num_batched_tokens %d below max_model_len %d without chunked prefill", e.major, e.minor, spec.MaxNumBatchedTokens, r.Context)
	}
	if r.MaxNumBatchedTokens == 0 {
		r.MaxNumBatchedTokens = tokens
		if e.v1() && spec.MaxNumSeqs > 0 {
			// V1 caps the default at what the sequences can hold
			r.MaxNumBatchedTokens = min(tokens, spec.MaxNumSeqs*r.Context)
		}
	}
	if r.MaxNumSeqs == 0 {
		// V1's default is capped at the batched tokens (vllm/engine/
		// arg_utils.py, _set_default_args); V0's 256 is below its
		// smallest default
		r.MaxNumSeqs = min(seqs, r.MaxNumBatchedTokens)
	}
	if r.MaxNumSeqs > r.MaxNumBatchedTokens {
		// a max_num_seqs given is not capped: the scheduler config
		// raises (vllm/config/scheduler.py, verify_max_model_len; V0's
		// SchedulerConfig._verify_args), where vramkit capped it silently
		return nil, specErr("max_num_seqs", "vLLM refuses max_num_seqs %d above max_num_batched_tokens %d (%s): give --max-num-batched-tokens %d or more, or fewer sequences",
			r.MaxNumSeqs, r.MaxNumBatchedTokens, batchedFrom(spec), r.MaxNumSeqs)
	}
	if msg := memmodel.CheckScale(&c.arch, float64(max(r.MaxNumBatchedTokens, r.Context)), 1, float64(max(r.MaxNumBatchedTokens, r.Context))); msg != "" {
		return nil, specErr("context", "%s", msg)
	}
	if c.static || c.eager {
		r.Notes = append(r.Notes, "cache and attention settings are Hugging Face generate's; vLLM pages its own cache")
	}
	pp, err := servedPP(c, e, spec)
	if err != nil {
		return nil, err
	}
	if pp == 1 {
		if err := r.size(c, e, spec, tp, stage{first: true, last: true}); err != nil {
			return nil, err
		}
		r.clampKV()
		r.decide()
		return r, nil
	}
	best, err := r.pipeline(c, e, spec, tp, pp)
	if best != nil {
		best.clampKV()
		best.decide()
	}
	return best, err
}

// stage is where a pipeline-parallel rank sits: the first holds the
// embedding, the last the final norm, the LM head and the sampler.
type stage struct{ first, last bool }

// size plans one GPU of the instance: its weights, the profile's peak,
// the memory charged to the budget and the KV cache cut into blocks.
func (r *ServeResult) size(c *config, e engine, spec memmodel.Spec, tp int64, st stage) error {
	w := buildWeights(c)
	r.Params = w.params
	r.Weights = rankWeights(c, vllmWeights(c, w), tp) + ropeTables(c)
	if towerLoaded(c, e, spec.ImagesPerPrompt) {
		b, p := towerWeights(c, tp)
		r.Weights += b
		r.Params += p
		r.ImageEncoder = b
	}
	loras, rank, err := resolveLoRA(c, spec.MaxLoras, spec.MaxLoraRank)
	if err != nil {
		return err
	}
	if rank > 0 {
		r.LoRASlots = loraSlots(c, tp, loras, rank)
		r.Weights += r.LoRASlots
		r.Notes = append(r.Notes, loraNote(r.LoRASlots, loras, rank))
	}
	r.WeightsLow, r.WeightsHigh = r.Weights, r.Weights
	if c.q != quantNone {
		r.WeightsLow = r.Weights - int64(quantWeightsLow*float64(r.Weights))
		r.WeightsHigh = r.Weights + int64(quantWeightsHigh*float64(r.Weights))
	}
	if c.dec.note != nil {
		r.Notes = append(r.Notes, c.dec.note(c))
	}
	if c.dec.layouts != nil {
		for c.layout = 1; c.layout < c.dec.layouts(c); c.layout++ {
			alt := rankWeights(c, vllmWeights(c, buildWeights(c)), tp) + ropeTables(c) + r.LoRASlots
			r.WeightsLow, r.WeightsHigh = min(r.WeightsLow, alt), max(r.WeightsHigh, alt)
		}
		c.layout = 0
		// a checkpoint-quantised family: the same band as --quant's
		// around the layouts
		r.WeightsLow -= int64(quantWeightsLow * float64(r.WeightsLow))
		r.WeightsHigh += int64(quantWeightsHigh * float64(r.WeightsHigh))
	}
	if drop := st.dropped(c, tp); drop > 0 {
		r.Weights, r.WeightsLow, r.WeightsHigh = r.Weights-drop, r.WeightsLow-drop, r.WeightsHigh-drop
	}
	r.Total = c.gpu.MemoryBytes
	r.Requested = int64(math.Ceil(float64(r.Total) * r.Utilization))
	rows := int64(min(r.MaxNumSeqs, r.MaxNumBatchedTokens))
	if !st.last {
		rows = 0 // only the last stage samples
	}
	if e.atLeast(shardedSamplerMinor) && tp > 1 {
		rows = cdiv(rows, tp) // batch-sharded sampling: each rank samples its share of the rows
	}
	sampler := profileSampler(c, e)
	if sampler != samplerKernelBytes {
		sampler += sortPathBytes(rows)
	}
	r.Activation = profilePeak(c, e, int64(r.MaxNumBatchedTokens), rows, sampler, tp)
	r.ActivationLow, r.ActivationHigh = r.Activation, r.Activation
	if e.v1() {
		r.ActivationLow = profilePeak(c, e, int64(r.MaxNumBatchedTokens), rows, samplerKernelBytes, tp)
		r.ActivationHigh = profilePeak(c, e, int64(r.MaxNumBatchedTokens), rows, samplerSortBytesHigh+sortPathBytes(rows), tp)
	}
	if rank > 0 {
		// the band's top allows float32 logits of every batched token in
		// the LoRA profile: a 0.8.2 log with LoRA held 4.7% fewer tokens
		// than planned, a gigabyte at its 2048 tokens (not confirmed in
		// vLLM's source)
		r.ActivationHigh += int64(r.MaxNumBatchedTokens) * c.vocab * 4
	}
	if !st.first {
		// the hidden states and residual received from the stage before
		held := 2 * int64(r.MaxNumBatchedTokens) * c.hidden * c.dt
		r.Activation, r.ActivationLow, r.ActivationHigh = r.Activation+held, r.ActivationLow+held, r.ActivationHigh+held
	}
	r.addEncoder(c, e, spec.ImagesPerPrompt, spec.SkipMMProfiling, tp)
	r.charge(c, e, tp, !spec.EnforceEager)
	r.cut(c, e, tp)
	return nil
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
// Quantised layers add their kernels' temporaries at the MLP (quantTemp).
func profilePeak(c *config, e engine, T, S, perLogit, tp int64) int64 {
	h, dt := c.hidden, c.dt
	qd, kd := c.heads*c.headDim/tp, kvHeadsPerRank(c, tp)*c.headDim
	attn := qd + 2*kd + qd
	mlp, mlpT := c.dec.servedMLP*c.ffn/tp, T
	if c.dec.served != nil {
		// the fused-MoE kernel works through at most
		// VLLM_FUSED_MOE_CHUNK_SIZE tokens at a time
		mlp, mlpT = c.dec.served(c, tp), min(T, fusedMoEChunk)
	}
	fwd := dt*(T*3*h+max(T*attn, mlpT*mlp)) + quantTemp(c, e, mlpT, tp)
	sampler := T*h*dt + S*c.vocab*(dt+perLogit)
	return max(fwd, sampler)
}

// profileSampler is the bytes per logit of the engine's dummy sampler in
// the memory profile: Model Runner V2 profiles the sampler without top-k,
// top-p and logprobs ("the sampler may skip top_k, top_p, and logprobs,
// using less GPU memory than what is possible during actual execution",
// vllm/v1/worker/gpu/model_runner.py), the float32 logits and their
// probabilities only; it runs dense models from 0.25 (vllm#44443) and
// every model from 0.29. Model Runner V1 sorts (samplerSortBytes). Two
// 0.27 logs (docs/inference.md) profiled at the kernels' figure.
func profileSampler(c *config, e engine) int64 {
	if e.atLeast(mrv2AllMinor) || e.atLeast(mrv2DenseMinor) && c.dec.served == nil {
		return samplerKernelBytes
	}
	return samplerSortBytes
}

// sortPathBytes is what torch.sort holds per logit beyond cub's segmented
// sort (the path samplerSortBytes was read at: vLLM's sampler sorts
// max_num_seqs rows, 128 or more by default) when the rows are 2..127:
// launch_stable_sort_kernel then sorts (index, segment) pairs in and out
// and writes the keys apart, three float32 copies more at its peak
// (dev102's probe of the three paths, sample_ops.go's sortRows).
func sortPathBytes(rows int64) int64 {
	if rows > 1 && rows < 128 {
		return 12
	}
	return 0
}

// The first 0.x releases in which Model Runner V2 is vLLM's default: for
// dense models (v0.25.0, vllm#44443), for every model (v0.29.0, which also
// shards the sampler's rows over the tensor-parallel ranks: "batch-sharded
// sampling reduces per-step logits memory by 1/TP").
const (
	mrv2DenseMinor      = 25
	mrv2AllMinor        = 29
	shardedSamplerMinor = 29
)

// Bytes per logit of the dummy sampler beyond the logits themselves:
// PyTorch's top-k/top-p sorts (float32 logits, sorted values, int64
// indices, softmax, cumulative sum: about 32, what the V0 logs and most V1
// logs show); V1 profiles at 1024 sequences on an H100 showed about 4
// more (the band's top); FlashInfer's sampling kernels, which do not
// sort, keep the float32 logits and the probabilities (8: the band's
// bottom; a v0.27 log came out there).
const (
	// fusedMoEChunk is VLLM_FUSED_MOE_CHUNK_SIZE's default.
	fusedMoEChunk = 32768

	samplerSortBytes     = 32
	samplerSortBytesHigh = 36
	samplerKernelBytes   = 8
)

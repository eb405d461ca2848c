package infer

import (
	"fmt"
	"math"

	"github.com/vramkit/vramkit/internal/memmodel"
	"github.com/vramkit/vramkit/internal/units"
)

// vLLM's max_model_len, the length a serve plan counts one sequence at,
// and the start-up check that the KV cache holds one such sequence.
//
// When --max-model-len is not given, vLLM takes the model's own length
// (vllm/config/model.py, _get_and_verify_max_len; vllm/config.py before
// the config package): the smallest of max_position_embeddings and its
// aliases in config.json, times rope_scaling's factor for the scalings
// that stretch the positions (linear, dynamic; YaRN from
// original_max_position_embeddings), not for llama3 or longrope, and not
// for Gemma 3, whose length is already scaled. A config.json without any
// length gets 2048. A tokenizer_config.json model_max_length below that
// lowers it too; vramkit does not read tokenizer files, so a checkpoint
// whose tokenizer says less is planned at the longer length. A longrope
// checkpoint (Phi-3 128k) defaults to original_max_position_embeddings,
// which vramkit's Arch does not carry: it is planned at its full length.
//
// At start-up vLLM refuses to run when the KV cache cannot hold one
// sequence of max_model_len (vllm/v1/core/kv_cache_utils.py,
// check_enough_kv_cache_memory; V0's worker raise_if_cache_size_invalid):
// "To serve at least one request with the models's max seq len (L), (X GiB
// KV cache is needed, which is larger than the available KV cache memory
// (Y GiB). Based on the available memory, the estimated maximum model
// length is M", or "No available memory for the cache blocks" when
// nothing is left. It does not shorten the length itself unless
// --max-model-len is -1 (auto-fit, _auto_fit_max_model_len).

// vllmNoLength is max_model_len for a config.json that names no length.
const vllmNoLength = 2048

// maxModelLen is vLLM's default max_model_len for c, and where it comes
// from in words.
func maxModelLen(c *config) (int, string) {
	a := &c.arch
	if a.MaxPos <= 0 {
		return vllmNoLength, "vLLM's default for a config without max_position_embeddings"
	}
	f := a.Decoder.RopeFactor
	if f <= 0 || c.dec.learnedPos || a.Decoder.LocalRope {
		// Gemma 3 (the one family with a local rotary embedding) names
		// its scaled length already
		return a.MaxPos, "the model's max_position_embeddings, vLLM's default"
	}
	n := int(math.Round(float64(a.MaxPos) * f))
	return n, fmt.Sprintf("max_position_embeddings %d × rope_scaling factor %.4g, vLLM's default", a.MaxPos, f)
}

// longestHeld is the longest max_model_len one sequence of which fits in
// blocks under the layout, at most L (vLLM's estimate_max_model_len, a
// binary search on the same need); 0 if not even one token does. Newer
// vLLM checks against the blocks less the one BlockPool keeps as its null
// block, so its figure (and its refusal) can come one block (block_size
// tokens) sooner than this.
func (lay kvLayout) longestHeld(blocks, L int64) int64 {
	if blocks <= 0 || lay.need(1) > blocks {
		return 0
	}
	lo, hi := int64(1), L
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if lay.need(mid) <= blocks {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// decide writes the plan's verdict: whether vLLM starts, and when it
// refuses, the numbers its start-up error gives.
func (r *ServeResult) decide() {
	src := ""
	if r.ContextSource != "" {
		src = " (" + r.ContextSource + ")"
	}
	switch {
	case r.Fits:
		r.Verdict = fmt.Sprintf("vLLM starts: the KV cache holds %.2f sequences of max_model_len %d tokens%s at once (%.2f – %.2f)",
			r.MaxConcurrent, r.Context, src, r.ConcurrencyLow, r.ConcurrencyHigh)
	case r.KVShort > 0 || r.KVCache == 0:
		r.Verdict = fmt.Sprintf("vLLM refuses to start: no memory is left for the KV cache (the weights, the profile's peak and what the version charges exceed the budget by %s)",
			units.Bytes(r.KVShort))
	case r.MaxModelLenFit == 0:
		r.Verdict = fmt.Sprintf("vLLM refuses to start: one sequence of max_model_len %d tokens%s needs %s of KV cache, %s is left for it, less than one block",
			r.Context, src, units.Bytes(r.KVNeeded), units.Bytes(r.KVCache))
	default:
		r.Verdict = fmt.Sprintf("vLLM refuses to start: one sequence of max_model_len %d tokens%s needs %s of KV cache, %s is left for it; the longest max_model_len it holds is %d tokens (--context %d)",
			r.Context, src, units.Bytes(r.KVNeeded), units.Bytes(r.KVCache), r.MaxModelLenFit, r.MaxModelLenFit)
	}
}

// batchedFrom says where a plan's max_num_batched_tokens came from.
func batchedFrom(spec memmodel.Spec) string {
	if spec.MaxNumBatchedTokens > 0 {
		return "as given"
	}
	return "vLLM's default for this version, entry point and GPU"
}

package infer

import "fmt"

// kvLayout is how vLLM cuts a model's KV cache into blocks: the bytes of
// one block id, how many KV-cache groups share the ids, and how many ids
// one request of L tokens needs (docs/inference.md):
//   - every layer full attention, or any model before vLLM 0.10 (V0, and
//     V1 before the hybrid KV-cache manager of 0.9.1/0.9.2: sliding
//     layers keep every token, the window is used in compute only): one
//     id holds block_size tokens of every layer, a request needs
//     cdiv(L, block_size);
//   - only sliding layers, from 0.9 (vllm#14097, 0.8.3): a request needs
//     the window plus the batched tokens, cdiv(min(W-1+N, L), B) + 1;
//   - full and sliding layers from 0.10 (vllm#17996, the hybrid manager):
//     the layers of each kind are split into groups of gs, the fewer
//     kind's count; one id is one layer of each of gs tensors, each group
//     takes its own ids, full groups cdiv(L, B) and sliding groups
//     cdiv(min(W-1+N, L), B) + 1 a request.
type kvLayout struct {
	blockBytes int64
	groups     int64
	need       func(L int64) int64
	// full, sliding: the groups of each kind (hybrid only)
	full, sliding int64
}

// hybridMinor is the first 0.x release planned with the hybrid KV-cache
// manager (it shipped in 0.9.1 or 0.9.2; 0.9 is planned without it, which
// counts fewer sequences at long contexts, the safe side), and
// slidingMinor the first that drops a sliding-only model's old tokens
// (0.8.3; 0.8 is planned without).
const (
	hybridMinor  = 10
	slidingMinor = 9
)

// tokenLineMinor is the first 0.x whose "GPU KV cache size" is the
// concurrency times max_model_len (before it: the blocks per group times
// block_size, which ignores the windows).
const tokenLineMinor = 21

func cdiv(a, b int64) int64 { return (a + b - 1) / b }

// servedLayout is the layout vLLM e uses for c on one of tp GPUs, with
// block size B and N tokens batched per step.
func servedLayout(c *config, e engine, tp, B, N int64) kvLayout {
	page := 2 * B * kvHeadsPerRank(c, tp) * c.headDim * c.kv // one layer, one block
	q := &c.arch.Decoder
	var nFull, nSW int64
	for l := 0; l < int(c.layers); l++ {
		if q.Sliding(l) {
			nSW++
		} else {
			nFull++
		}
	}
	full := func(L int64) int64 { return cdiv(L, B) }
	W := int64(q.SlidingWindow)
	window := func(L int64) int64 { return cdiv(min(W-1+N, L), B) + 1 }
	switch {
	case nSW == 0 || !e.atLeast(slidingMinor) || nFull > 0 && !e.atLeast(hybridMinor):
		return kvLayout{blockBytes: page * c.layers, groups: 1, need: full}
	case nFull == 0:
		return kvLayout{blockBytes: page * c.layers, groups: 1, need: window}
	}
	gs := min(nFull, nSW)
	gF, gS := cdiv(nFull, gs), cdiv(nSW, gs)
	return kvLayout{blockBytes: page * gs, groups: gF + gS, full: gF, sliding: gS,
		need: func(L int64) int64 { return gF*full(L) + gS*window(L) }}
}

// capacity is what a KV cache of kv bytes holds under the layout, as
// vLLM e logs it for requests of L tokens in blocks of B: its block ids,
// its "GPU KV cache size" token line, and the concurrency.
func (lay kvLayout) capacity(e engine, kv, B, L int64) (blocks, tokens int64, conc float64) {
	blocks = max(kv, 0) / lay.blockBytes
	need := lay.need(L)
	conc = float64(blocks) / float64(need)
	if !e.atLeast(hybridMinor) {
		// before the hybrid manager's block-accurate count: tokens / L
		conc = float64(blocks*B) / float64(L)
	}
	tokens = blocks / lay.groups * B
	if e.atLeast(tokenLineMinor) {
		tokens = int64(float64(blocks) / float64(need) * float64(L))
	}
	return blocks, tokens, conc
}

// cut divides the KV cache (and its band) into blocks as vLLM e does and
// sets the blocks, the token count vLLM logs, the concurrency at the
// context length, whether vLLM starts, and when it does not, the bytes one
// sequence needs and the longest max_model_len the cache holds.
func (r *ServeResult) cut(c *config, e engine, tp int64) {
	B, L := int64(r.BlockSize), int64(r.Context)
	lay := servedLayout(c, e, tp, B, int64(r.MaxNumBatchedTokens))
	r.BlockBytes, r.KVGroups = lay.blockBytes, int(lay.groups)
	need := lay.need(L)
	r.Blocks, r.Tokens, r.MaxConcurrent = lay.capacity(e, r.KVCache, B, L)
	blocksLow, low, concLow := lay.capacity(e, r.KVCacheLow, B, L)
	_, high, concHigh := lay.capacity(e, r.KVCacheHigh, B, L)
	r.TokensLow, r.TokensHigh, r.ConcurrencyLow, r.ConcurrencyHigh = low, high, concLow, concHigh
	r.Fits = r.Blocks > 0 && r.Blocks >= need
	r.KVNeeded = need * lay.blockBytes
	if !r.Fits {
		r.MaxModelLenFit = lay.longestHeld(r.Blocks, L)
	}
	if lay.groups > 1 {
		r.Notes = append(r.Notes, fmt.Sprintf("sliding-window layers: vLLM's hybrid KV-cache manager keeps %d group(s) of full-attention layers for the whole context and %d of sliding ones for %d tokens (the window plus max_num_batched_tokens) a sequence; KV cache tokens is the line vLLM logs",
			lay.full, lay.sliding, min(int64(c.arch.Decoder.SlidingWindow)-1+int64(r.MaxNumBatchedTokens), L)))
	} else if c.arch.Decoder.SlidingWindow > 0 && need == cdiv(L, B) && L > int64(c.arch.Decoder.SlidingWindow) {
		r.Notes = append(r.Notes, fmt.Sprintf("sliding-window layers keep every token's keys in vLLM %d.%d (the window is used in compute only; from 0.10 the hybrid KV-cache manager drops them)", e.major, e.minor))
	}
	heldLow := fmt.Sprintf("%d tokens", r.TokensLow)
	if lay.groups > 1 {
		heldLow = fmt.Sprintf("%d blocks, %d needed", blocksLow, need)
	}
	if r.Fits && blocksLow < need {
		// the refusal itself is the verdict (decide)
		r.Notes = append(r.Notes, fmt.Sprintf("at the band's low end (%s) vLLM refuses to start: one sequence of %d tokens needs more", heldLow, L))
	}
}

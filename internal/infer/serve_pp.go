package infer

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// Pipeline parallelism as vLLM's V1 engine serves it (vLLM's source; notes
// /work/notes/vllm_pp_code.md of the session that wrote this):
//
//   - get_pp_indices splits the layers L//P a stage, the remainder one
//     layer each to stages P-2, P-3, ... (vllm#13839, 0.8); before, the
//     last stage took it. The first stage holds the embedding, the last
//     the final norm and the LM head; with tied embeddings the last stage
//     builds its own copy of the embedding as its head.
//   - every rank profiles a forward of max_num_batched_tokens through its
//     own layers (the per-layer peak of an unsplit model), the ranks after
//     the first hold the hidden states and residual they receive, and only
//     the last samples.
//   - each worker computes its available memory; the engine takes the
//     fewest blocks any worker can hold (each block one token of that
//     worker's layers), and every worker uses that many. The stage with
//     the least memory per layer it holds binds.
//   - the send/receive communicators connect at the first request, after
//     the cache: outside the budget.
//
// Planned for full-attention decoders without LoRA or an image encoder
// (stage layouts of sliding-window groups, LoRA slots and the encoder on
// the first stage are not read), on the V1 engine.

// servedPP is vLLM's pipeline_parallel_size from the spec, refused where
// vramkit does not plan it.
func servedPP(c *config, e engine, spec memmodel.Spec) (int64, error) {
	pp := int64(max(spec.Parallel.PP, 1))
	if pp == 1 {
		return 1, nil
	}
	switch {
	case !e.v1():
		return 0, specErr("parallel", "pipeline parallelism is planned for vLLM's V1 engine (0.8 and later), not %d.%d", e.major, e.minor)
	case pp > c.layers:
		return 0, specErr("parallel", "pp %d is more than the %d layers of %s", pp, c.layers, c.arch.Name)
	case c.arch.Decoder.SlidingWindow > 0:
		return 0, specErr("parallel", "pipeline parallelism is not planned for sliding-window models (%s): each stage's KV-cache groups are not modelled", c.arch.Name)
	case towerLoaded(c, e, spec.ImagesPerPrompt):
		return 0, specErr("parallel", "pipeline parallelism is not planned with %s's image encoder (it sits on the first stage); images_per_prompt 0 from vLLM 0.%d serves the text model", c.arch.Name, towerSkipMinor)
	case spec.MaxLoraRank > 0:
		return 0, specErr("parallel", "pipeline parallelism is not planned with LoRA adapters")
	}
	return pp, nil
}

// stageLayers is each stage's share of L layers over P stages.
func stageLayers(L, P int64) []int64 {
	out := make([]int64, P)
	for i := range out {
		out[i] = L / P
	}
	for i := int64(0); i < L%P; i++ {
		out[P-2-i]++
	}
	return out
}

// dropped is what one of tp GPUs at stage st does not hold of the
// embedding and LM head that the whole model's weights count: vocabulary
// rows padded to 64, split over tensor-parallel GPUs.
func (st stage) dropped(c *config, tp int64) int64 {
	table := (c.vocab + 63) / 64 * 64 * c.hidden * c.dt / tp
	var n int64
	switch {
	case c.arch.Tied && !st.first && !st.last:
		n = 1 // a middle stage holds neither
	case c.arch.Tied:
		n = 0 // the first stage's embedding, the last stage's copy
	default:
		if !st.first {
			n++
		}
		if !st.last {
			n++
		}
	}
	return n * table
}

// pipeline plans every stage and reports the one that binds: vLLM gives
// every worker the fewest blocks any can hold.
func (r *ServeResult) pipeline(c *config, e engine, spec memmodel.Spec, tp, pp int64) (*ServeResult, error) {
	params := buildWeights(c).params
	layers := stageLayers(c.layers, pp)
	var best *ServeResult
	var at int
	lowTok, highTok := int64(-1), int64(-1)
	var lowConc, highConc float64
	for i, l := range layers {
		cc := *c
		cc.layers = l
		rs := *r
		rs.Notes = append([]string(nil), r.Notes...)
		if err := rs.size(&cc, e, spec, tp, stage{first: i == 0, last: i == len(layers)-1}); err != nil {
			return nil, err
		}
		if best == nil || rs.Blocks < best.Blocks {
			b := rs
			best, at = &b, i
		}
		if lowTok < 0 || rs.TokensLow < lowTok {
			lowTok, lowConc = rs.TokensLow, rs.ConcurrencyLow
		}
		if highTok < 0 || rs.TokensHigh < highTok {
			highTok, highConc = rs.TokensHigh, rs.ConcurrencyHigh
		}
	}
	best.Params, best.PP, best.Stage, best.StageLayers = params, int(pp), at, layers
	best.TokensLow, best.TokensHigh = min(lowTok, best.Tokens), max(highTok, best.Tokens)
	best.ConcurrencyLow, best.ConcurrencyHigh = min(lowConc, best.MaxConcurrent), max(highConc, best.MaxConcurrent)
	best.Notes = append(best.Notes, fmt.Sprintf("pipeline parallel over %d stages of %v layers: stage %d holds the fewest blocks and binds (every figure here is one of its GPUs'); vLLM gives every worker that many. The stages' send/receive communicators connect after the cache, outside the budget; on the one pipeline log read with its cache (vLLM 0.27, two RTX PRO 6000) each stage held about 1.1 GiB more beside weights and cache than planned, 11%% fewer tokens: the band's low end allows it", pp, layers, at))
	return best, nil
}

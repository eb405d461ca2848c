package infer

// Beam search as transformers 5.17's GenerationMixin._beam_search runs it
// (dev100's traces of BART-large, GPT-2 medium and TinyLlama at four
// beams): every input is expanded num_beams times
// (_expand_inputs_for_generation: the prompt ids, the attention mask and
// the position ids; an encoder-decoder's encoder runs on the prompts and
// its output is expanded), so the model and its caches run batch × beams
// sequences (config.batch); the search keeps its sequences and beam
// indices in preallocated tensors; each step copies the last token's
// logits to float32, takes log_softmax, runs the logits processors, adds
// the running beams' scores, and at its end reorders the cache to the
// chosen beams: every layer's keys and values (an encoder-decoder's
// cross-attention cache too) copied by index_select, the old freed.

import "fmt"

// maxBeams bounds num_beams: wider searches are rare and each beam is a
// full sequence in every tensor.
const maxBeams = 64

// resolveBeams validates num_beams and expands the batch the model runs.
func (c *config) resolveBeams(n int) error {
	switch {
	case n < 0:
		return specErr("num_beams", "must not be negative, got %d", n)
	case n <= 1:
		return nil
	case n > maxBeams:
		return specErr("num_beams", "at most %d, got %d", maxBeams, n)
	case c.static:
		return specErr("num_beams", "beam search over a StaticCache is not modelled: plan it with the dynamic cache")
	case c.dec.audio != nil:
		return specErr("num_beams", "beam search is not modelled for %s's audio generate", c.arch.Name)
	}
	c.beams = int64(n)
	c.batch *= c.beams
	return nil
}

// beamState is the search's own tensors: the running and finished
// sequences (batch × beams × max_length int64) and their beam indices
// (× new tokens, int32), and the previous step's float32 scores.
type beamState struct {
	seqs, idx        [2]int32
	logits, logProbs int32
	flat             int32
	cols             int64
}

// beamStart allocates the search's state for sequences of cols columns
// (the prompt's, or an encoder-decoder decoder's start token, plus the
// new tokens).
func (m *model) beamStart(cols int64) *beamState {
	s, b := m.s, m.c.batch
	st := &beamState{logits: -1, logProbs: -1, flat: -1, cols: cols}
	for i := range st.seqs {
		st.seqs[i] = s.alloc(b*cols*8, CatTemporaries)
	}
	for i := range st.idx {
		st.idx[i] = s.alloc(b*max(m.c.gen, 1)*4, CatTemporaries)
	}
	return st
}

// beamFlat is flat_running_sequences, the running sequences' first cur
// columns copied flat for the step's inputs; the previous step's copy is
// freed when the name is rebound.
func (m *model) beamFlat(st *beamState, cur int64) {
	f := m.s.alloc(m.c.batch*cur*8, CatTemporaries)
	m.s.free(st.flat)
	st.flat = f
}

// beamPick is one step's search after the forward returned logits (the
// model's, batch × vocab, freed here when model_outputs is deleted): the
// float32 copy and log_softmax (each freeing the previous step's, which
// the names held), the processors the captures run (min_new_tokens with
// an end token: MinLength's and MinNewTokens' masked copies of the
// scores, the vocabulary's arange in int64 beside each), a forced end
// token's copy at the last step when forced, the running scores added,
// the candidates' gathers (2 × beams sequences, then the merge with the
// finished ones, 3 × beams), and the chosen sequences replacing the old.
func (m *model) beamPick(st *beamState, logits int32, forced bool) {
	c, s := m.c, m.s
	sc := c.batch * c.vocab * 4
	tmp := func(n int64) int32 { return s.alloc(n, CatLogits) }
	l32 := tmp(sc)
	s.free(st.logits)
	st.logits = l32
	ls := tmp(sc)
	s.free(st.logProbs)
	st.logProbs = -1
	// MinLengthLogitsProcessor: arange(vocab), a mask, the masked copy
	ar, a := s.alloc(c.vocab*8, CatTemporaries), tmp(sc)
	p1 := tmp(sc)
	s.free(a, ar)
	// MinNewTokensLengthLogitsProcessor likewise
	a, ar = tmp(sc), s.alloc(c.vocab*8, CatTemporaries)
	p2 := tmp(sc)
	s.free(a, ar)
	s.free(p1, ls)
	if forced {
		p3 := tmp(sc)
		s.free(p2)
		p2 = p3
	}
	s.free(logits) // del model_outputs
	st.logProbs = tmp(sc)
	s.free(p2)
	// the candidates: topk over beams × vocab, their sequences gathered
	// (2 × beams), the running ones chosen among them, merged with the
	// finished (3 × beams) and the best kept
	rows := c.batch * st.cols * 8
	cand := s.alloc(2*rows, CatTemporaries)
	run := s.alloc(rows, CatTemporaries)
	s.free(st.seqs[0])
	st.seqs[0] = run
	merged := s.alloc(3*rows, CatTemporaries)
	fin := s.alloc(rows, CatTemporaries)
	s.free(merged, st.seqs[1], cand)
	st.seqs[1] = fin
	// the search's small tensors (top-k values and indices, beam
	// offsets, stopping criteria, scores and flags): dev100's three
	// traces allocate 97 a step outside the model, these 13 among them
	for range beamSmallAllocs {
		s.free(s.alloc(512, CatTemporaries))
	}
}

// beamSmallAllocs is the search's small allocations a step beyond the
// ones beamPick models by size: they cost the host a dispatch each.
const beamSmallAllocs = 84

// beamReorder is Cache.reorder_cache(beam_idx): each layer's keys, then
// values, copied by index_select and the old tensor freed when the
// attribute is rebound; an EncoderDecoderCache reorders its
// self-attention cache, then its cross-attention cache (cross, keys and
// values interleaved per layer). The copies read and write the whole
// cache every step, which the step's traffic counts.
func (m *model) beamReorder(kv *cache, cross []int32) {
	s := m.s
	re := func(id int32) int32 {
		if id < 0 {
			return id
		}
		n := s.live[id].size
		nid := s.alloc(n, CatKVCache)
		s.free(id)
		s.trafficBytes += n // read back once as the step's other allocations are
		return nid
	}
	for l := range kv.k {
		kv.k[l] = re(kv.k[l])
		kv.v[l] = re(kv.v[l])
	}
	for i := range cross {
		cross[i] = re(cross[i])
	}
}

// beamEnd frees the search's state.
func (m *model) beamEnd(st *beamState) {
	m.s.free(st.seqs[0], st.seqs[1], st.idx[0], st.idx[1], st.logits, st.logProbs, st.flat)
}

// beamDecodeLow is the low end of a beam search's decode-speed band, a
// fraction of the priced tokens/s: dev101's timed beam steps (lent H100)
// ran GPT-2 medium at 0.49× and 0.59× the priced speed (its greedy twins
// at 0.83×, the host's own offset) and BART-large at 0.83×. dev105's
// profile on another lent H100, where the same GPT-2 call ran 1.7× faster,
// put its beam steps at 0.84× (prompt 512), 1.09× (128) and 0.81× (32
// rows) the price: the cache's reorder (index_select) and the legacy
// cache's torch.cat bring the GPU's busy time per step (8.9 ms) near the
// host's, and generate syncs every step, so part of it is exposed. The
// cat now runs at its strided rate (dev106; GPT-2 medium 8 x p512 at 4
// beams: GPU 11.7 ms a step, was ~1 ms by bytes); the exposure is in the
// band's top only (timeBand).
const beamDecodeLow = 0.45

// beamTimes widens a beam search's decode band to what dev101 measured.
func beamTimes(r *Result) {
	r.DecodeBand[0] = min(r.DecodeBand[0], r.DecodeTokensPerSec*beamDecodeLow)
}

// beamNote says what the plan assumed of the search.
func beamNote(c *config) string {
	return fmt.Sprintf("beam search: %d beams a prompt, so the model, its KV cache and the logits run %d sequences; each step copies the cache to the chosen beams (index_select, an encoder-decoder's cross-attention cache too); planned with min_new_tokens set, as vramkit's captures ran (two float32 copies of the scores per step more than without it); tokens/s count the prompts' sequences, priced from the greedy rates with the search's copies and allocations added: timed beam steps ran 0.49-0.83x that speed on one lent host (dev101), 0.81-1.09x on another (dev105), so the band's low end is %.2fx",
		c.beams, c.batch, beamDecodeLow)
}

package infer

// Sampling and the logits processors as transformers 5.17's
// GenerationMixin._sample runs them (dev102's traces of Llama 3.2 1B,
// Qwen2.5-0.5B, GPT-2 medium, BART-large and TinyLlama): each step copies
// the last token's logits to float32 (next_token_logits), runs the
// processors in order — RepetitionPenaltyLogitsProcessor, the forced end
// token, then the warpers TemperatureLogitsWarper, TopKLogitsWarper and
// TopPLogitsWarper — each returning a new batch × vocab float32 tensor and
// the chain dropping the one before (the copy stays named), takes softmax
// (probs) and draws with multinomial (an exponential tensor as large,
// freed at once). The three names, next_token_logits, next_token_scores
// and probs, hold their tensors until the next step rebinds them, so the
// next forward runs beside up to three float32 copies of the scores where
// greedy holds one.

import (
	"fmt"
	"math"
	"strings"

	"github.com/vramkit/vramkit/internal/memmodel"
	"github.com/vramkit/vramkit/internal/units"
)

// defaultTopK is GenerationConfig's top_k when neither the call nor the
// checkpoint's generation_config sets it: do_sample alone runs
// TopKLogitsWarper(50).
const defaultTopK = 50

// sampling is the spec's decoding options resolved.
type sampling struct {
	// keepScores, keepLogits: output_scores, output_logits (every step's
	// next_token_scores / next_token_logits kept in the output)
	keepScores, keepLogits bool
	on                     bool    // do_sample
	topK                   int64   // 0: no TopKLogitsWarper
	topP                   float64 // 1: no TopPLogitsWarper
	temp                   float64 // 1: no TemperatureLogitsWarper
	rep                    float64 // 1: no RepetitionPenaltyLogitsProcessor
	minP                   float64 // 0: no MinPLogitsWarper
}

// greedySampling is the options when none is set: greedy search, every
// warper and processor off (1 is each one's neutral value).
func greedySampling() sampling { return sampling{topP: 1, temp: 1, rep: 1} }

// chain reports whether any processor or warper runs, so that the scores
// are a tensor of their own rather than the float32 copy.
func (p sampling) chain() bool {
	return p.rep != 1 || p.on && (p.temp != 1 || p.topK > 0 || p.topP < 1 || p.minP > 0)
}

// resolveSampling validates do_sample, its warpers, repetition_penalty and
// num_return_sequences, and expands the batch the model runs by the
// sequences a prompt returns. It runs after resolveBeams.
func (c *config) resolveSampling(s memmodel.Spec) error {
	p := greedySampling()
	p.on = s.DoSample
	if s.TopK != nil && *s.TopK < 0 {
		return specErr("top_k", "must not be negative, got %d", *s.TopK)
	}
	if err := unitRange("top_p", s.TopP, 1); err != nil {
		return err
	}
	if err := unitRange("temperature", s.Temperature, math.Inf(1)); err != nil {
		return err
	}
	if err := unitRange("repetition_penalty", s.RepetitionPenalty, math.Inf(1)); err != nil {
		return err
	}
	if err := unitRange("min_p", s.MinP, 1); err != nil {
		return err
	}
	if !p.on {
		for _, k := range []struct {
			name string
			set  bool
		}{{"top_k", s.TopK != nil}, {"top_p", s.TopP != 0}, {"temperature", s.Temperature != 0}, {"min_p", s.MinP != 0}} {
			if k.set {
				return specErr(k.name, "a warper of sampling: transformers ignores it without do_sample and decodes greedily; set do_sample, or drop %s", k.name)
			}
		}
	}
	p.topK = defaultTopK
	if s.TopK != nil {
		p.topK = int64(*s.TopK)
	}
	if v := int64(c.arch.Vocab); v > 0 {
		p.topK = min(p.topK, v) // TopKLogitsWarper: min(top_k, vocab)
	}
	if s.TopP != 0 {
		p.topP = s.TopP
	}
	if s.Temperature != 0 {
		p.temp = s.Temperature
	}
	if s.RepetitionPenalty != 0 {
		p.rep = s.RepetitionPenalty
	}
	p.minP = s.MinP
	n := int64(max(s.NumReturnSequences, 1))
	switch {
	case s.NumReturnSequences < 0:
		return specErr("num_return_sequences", "must not be negative, got %d", s.NumReturnSequences)
	case n > maxBeams:
		return specErr("num_return_sequences", "at most %d, got %d", maxBeams, n)
	case c.beams > 1 && p.on:
		return specErr("do_sample", "beam sampling (do_sample with num_beams %d) is not modelled: plan beam search or sampling", c.beams)
	case c.beams > 1 && p.rep != 1:
		return specErr("repetition_penalty", "not modelled under beam search")
	case c.beams > 1 && n > c.beams:
		return specErr("num_return_sequences", "at most num_beams (%d) under beam search, got %d", c.beams, n)
	case c.beams > 1:
		n = 1 // the beams already run: the best n of them are returned
	case n > 1 && !p.on:
		return specErr("num_return_sequences", "greedy decoding returns one sequence a prompt (transformers refuses more): set do_sample")
	case c.dec.audio != nil && (p.on || p.rep != 1):
		return specErr("do_sample", "sampling and repetition_penalty are not modelled for %s's audio generate", c.arch.Name)
	}
	p.keepScores, p.keepLogits = s.OutputScores, s.OutputLogits
	if c.beams > 1 && (p.keepScores || p.keepLogits) {
		return specErr("output_scores", "not modelled under beam search")
	}
	c.samp = p
	c.returns = n
	c.batch *= n
	return nil
}

// unitRange checks a positive option that 0 leaves unset, at most hi.
func unitRange(name string, v, hi float64) error {
	if v < 0 || v > hi || math.IsNaN(v) {
		return specErr(name, "want a value in (0, %g], got %g", hi, v)
	}
	return nil
}

// picks is what the sampling loop's names hold between steps:
// next_token_logits (the float32 copy), next_token_scores (the chain's
// output, or the copy itself when no processor runs) and probs.
type picks struct{ l32, scores, probs int32 }

// newPicks is the names before the first step.
func newPicks() *picks { return &picks{l32: -1, scores: -1, probs: -1} }

// pickNext is a step's token choice, greedy or sampled: the float32
// copy of the last token's logits, the processors that run (forced: the
// last step's forced end token), softmax and multinomial or argmax, and
// the ids grown by torch.cat to cols columns. It returns the next tokens
// and the grown ids; p's tensors are rebound (the names keep them into the
// next step, the output keeps them with output_scores / output_logits).
func (m *model) pickNext(p *picks, ids int32, cols int64, forced bool) (next, grown int32) {
	c, s := m.c, m.s
	u := c.batch * c.vocab * 4
	sc := func() int32 { return s.alloc(u, CatLogits) }
	oldL, oldS := p.l32, p.scores
	keepL, keepS := c.samp.keepLogits, c.samp.keepScores
	if oldS == oldL {
		keepS = keepS || keepL // one tensor under both names
		keepL = keepS
	}
	l32 := sc()
	if oldS != oldL && !keepL {
		s.free(oldL) // rebound; the old scores are a tensor of their own
	}
	cur := l32
	swap := func(out int32) {
		if cur != l32 {
			s.free(cur)
		}
		cur = out
	}
	small := c.batch * (cols - 1) * 4 // a float32 value per token so far (cols counts the one being chosen)
	if c.samp.rep != 1 {
		// gather the tokens' scores, where(score < 0, score * p, score / p)
		g, lt, a, b, w := s.alloc(small, CatTemporaries), s.alloc(small/4, CatTemporaries),
			s.alloc(small, CatTemporaries), s.alloc(small, CatTemporaries), s.alloc(small, CatTemporaries)
		s.free(lt, a, b, g)
		out := sc() // scores.scatter(1, input_ids, score)
		s.free(w)
		swap(out)
	}
	if forced {
		swap(sc())
	}
	if c.samp.on {
		done := s.tally()
		m.warpers(u, sc, swap)
		m.sampler.add(done())
	}
	if !keepS {
		s.free(oldS) // next_token_scores rebound (the old copy, when no processor ran)
	}
	p.l32, p.scores = l32, cur
	if c.samp.on {
		done := s.tally()
		probs := sc() // softmax(next_token_scores)
		s.free(p.probs)
		p.probs = probs
		next = s.alloc(c.batch*8, CatTemporaries)
		// multinomial(probs, 1): the validity check's scalars, then
		// argmax(probs / Exp(1) draws)
		for range multinomialSmallAllocs {
			s.free(s.alloc(512, CatTemporaries))
		}
		s.free(sc())
		m.sampler.add(done())
	} else {
		next = s.alloc(c.batch*8, CatTemporaries)
	}
	grown = s.alloc(c.batch*cols*8, CatTemporaries)
	s.free(ids)
	return next, grown
}

// multinomialSmallAllocs is multinomial's small allocations beside its
// exponential tensor (dev102's probe: the max/min check, the result).
const multinomialSmallAllocs = 12

// endPicks frees what the names hold when generate returns; the steps'
// scores and logits kept for the output stay live (the caller holds them).
func (m *model) endPicks(p *picks) {
	k := m.c.samp
	if p.scores != p.l32 && !k.keepScores {
		m.s.free(p.scores)
	}
	if !k.keepLogits && !(p.scores == p.l32 && k.keepScores) {
		m.s.free(p.l32)
	}
	m.s.free(p.probs)
}

// sampleNotes say what the plan assumed of the decoding options.
func sampleNotes(c *config) []string {
	var notes []string
	if n := instructNote(c); n != "" {
		notes = append(notes, n)
	}
	switch {
	case c.samp.on:
		notes = append(notes, samplingNote(c))
	case c.samp.rep != 1:
		notes = append(notes, fmt.Sprintf("repetition_penalty %g: each step's scores are gathered at the tokens so far and scattered into a new float32 copy of the scores", c.samp.rep))
	}
	if k := c.samp; k.keepScores || k.keepLogits {
		var what []string
		n := int64(0)
		if k.keepScores {
			what = append(what, "output_scores")
			n++
		}
		if k.keepLogits {
			what = append(what, "output_logits")
			if !k.keepScores || c.samp.chain() {
				n++ // a tensor of its own beside the processed scores
			}
		}
		per := c.batch * c.vocab * 4
		notes = append(notes, fmt.Sprintf("%s: the output keeps every step's float32 batch × vocab scores (%s a step, %s over %d steps), held until the caller drops the output (dev103's traces and late95's blind points, greedy and under top_p, one or both flags: reserved within 0.7%%)", strings.Join(what, " and "), units.Bytes(n*per), units.Bytes(n*per*max(c.gen, 1)), max(c.gen, 1)))
	}
	return notes
}

// samplingNote says which warpers the plan ran and what they hold.
func samplingNote(c *config) string {
	w := c.samp.warpers()
	ws := "no warper (top_k 0)"
	if len(w) > 0 {
		ws = strings.Join(w, ", ")
	}
	if c.samp.topP < 1 {
		ws += " (top_p sorts the batch × vocab scores: values, int64 indices and the sort's buffers, about 11 float32 copies of the scores at its peak below 128 rows)"
	}
	seqs := ""
	if c.returns > 1 {
		seqs = fmt.Sprintf("; num_return_sequences %d expands every input, so the model and its KV cache run %d sequences", c.returns, c.batch)
	}
	k, measured := samplerCostsOf(c.gpu.Name)
	probe := "from " + k.source
	if !measured {
		probe += ", the per-element part scaled by this GPU's bandwidth"
	}
	if c.samp.minP > 0 {
		probe += "; min_p's timed twin, Qwen2.5-0.5B at batch 128 under min_p 0.1 alone on an H100, ran 0.83-0.90x its greedy twin's speed by its median and fastest runs, planned 0.94x"
	}
	cost := fmt.Sprintf("; choosing each token takes about %.2f ms of GPU time (the warpers, softmax and multinomial, %s), added to every step after its forward since generate synchronises each step: timed twins ran 0.90x (Llama 3.2 1B, batch 32, top_p; planned 0.91x) and 0.75-0.82x (Qwen2.5-0.5B, batch 128, top_p, by its median and fastest runs; planned 0.83x) their greedy twin's speed; late96's six pairs on an H100 (blind when first evaluated, within 10%% at five) now within 7%% at five", 1e3*c.samplerGPU(), probe)
	return fmt.Sprintf("sampling with %s; each warper writes a new float32 copy of the batch × vocab scores, and the float32 logits, the scores and the probabilities stay held into the next step's forward%s%s", ws, seqs, cost)
}

// warpers lists the processors that run, as transformers names their
// options: repetition_penalty, then under sampling temperature, top_k and
// top_p.
func (p sampling) warpers() []string {
	var w []string
	if p.rep != 1 {
		w = append(w, fmt.Sprintf("repetition_penalty %g", p.rep))
	}
	if !p.on {
		return w
	}
	if p.temp != 1 {
		w = append(w, fmt.Sprintf("temperature %g", p.temp))
	}
	if p.topK > 0 {
		w = append(w, fmt.Sprintf("top_k %d", p.topK))
	}
	if p.topP < 1 {
		w = append(w, fmt.Sprintf("top_p %g", p.topP))
	}
	if p.minP > 0 {
		w = append(w, fmt.Sprintf("min_p %g", p.minP))
	}
	return w
}

// decoding says how the next token is chosen: greedy, beam search or
// sampling, with the processors that run.
func decoding(c *config) string {
	w := c.samp.warpers()
	if c.samp.on && c.returns > 1 {
		w = append(w, fmt.Sprintf("%d sequences a prompt", c.returns))
	}
	d := "greedy"
	switch {
	case c.beams > 1:
		d = fmt.Sprintf("beam search (%d beams)", c.beams)
	case c.samp.on:
		d = "sampling"
	}
	if len(w) > 0 {
		d += " (" + strings.Join(w, ", ") + ")"
	}
	return d
}

// instructNote warns that a chat or instruct checkpoint's
// generation_config usually samples (Llama 3 Instruct: do_sample with
// temperature 0.6 and top_p 0.9; Qwen2.5 Instruct: top_k 20 and top_p 0.8
// besides) where the plan, given no decoding option, planned greedy search:
// model.generate() then runs the warpers' copies of the scores.
func instructNote(c *config) string {
	name := ""
	if c.spec.Model != nil {
		name = strings.ToLower(*c.spec.Model)
	}
	d := c.spec.Decoding
	if d.DoSample || d.NumBeams > 1 || !(strings.Contains(name, "instruct") || strings.Contains(name, "chat")) {
		return ""
	}
	return fmt.Sprintf("%s is a chat/instruct checkpoint: its generation_config usually sets do_sample (Llama 3 Instruct: temperature 0.6, top_p 0.9), and model.generate() then samples; this plan is greedy search: plan the sampling with --do-sample and the warpers its generation_config.json names", *c.spec.Model)
}

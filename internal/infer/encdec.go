package infer

import "fmt"

// refuseServeEncDec is why a serve plan refuses an encoder-decoder family.
func refuseServeEncDec(c *config) error {
	return fmt.Errorf("%s is an encoder-decoder model: vLLM's engine serves decoder-only models; plan Hugging Face generate (--task generate)", c.arch.Name)
}

// decLayers is the decoder's layer count (the encoder's where the config
// gives none).
func (c *config) decLayers() int64 {
	if c.arch.DecLayers > 0 {
		return int64(c.arch.DecLayers)
	}
	return c.layers
}

// crossKVBytes is the cross-attention cache: every decoder layer's keys
// and values over the prompt's encoded tokens.
func (c *config) crossKVBytes() int64 {
	return 2 * c.batch * c.heads * c.headDim * c.seq * c.dt * c.decLayers()
}

// selfKVBytes is the decoder's self-attention cache at t tokens a
// sequence.
func (c *config) selfKVBytes(t int64) int64 {
	return 2 * c.batch * c.heads * c.headDim * c.kv * t * c.decLayers()
}

// promptIDs is a text encoder-decoder's inputs: the prompt's ids and its
// attention mask.
func (m *model) promptIDs() []int32 {
	n := m.c.batch * m.c.seq * 8
	return []int32{m.s.alloc(n, CatTemporaries), m.s.alloc(n, CatTemporaries)}
}

// encDecLoop is an encoder-decoder's generate: its inputs (the prompt's
// ids and mask, or Whisper's features), the encoder's pass (held as encoder_outputs), then per step the
// decoder over one token a sequence (step, growing the self-attention
// cache kv and filling the cross-attention cache at the first step), the
// head on its output (head, which frees it), the float32 copy of the
// logits, the argmax and the decoder's ids grown by a column; forcedEOS:
// the last step's forced EOS processor copies the scores (pickNext).
func (m *model) encDecLoop(inputs func() []int32, encoder func() int32, step func(kv *cache, cross []int32) int32, head func(x int32) int32, forcedEOS bool) {
	c, s := m.c, m.s
	b := c.batch
	s.phase = PhaseLoad
	for _, t := range m.w.tensors {
		s.alloc(t, CatWeights)
	}
	s.phase = PhasePrefill
	tmp := func(n int64) int32 { return s.alloc(n, CatTemporaries) }
	// the inputs and the encoder's pass are the prompts'; beam search
	// expands the encoder's output and the mask to every beam
	c.batch = c.prompts
	heldIn := inputs()
	before, traffic0 := s.n, s.trafficBytes
	enc := encoder()
	c.batch = b
	var beam *beamState
	if x := b / c.prompts; x > 1 {
		// num_beams or num_return_sequences: the encoder's output and the
		// mask expanded
		e := s.alloc(s.live[enc].size*x, CatActivations)
		s.free(enc)
		enc = e
		heldIn = append(heldIn, tmp(b*c.seq*8))
	}
	if c.beams > 1 {
		beam = m.beamStart(1 + max(c.gen, 1))
	}
	picks := newPicks()
	dec := tmp(b * 8) // the decoder's ids: its start token, a column a step
	kv, cross := newCache(int(c.decLayers())), make([]int32, 2*c.decLayers())
	for i := range cross {
		cross[i] = -1
	}
	for st := int64(0); st < max(c.gen, 1); st++ {
		if st > 0 {
			s.phase = PhaseDecode
			before, traffic0 = s.n, s.trafficBytes
		}
		s.step = int(st)
		if beam != nil {
			m.beamFlat(beam, st+1)
		}
		in, cs := tmp(b*8), tmp(8)
		logits := head(step(kv, cross))
		kv.n++
		if beam != nil {
			m.beamPick(beam, logits, forcedEOS && st == max(c.gen, 1)-1)
			s.free(cs, in)
			m.beamReorder(kv, cross)
			m.recordStep(st, before, traffic0)
			continue
		}
		var next int32
		next, dec = m.pickNext(picks, dec, st+2, forcedEOS && st == max(c.gen, 1)-1)
		s.free(logits, cs, in, next)
		m.recordStep(st, before, traffic0)
	}
	if beam != nil {
		m.beamEnd(beam)
	}
	m.endPicks(picks)
	s.free(enc, dec)
	s.free(heldIn...)
	s.free(cross...)
}

package infer

import (
	"errors"
	"fmt"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/memmodel"
	"github.com/vramkit/vramkit/internal/units"
)

// model writes the allocation stream of one generate call.
type model struct {
	c *config
	s *stream
	w *weights
	// kernels[i] counts the allocations (a proxy for kernels and host
	// operations) of forward i: 0 is the prefill, 1 the first decode step.
	kernels []int
	// wsPending: the encoder's first projection (query) is yet to run and
	// allocate the matmul workspaces after its output (matmulWorkspaces)
	wsPending bool
	// traffic[i] is the bytes forward i allocated outside weights and
	// cache: written once and read back about once.
	traffic []int64
	// held is the tensor the model's forward keeps referenced across its
	// layers (the input embeddings), which a block must not free.
	held int32
	// masks, while set, makes the forward's attention masks: the forward
	// sets it, the first rotary table (or the forward after the
	// embedding) runs it
	masks func()
	// layerHeld are what the running layer returns beside its hidden
	// state (GPT-J's attention weights, attendGPTJ); outHeld the previous
	// layer's, which the model's loop holds (outputs = block(...)) until
	// the next layer returns and, for the last, until the forward does
	layerHeld, outHeld []int32
	// sampler is what the running step's sampling (warpers, softmax and
	// multinomial) allocated; recordStep moves it out of the step's
	// kernels and traffic into samplerOps, which the time model prices
	// from the warper probe instead (sampler_time.go)
	sampler    samplerWork
	samplerOps []int
}

// generate writes what transformers' GenerationMixin.generate (5.17) does
// for greedy search with max_new_tokens = min_new_tokens = gen: the prompt
// and its attention mask on the device, position ids prepared once, then
// per step one forward, the attention mask and position ids grown by a
// column, the last token's logits copied to float32, argmax, and
// input_ids grown by torch.cat. gen new tokens take gen forwards (the
// prefill yields the first).
func (m *model) generate() {
	c, s := m.c, m.s
	if c.dec.encDec != nil {
		c.dec.encDec(m)
		return
	}
	b := c.batch
	s.phase = PhaseLoad
	for _, t := range m.w.tensors {
		s.alloc(t, CatWeights)
	}
	s.phase = PhasePrefill
	tmp := func(n int64) int32 { return s.alloc(n, CatTemporaries) }
	p := c.prompts
	ids := tmp(p * c.seq * 8)
	am := tmp(p * c.seq * 8)
	// _prepare_position_ids_for_generation: attention_mask.cumsum(-1) - 1
	// once for the prompt; each step then appends a column
	cum := tmp(p * c.seq * 8)
	pos := tmp(p * c.seq * 8)
	s.free(cum)
	var beam *beamState
	if b > p {
		// _expand_inputs_for_generation (num_beams or
		// num_return_sequences): the ids, then the mask and the position
		// ids (the caller's ids and mask stay referenced)
		ids = tmp(b * c.seq * 8)
		am = tmp(b * c.seq * 8)
		np := tmp(b * c.seq * 8)
		s.free(pos)
		pos = np
	}
	if c.beams > 1 {
		beam = m.beamStart(c.seq + max(c.gen, 1))
	}
	picks := newPicks()
	// cuBLAS takes its workspace from the caching allocator at the first
	// matmul and keeps it for the life of the handle (GPU table)
	tmp(c.gpu.CublasWorkspaceBytes)
	kv := newCache(int(c.layers))
	if c.static {
		kv.max = c.staticLen()
	}
	cur := c.seq
	steps := max(c.gen, 1)
	for step := int64(0); step < steps; step++ {
		q := int64(1)
		if step == 0 {
			q = c.seq
		} else {
			s.phase = PhaseDecode
		}
		s.step = int(step)
		before, traffic0 := s.n, s.trafficBytes
		if beam != nil {
			m.beamFlat(beam, cur)
		}
		// prepare_inputs_for_generation: input_ids[:, -q:] cloned
		// contiguous, cache_position
		in := tmp(b * q * 8)
		cs := tmp(q * 8)
		logits := m.forward(q, kv)
		// _update_model_kwargs_for_generation grows the attention mask by
		// one column before the logits are read
		na := tmp(b * (cur + 1) * 8)
		s.free(am)
		am = na
		np := tmp(b * (cur + 1) * 8) // position_ids grown likewise
		s.free(pos)
		pos = np
		if beam != nil {
			m.beamPick(beam, logits, false)
			s.free(cs, in)
			m.beamReorder(kv, nil)
			cur++
			m.recordStep(step, before, traffic0)
			continue
		}
		// outputs (and its logits) dropped at the end of the iteration
		var next int32
		next, ids = m.pickNext(picks, ids, cur+1, false)
		s.free(logits, cs, in, next)
		cur++
		m.recordStep(step, before, traffic0)
	}
	m.endPicks(picks)
	if beam != nil {
		m.beamEnd(beam)
	}
}

// recordStep keeps the allocations (a proxy for kernels) and traffic of
// the prefill and the first decode step, which the timing model prices,
// from the stream's counters at the step's start.
func (m *model) recordStep(step, before, traffic0 int64) {
	w := m.sampler
	m.sampler = samplerWork{}
	if step < 2 {
		m.kernels = append(m.kernels, int(m.s.n-before-w.n)/2)
		m.traffic = append(m.traffic, m.s.trafficBytes-traffic0-w.traffic)
		m.samplerOps = append(m.samplerOps, int(w.n)/2)
	}
}

// Estimate predicts peak memory and speed of generate for an inference
// spec (task "generate").
func Estimate(spec memmodel.Spec) (*Result, error) {
	c, err := resolve(spec)
	if err != nil {
		return nil, err
	}
	cfg, err := allocsim.ParseConfig(spec.AllocConf)
	if err != nil {
		return nil, specErr("alloc_conf", "%v", err)
	}
	m, sim := replay(c, cfg, c.gpu.MemoryBytes-c.gpu.ContextBytes)
	oomAt, retries := sim.OOMAt, sim.Stats.NumAllocRetries
	if oomAt >= 0 {
		// replay on an unlimited device to say by how much it misses
		m, sim = replay(c, cfg, 0)
	}
	allocated, reserved := sim.Stats.AllocatedBytes.All.Peak, sim.Stats.ReservedBytes.All.Peak
	r := &Result{
		Task: "generate", Model: c.arch.Name, GPU: c.gpu.Name, Params: m.w.params,
		Batch: int(c.prompts), Beams: int(c.beams), Prompt: int(c.seq), NewTokens: int(c.gen),
		DoSample: c.samp.on, ReturnSequences: int(c.returns), Decoding: decoding(c),
		Precision: c.prec, ComputeDType: c.dtype, KVDType: kvName(c), Cache: cacheName(c), Attention: attnName(c),
		Weights: m.w.bytes, KVCache: c.kvCacheBytes(),
		PeakAllocated: allocated, Reserved: memmodel.Reserved{PeakReserved: reserved}, Context: c.gpu.ContextBytes,
		Process: reserved + c.gpu.ContextBytes, Capacity: c.gpu.MemoryBytes,
		PeakPhase: m.s.peakPhase.String(), PeakStep: m.s.peakStep,
		Breakdown: map[string]int64{},
	}
	for i, v := range m.s.peakCats {
		r.Breakdown[Category(i).String()] = v
	}
	r.Breakdown["allocator_overhead"] = reserved - allocated
	r.Breakdown["cuda_context"] = c.gpu.ContextBytes
	bands(c, r)
	m.times(r)
	if oomAt >= 0 && r.ProcessBand.High <= r.Capacity {
		// the replay ran out of memory on this GPU: what it needs is
		// above the capacity, whatever the band around the figures says
		r.ProcessBand.High = r.Capacity + 1
	}
	r.Verdict = memmodel.Decide(r.Process, r.ProcessBand.High, r.Capacity, r.Confidence, "")
	r.Fits, r.Headroom = r.Verdict.Fits, r.Verdict.Headroom
	if m.w.tower > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%s's checkpoint is multimodal: AutoModelForCausalLM loads its config (model_type gemma3) as Gemma3ForConditionalGeneration (transformers 5.17), so its image encoder and projector (%s) come with the language model and are counted here; Gemma3ForCausalLM loaded from it holds that much less", c.arch.Name, units.Bytes(m.w.tower)))
	}
	if n := memmodel.T5HeadNote(&c.arch); n != "" {
		r.Notes = append(r.Notes, n)
	}
	if c.beams > 1 {
		beamTimes(r)
		r.Notes = append(r.Notes, beamNote(c))
	}
	if c.gen == 0 {
		// transformers refuses max_new_tokens 0; a spec without it plans
		// the forward over the prompt alone, and says so
		r.Notes = append(r.Notes, "no new tokens asked: planned is the forward over the prompt alone (the prefill); pass --new-tokens N (spec new_tokens) for generate's decode steps and its cache's growth")
	}
	r.Notes = append(r.Notes, sampleNotes(c)...)
	if a := c.dec.audio; a != nil {
		r.Input = a.input(c)
		r.Notes = append(r.Notes, a.note)
	}
	if n := c.seq + c.gen; c.dec.encDec == nil && c.arch.MaxPos > 0 && n > int64(c.arch.MaxPos) {
		// a learned position table refuses this in newConfig; rotary ones run
		r.Notes = append(r.Notes, fmt.Sprintf("prompt + new tokens (%d) is past %s's %d positions (max_position_embeddings): memory is planned for the length asked; the model was not trained on sequences that long", n, c.arch.Name, c.arch.MaxPos))
	}
	if c.static {
		r.Notes = append(r.Notes, "transformers torch.compiles a StaticCache generate's decode step by default on CUDA (CompileConfig, mode reduce-overhead: CUDA graphs) unless generation_config.disable_compile is set: this plan, like vramkit's captures, is of the eager run; a compiled run adds its CUDA graph pool (about a decode step's activations and the graph's static inputs) and its first calls compile, and it decodes faster than the host-bound figure here")
	}
	if c.static && c.staticLen() > c.cacheTokens() {
		r.Notes = append(r.Notes, fmt.Sprintf("the StaticCache is %d tokens long (max_cache_len), not the %d this call needs: transformers reuses a longer length an earlier static generate on the model left", c.staticLen(), c.cacheTokens()))
	}
	if oomAt >= 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("the caching allocator runs out of memory in the replay on %s; the figures are what it would need", c.gpu.Name))
	} else if retries > 0 {
		// the run goes on in the replay, at the price of device-wide
		// synchronisations; the verdict still counts the band's top
		times := fmt.Sprintf("%d times", retries)
		if retries == 1 {
			times = "once"
		}
		r.Notes = append(r.Notes, fmt.Sprintf("the replay reaches %s's limit: the allocator frees its cached blocks and retries %s (a device synchronize and cudaFree each) and the call completes; peak reserved is that limit, not what the call would hold on a larger GPU", c.gpu.Name, times))
	}
	return r, nil
}

// replay writes the generate call's requests and runs them through the
// caching allocator on a device of capacity bytes (0: unlimited) as they
// are written, a piece at a time (a long call writes millions).
func replay(c *config, cfg allocsim.Config, capacity int64) (*model, allocsim.SimResult) {
	dev := allocsim.NewDevice(capacity, c.gpu.MemoryBytes) // top-down, as the driver
	feed := allocsim.NewFeed(cfg, dev)
	m := &model{c: c, s: newStream(), w: buildWeights(c)}
	m.s.sink = func(piece []allocsim.Request) { feed.Run(piece) }
	m.generate()
	m.s.flush()
	return m, feed.Result()
}

// cacheTokens is how many tokens the cache holds at the end: the prompt
// and every generated token but the last, which is never fed back. A
// StaticCache sized to the call is that long (max_length − 1).
func (c *config) cacheTokens() int64 {
	return c.seq + max(c.gen, 1) - 1
}

// staticLen is a StaticCache's max_cache_len: what the call needs, or
// the longer length the spec gives. Since transformers 5 (pull 47731)
// generate frees its StaticCache when it returns but keeps the length on
// the model and sizes a later call's cache to it whenever it is long
// enough, whatever that call's batch: in one process a short generate
// after a longer one pays for the longer cache (and attends over it).
func (c *config) staticLen() int64 {
	return max(c.cacheTokens(), c.maxCacheLen)
}

// kvTokens is the token slots the cache holds at the end: a StaticCache
// its whole length, a DynamicCache the tokens fed back.
func (c *config) kvTokens() int64 {
	if c.static {
		return c.staticLen()
	}
	return c.cacheTokens()
}

// kvCacheBytes is the cache a call holds at its end.
func (c *config) kvCacheBytes() int64 {
	if c.dec.encDec != nil {
		// the decoder's self-attention over its tokens in each of its
		// layers (Whisper large-v3-turbo: 4 under a 32-layer encoder),
		// and the cross-attention's keys and values over the prompt
		return c.selfKVBytes(max(c.gen, 1)) + c.crossKVBytes()
	}
	return c.kvHeldBytes(c.kvTokens())
}

// kvHeldBytes is the cache the batch holds at t tokens a sequence: t in
// every layer, at most the window in a sliding one (both Hugging Face
// sliding layers hold a window's worth once full).
func (c *config) kvHeldBytes(t int64) int64 {
	per := 2 * c.batch * c.kvHeads * c.headDim * c.kv
	w := int64(c.arch.Decoder.SlidingWindow)
	var n int64
	for l := 0; l < int(c.layers); l++ {
		if c.arch.Decoder.Sliding(l) {
			n += per * min(t, w)
		} else {
			n += per * t
		}
	}
	return n
}

func kvName(c *config) string {
	switch c.kv {
	case 1:
		return "fp8"
	case c.dt:
		return c.dtype
	case 4:
		return "fp32"
	}
	return "bf16"
}

func cacheName(c *config) string {
	if c.static {
		return "static"
	}
	return "dynamic"
}

func attnName(c *config) string {
	if c.eager {
		return "eager"
	}
	return "sdpa"
}

// IsSpecError reports whether err is a bad inference spec.
func IsSpecError(err error) bool { return errors.Is(err, ErrSpec) }

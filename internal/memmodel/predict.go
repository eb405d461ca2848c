package memmodel

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/units"
)

// buildGraph records one rank's forward pass of one micro-batch.
func (c *config) buildGraph() *Graph {
	return c.buildGraphWith(c.inputGradUnderCkpt() && c.arch.family().InputGradHeld)
}

// buildGraphWith is buildGraph, with the input embeddings' output
// requiring grad when inputGrad is set (see builder.inputGrad).
func (c *config) buildGraphWith(inputGrad bool) *Graph {
	a := c.rankArch()
	amp, pdt := c.amp, c.pdt
	if c.fsdpMixed() {
		// FSDP2 MixedPrecisionPolicy(param_dtype=bf16): blocks run on bf16
		// parameters gathered from fp32 shards, without autocast casts
		amp, pdt = F32, BF16
	}
	b := newBuilder(amp, pdt)
	b.ctaLimit = int64(c.gpu.SMs) * ctasPerSM
	if c.spec.LoRA != nil {
		b.lora = c.spec.LoRA
		b.frozen = true
		// get_peft_model upcasts the adapters to float32; diffusers'
		// add_adapter does not, and FSDP2's bf16 param_dtype casts every
		// gathered parameter for compute
		b.loraF32 = a.family().Task != "diffusion" && !c.fsdpMixed()
	}
	b.attn, b.compiled, b.channelsLast = c.attn, c.spec.Compile, c.spec.ChannelsLast
	b.inputGrad = inputGrad
	b.quant4 = c.spec.Quant != ""
	if o := c.spec.Override; o != nil {
		b.lowRank = int64(o.LowRank)
	}
	cache := c.ckptEvery == 0 // transformers turns the KV cache off under gradient checkpointing
	if u := c.spec.UseCache; u != nil && !*u {
		cache = false
	}
	a.family().Build(b, &a, Input{Batch: c.batch, Seq: c.seq, Image: c.image, Cache: cache,
		Checkpoint: c.ckptEvery > 0, VAEEncode: c.spec.VAEEncode, Samples: c.samples, FreezeFeatures: c.freezeFE})
	if b.compiled {
		b.g.compiled = true
		compileGraph(b.g)
	}
	return b.g
}

// stepConfig derives the stream generator's settings.
func (c *config) stepConfig(g *Graph, steps int) stepConfig {
	cfg := stepConfig{accum: c.spec.Accum, steps: steps, selective: c.selective,
		optimizer: c.opt, stateDT: c.stateDT, scaler: c.scaler, keepGrads: c.spec.KeepGrads,
		ckpt: map[int]bool{}, cublasWorkspace: c.gpu.CublasWorkspaceBytes}
	if c.ckptEvery > 0 {
		for i := 0; i < g.blocks; i++ {
			if i%c.ckptEvery == 0 {
				cfg.ckpt[i] = true
			}
		}
	}
	if c.scaler && c.arch.scalerOverflows() {
		// GradScaler starts at 2^16; ResNets at default init overflow
		// fp16 gradients for their first steps, which are skipped (the
		// fixtures' ResNet-50 b64 captures skipped all three), so no
		// optimizer state exists yet. Steady state is reported separately.
		cfg.skipSteps = scalerSkippedSteps
		if sumBlocks(&c.arch) == 16 && c.spec.Accum <= 1 && c.batch >= 96 {
			// ResNet-50 at 96 images or more a step (one micro-batch)
			// skips two and steps at the third: every such capture's
			// alloc_after_iter grows by Adam's state there (late2, late8,
			// late31, late34, late36, late38, late41, late47, pick9,
			// dev44: b96-b256, NCHW and channels-last), and the state's
			// segments come after the third step's peak (late41's b96
			// -1.43% -> -0.47% reserved). At b64 the fixtures and dev35
			// skip three or more; deeper ResNets more (101: 3-5, 152: 6);
			// with accumulation fewer (b128x2, b64x4: one), kept at three.
			cfg.skipSteps = 2
		}
	}
	c.applySharding(g, &cfg)
	if c.fsdpMixed() {
		cfg.paramBytes, cfg.gradBytes, cfg.stateDT = 4, 4, F32
	}
	return cfg
}

// fsdpMixed reports FSDP/ZeRO-3 with a bf16/fp16 parameter dtype policy.
func (c *config) fsdpMixed() bool {
	st := c.spec.Parallel.Strategy
	return (st == "fsdp" || st == "zero3") && c.amp != F32
}

// ctasPerSM is how many reduction CTAs one SM keeps resident: 2048
// threads over 128-thread blocks, as read from the H200 traces (see
// biasGradScratch); GPUs with 1536 or 1024 threads per SM hold fewer, which
// this over-estimates (more scratch, the safe side).
const ctasPerSM = 16

// scalerSkippedSteps is how many first fp16 steps a ResNet loses to
// gradient overflow in the model (at least the three the capture ran).
const scalerSkippedSteps = 3

// Estimate predicts peak memory and step time of spec on its GPU.
func Estimate(s Spec, opts Options) (*Result, error) {
	c, err := resolve(s)
	if err != nil {
		return nil, err
	}
	if opts.Steps <= 0 {
		opts.Steps = DefaultOptions().Steps
	}
	var dyn *DynamicResult
	var schedule []int
	if len(s.Lengths) > 0 {
		var eff float64
		var pad string
		if schedule, eff, pad, err = c.dynSchedule(s); err != nil {
			return nil, err
		}
		dyn = &DynamicResult{Padding: pad, Efficiency: eff}
		for _, l := range schedule {
			dyn.MaxLen = max(dyn.MaxLen, l)
		}
		c.seq = int64(dyn.MaxLen) // the fixed-shape plan is the worst batch
	}
	g := c.buildGraph()
	if err := c.checkLoRATargets(g); err != nil {
		return nil, err
	}
	cfg := c.stepConfig(g, opts.Steps)
	cfg.warm = opts.Warm
	tm, err := newTimeModel(c.gpu, opts.Host)
	if err != nil {
		return nil, err
	}
	hs, err := c.spec.HostCostScale()
	if err != nil {
		return nil, err
	}
	tm.scaleHost(hs)
	tm.realBatch = c.batch >= compiledRealBatch
	tm.compiledFamily = c.arch.family().CompiledHost
	if cfg.rebuildPersistent {
		c.ddpRelease(g, &cfg, tm)
	}
	st := generate(g, cfg)
	// the live count rounds requests as the default allocator does; the
	// replay below applies alloc_conf's roundup_power2_divisions
	live := allocsim.DefaultConfig()
	peak, at, cats := st.LivePeak(live)
	steady := peak
	if cfg.skipSteps > 0 {
		sc := cfg
		sc.skipSteps = 0
		steady, _, _ = generate(g, sc).LivePeak(live)
	}
	allocated, reserved := peak, peak
	if !opts.SkipReserved {
		// the simulator's allocated peak applies the configured rounding
		// (roundup_power2_divisions), which the plain 512-byte count does not
		allocated, reserved = c.replay(st)
	}
	if dyn != nil {
		dyn.FixedAllocated, dyn.FixedReserved = allocated, reserved
		a, rs := c.replayDynamic(schedule, dyn)
		allocated, reserved = max(allocated, a), max(reserved, rs)
	}
	if p := c.spec.Parallel; p.PP > 1 {
		allocated, reserved = c.pipelineStages(g, cfg, st, allocated, reserved, live, &cats)
	}
	if cfg.skipSteps == 0 {
		// no skipped steps: the steady state is the figure itself (which
		// pipelineStages may have lowered below the stream's peak)
		steady = allocated
	}
	total, trainable := g.ParamCount()
	r := &Result{
		Model: c.arch.Name, Head: c.head(), GPU: c.gpu.Name, Params: total, TrainableParams: trainable,
		PeakAllocated: allocated, Reserved: Reserved{PeakReserved: reserved}, Context: c.gpu.ContextBytes,
		PeakPhase: st.Tags[st.Requests[at].ID].Phase.String(),
		Breakdown: map[string]int64{},
		Capacity:  c.gpu.MemoryBytes,
	}
	for i, v := range cats {
		r.Breakdown[Category(i).String()] = v
	}
	r.Breakdown["allocator_overhead"] = reserved - allocated
	r.Breakdown["cuda_context"] = c.gpu.ContextBytes
	r.NCCL = c.ncclBytes()
	if r.NCCL > 0 {
		r.Breakdown["nccl"] = r.NCCL
	}
	r.Notes = append(r.Notes, c.rankNotes()...)
	if n := c.hfQuantNote(); n != "" {
		r.Notes = append(r.Notes, n)
	}
	if n := c.rankNote(); n != "" {
		r.Notes = append(r.Notes, n)
	}
	if n := c.headNote(); n != "" {
		r.Notes = append(r.Notes, n)
	}
	if n := T5HeadNote(&c.arch); n != "" {
		r.Notes = append(r.Notes, n)
	}
	if n := c.positionsNote(); n != "" {
		r.Notes = append(r.Notes, n)
	}
	if n := c.audioNote(); n != "" {
		r.Notes = append(r.Notes, n)
	}
	r.Process = reserved + c.gpu.ContextBytes + r.NCCL
	r.SteadyAllocated = max(steady, allocated)
	r.SteadyProcess = r.Process + r.SteadyAllocated - allocated
	if steady > allocated {
		r.Notes = append(r.Notes, fmt.Sprintf("fp16 GradScaler skips the first steps of ResNets (gradient overflow); once steps succeed, optimizer state adds %s: steady-state peak allocated %s", units.Bytes(steady-allocated), units.Bytes(steady)))
	}
	r.Dynamic = dyn
	if opts.ByModule {
		r.Modules = c.byModule(g, cfg)
	}
	if !opts.SkipReserved && r.PeakReserved > 0 {
		r.LogitsSplitReserved = c.logitsWorkspaceReserved(g, cfg, st)
	}
	if cfg.rebuildPersistent && !cfg.releaseAtRebuild && !opts.SkipReserved && dyn == nil {
		rc := cfg
		rc.releaseAtRebuild = true
		r.ReleaseAllocated, r.ReleaseReserved = c.replay(generate(g, rc))
	}
	c.bands(r)
	tg, tcfg := g, cfg
	if c.inputGradUnderCkpt() {
		tg = c.buildGraphWith(true)
		tcfg = c.stepConfig(tg, opts.Steps)
		tcfg.warm = opts.Warm
	}
	step, detail := c.walkStepDetail(tg, tcfg, tm)
	c.setStepTime(r, step, tm)
	r.StepDetail = detail
	if n := expertsNote(detail); n != "" {
		r.Notes = append(r.Notes, n)
	}
	if dyn != nil {
		c.setStepTime(r, c.dynStepTime(schedule, tm), tm)
		r.Notes = append(r.Notes, fmt.Sprintf("dynamic padding (%s): %d steps replayed, batch length mean %.0f, max %d tokens; %.0f%% of padded tokens are real; reserved memory depends on the order lengths arrive in",
			dyn.Padding, dyn.Steps, dyn.MeanLen, dyn.MaxLen, 100*dyn.Efficiency))
	}
	c.stepTimeBand(r)
	if n := c.compiledGainNote(r, tm, opts); n != "" {
		r.Notes = append(r.Notes, n)
	}
	// judged on steady state (optimizer state exists) at the band's top
	r.ProcessHigh = r.ProcessBand.High + (r.SteadyProcess - r.Process)
	r.Verdict = Decide(r.SteadyProcess, r.ProcessHigh, r.Capacity, r.Confidence, "")
	r.Fits, r.Headroom = r.Verdict.Fits, r.Verdict.Headroom
	return r, nil
}

// positionsNote says when a rotary model is planned past the positions
// its config names (max_position_embeddings): memory is planned as asked,
// but the model was not trained that long (a learned position table
// refuses such a length instead, in resolve).
func (c *config) positionsNote() string {
	if c.arch.MaxPos <= 0 || !c.arch.family().AnyLength || c.seq <= int64(c.arch.MaxPos) {
		return ""
	}
	return fmt.Sprintf("seq %d is past %s's %d positions (max_position_embeddings): memory is planned for the length asked; the model was not trained on sequences that long",
		c.seq, c.arch.Name, c.arch.MaxPos)
}

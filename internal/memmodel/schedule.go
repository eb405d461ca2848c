package memmodel

import "github.com/vramkit/vramkit/internal/allocsim"

// stepConfig is what the stream generator needs to know of a configuration.
type stepConfig struct {
	accum     int
	steps     int
	ckpt      map[int]bool // blocks recomputed in backward
	selective bool         // recompute attention internals only
	optimizer *Optimizer
	stateDT   DType
	scaler    bool // fp16 GradScaler
	// gradShard/stateShard: fraction of gradients / optimizer state this rank
	// keeps after the step (ZeRO-1/2, FSDP); 1 for none.
	gradShard, stateShard float64
	// keepGrads: zero_grad(set_to_none=False).
	keepGrads bool
	// extraPerStep: bytes live during the whole step on top of the graph
	// (communication buckets of DDP, gathered FSDP units ...).
	extraPersistent int64
	extraTransient  int64
	// rebuildPersistent: the persistent buffers are reallocated before the
	// second step and the first set freed after its backward (DDP buckets:
	// the safe side of a release whose time NCCL decides, see
	// generateSchedule).
	rebuildPersistent bool
	// releaseAtRebuild: the construction-time buffers go at the rebuild,
	// not after the second step's backward (ddpRelease).
	releaseAtRebuild bool
	// rebuilt are the sizes of the buffers that replace extraPersistent at
	// the rebuild, in allocation order (DDP's gradient-ready buckets,
	// ddpBuckets).
	rebuilt []int64
	// gradStream, when not 0, is the stream gradients are allocated on
	// (FSDP2's reduce-scatter stream).
	gradStream int64
	// sideTransient bytes live during each micro-step on sideStream
	// (FSDP's all-gather buffers).
	sideTransient int64
	sideStream    int64
	// fsdpUnits gathers FSDP's units block by block (fsdp.go) instead of
	// extraTransient; fsdpReshard is reshard_after_forward.
	fsdpUnits, fsdpReshard bool
	// fsdpWorld is FSDP's data-parallel world size (all-gather buffers
	// above 1); fsdpMeta says the model was built on the meta device
	// (Parallel.Init): only the shards are ever allocated.
	fsdpWorld int
	fsdpMeta  bool
	// paramBytes / gradBytes override the element size of stored
	// parameters and gradients (fp32 shards under FSDP mixed precision).
	paramBytes, gradBytes int64
	// warm starts with optimizer state already allocated (one steady
	// step is then enough, used by fast searches).
	warm bool
	// skipSteps is how many first steps GradScaler skips (inf/NaN
	// gradients): no optimizer state exists until a step succeeds.
	skipSteps int
	// cublasWorkspace is allocated at the first matmul of the forward and
	// of the backward thread, and kept.
	cublasWorkspace int64
	// bwdWorkspace, when set, is the size the backward thread's workspace
	// request takes instead of cublasWorkspace (the freed-logits variant,
	// see logitsWorkspaceReserved).
	bwdWorkspace int64
}

// storage is one live allocation backing a forward tensor.
type storage struct {
	id    int32
	py    bool // still referenced by Python (before its last use)
	saves int  // saved-tensor references held by autograd
}

// gbuf is one gradient buffer, possibly shared by several tensors' grads.
type gbuf struct {
	id    int32
	refs  int
	bytes int64
	// view: the gradient is a reshaped view of a matmul's output (a
	// linear's input gradient), which autograd's InputBuffer cannot reuse
	// to accumulate into: the next gradient of the same tensor is added
	// out of place.
	view bool
}

// region is a run of ops whose saved tensors are dropped in forward and
// recomputed in backward; ext are the tensors it keeps (its inputs).
type region struct {
	start, end int
	ext        []Tensor
	// lastIn is, per base tensor, the last op of the region that uses it
	// (as input or as an in-place/view output): a recomputed tensor that
	// outlives the region in forward is dropped there, not when produced.
	lastIn map[Tensor]int
	// stop is the last op that saves anything: non-reentrant checkpoint
	// stops recomputing once every saved tensor is back (early stop, on by
	// default). When that op saves only its inputs it stops before the
	// kernel (saved inputs are packed before the op runs): ViT's recompute
	// ends at fc2's packed input, without fc2's output or the residual add.
	stop          int
	stopBeforeRun bool
	// first is the first op that saves anything (start when none does).
	// The checkpoint's frame, which holds the region's inputs (ext) for the
	// recomputation, dies with the last packed tensor: when that op's
	// backward releases its saved tensors, before the backward of the ops
	// ahead of it (an autocast cast of the block's input: the ConvNeXt
	// bf16 traces free the float32 block input after the depthwise conv's
	// backward, before the cast's gradient is cast back).
	first int
}

// recomputeAt is the op whose backward triggers the region's
// recomputation: the last that saves anything (its end when none does).
func (r *region) recomputeAt() int {
	if r.stop >= r.start {
		return r.stop
	}
	return r.end
}

type generator struct {
	g     *Graph
	cfg   stepConfig
	ev    []allocsim.Request
	tags  []Tag // per allocation id; tags[0] unused
	next  int32
	phase Phase

	lastUse []int // per base tensor: last op index using it in forward
	// releaseAt[i] are the base tensors Python lets go after op i without
	// op i using them (tensor.keep)
	releaseAt map[int][]Tensor
	prod      []int // per tensor: producing op, -1 for leaves
	regions   []region
	inReg     []int // op -> region index or -1
	saving    []bool
	// outers are the enclosing blocks of nested checkpoints, inOuter
	// their op index (nil without any); outerMode is set while one
	// recomputes (nested.go)
	outers    []outerRegion
	inOuter   []int
	outerMode bool

	store map[Tensor]*storage
	grads map[Tensor]*gbuf
	// leafGrads are Graph.leafHeld's accumulated gradients, kept until
	// backward ends
	leafGrads []*gbuf
	// pieces holds, per base tensor, the gradients of its pure views
	// (split/chunk pieces) until SplitBackward joins them (join)
	pieces map[Tensor][]*gbuf
	// inNode is set while backOp runs a node; slice gradients delivered
	// then wait in sliceLater until it has returned (see deliver)
	inNode     bool
	sliceLater []pendingGrad
	paramGrad  []*gbuf
	paramID    []int32
	state      [][]int32
	wsFwd      bool
	wsBwd      bool
	wsAfter    []int64 // workspaces due after the next allocation (ltWorkspace)
	// ltFwd, ltBwd: the forward and the backward thread have allocated
	// their cuBLASLt workspace
	ltFwd, ltBwd bool
	// units are FSDP's gathered units (nil without FSDP unit gathers);
	// unitAt is the block the last op ran in (-2 before a pass).
	units  *fsdpUnits
	unitAt int
}

func newGenerator(g *Graph, cfg stepConfig) *generator {
	gen := &generator{g: g, cfg: cfg, store: map[Tensor]*storage{}, unitAt: -2}
	if cfg.fsdpUnits {
		gen.units = newFSDPUnits(g, cfg.fsdpReshard, cfg.fsdpWorld)
	}
	gen.analyse()
	return gen
}

// use switches the generator to graph g (same parameters, other shapes)
// between steps.
func (gen *generator) use(g *Graph) {
	gen.g, gen.regions, gen.prod = g, nil, nil
	gen.analyse()
}

// analyse computes last uses and recompute regions.
func (gen *generator) analyse() {
	g := gen.g
	gen.lastUse = make([]int, len(g.tensors))
	for i := range gen.lastUse {
		gen.lastUse[i] = -1
	}
	for i := range g.ops {
		for _, t := range g.ops[i].in {
			b := g.tensors[t].base
			gen.lastUse[b] = i
		}
		for _, t := range g.ops[i].out {
			b := g.tensors[t].base
			if gen.lastUse[b] < i && b != t {
				gen.lastUse[b] = i
			}
		}
	}
	gen.releaseAt = map[int][]Tensor{}
	if g.compiled {
		// the partitioner saves what recomputing a fused op's saved
		// tensors reads (compileGraph): an ancestor it need not read
		// itself, which must outlive its last read until the op saves it
		// (dev25's compiled Qwen3-0.6B keeps q_proj's and k_proj's
		// outputs for the q/k norms' backward: 32 and 16 MiB a layer)
		for i := range g.ops {
			for _, t := range g.ops[i].save {
				if b := g.tensors[t].base; gen.lastUse[b] < i {
					gen.lastUse[b] = i
					gen.releaseAt[i] = append(gen.releaseAt[i], b)
				}
			}
		}
	} else {
		// Inductor's generated code frees buffers at their last use
		// newest first: a function's locals go before its caller lets
		// go of the arguments
		for t := len(g.tensors) - 1; t >= 0; t-- {
			if k := g.tensors[t].keep; Tensor(t) == g.tensors[t].base && k > gen.lastUse[t] {
				gen.lastUse[t] = k
				gen.releaseAt[k] = append(gen.releaseAt[k], Tensor(t))
			}
		}
	}
	gen.inReg = make([]int, len(g.ops))
	gen.saving = make([]bool, len(g.ops))
	cur := -1
	for i := range g.ops {
		gen.inReg[i] = -1
		o := &g.ops[i]
		rec := o.block >= 0 && gen.cfg.ckpt[o.block]
		if !rec && gen.cfg.selective && g.selective[i] {
			rec = true
		}
		gen.saving[i] = !rec
		if !rec {
			cur = -1
			continue
		}
		if cur < 0 || gen.regions[cur].end != i-1 || (o.block != g.ops[i-1].block) {
			gen.regions = append(gen.regions, region{start: i, end: i})
			cur = len(gen.regions) - 1
		}
		gen.regions[cur].end = i
		gen.inReg[i] = cur
	}
	for r := range gen.regions {
		rg := &gen.regions[r]
		seen := map[Tensor]bool{}
		rg.lastIn = map[Tensor]int{}
		rg.stop = rg.start - 1
		rg.first = -1
		for i := rg.start; i <= rg.end; i++ {
			if len(g.ops[i].save) > 0 {
				rg.stop = i
				if rg.first < 0 {
					rg.first = i
				}
			}
			for _, t := range g.ops[i].out {
				rg.lastIn[g.tensors[t].base] = i
			}
			for _, t := range g.ops[i].in {
				rg.lastIn[g.tensors[t].base] = i
			}
			for _, t := range g.ops[i].in {
				b := g.tensors[t].base
				if seen[b] || g.tensors[b].param >= 0 {
					continue
				}
				if p := gen.producer(b); p < rg.start {
					seen[b] = true
					rg.ext = append(rg.ext, b)
				}
			}
		}
		if rg.first < 0 {
			rg.first = rg.start
		}
		rg.stopBeforeRun = rg.stop >= rg.start && savesInputsOnly(g, &g.ops[rg.stop])
	}
	gen.analyseNested()
}

// savesInputsOnly reports whether o saves none of its own outputs.
func savesInputsOnly(g *Graph, o *op) bool {
	for _, s := range o.save {
		for _, t := range o.out {
			if g.tensors[s].base == g.tensors[t].base {
				return false
			}
		}
	}
	return true
}

// producer is the op that allocated base tensor b, -1 for leaves.
func (gen *generator) producer(b Tensor) int {
	if gen.prod == nil {
		gen.prod = make([]int, len(gen.g.tensors))
		for i := range gen.prod {
			gen.prod[i] = -1
		}
		for i := range gen.g.ops {
			for _, t := range gen.g.ops[i].out {
				if gen.prod[t] < 0 {
					gen.prod[t] = i
				}
			}
		}
	}
	return gen.prod[b]
}

func (gen *generator) alloc(size int64, cat Category, opName string) int32 {
	gen.next++
	gen.ev = append(gen.ev, allocsim.Request{Kind: allocsim.ReqAlloc, ID: gen.next, Size: size, Event: int32(len(gen.ev))})
	gen.tags = append(gen.tags, Tag{Cat: cat, Phase: gen.phase, Op: opName})
	id := gen.next
	gen.flushWorkspace()
	return id
}

// allocOn allocates on another CUDA stream, whose cached blocks the
// allocator keeps apart from the default stream's.
func (gen *generator) allocOn(size int64, cat Category, opName string, stream int64) int32 {
	id := gen.alloc(size, cat, opName)
	gen.ev[len(gen.ev)-1].Stream = stream
	return id
}

func (gen *generator) free(id int32) {
	gen.ev = append(gen.ev, allocsim.Request{Kind: allocsim.ReqFree, ID: id, Event: int32(len(gen.ev))})
}

// maybeFree frees a forward storage once Python and autograd both let go.
func (gen *generator) maybeFree(b Tensor) {
	s := gen.store[b]
	if s == nil || s.py || s.saves > 0 {
		return
	}
	gen.free(s.id)
	delete(gen.store, b)
}

func (gen *generator) release(b Tensor) {
	if s := gen.store[b]; s != nil {
		s.py = false
		gen.maybeFree(b)
	}
}

func (gen *generator) unsave(b Tensor) {
	if s := gen.store[b]; s != nil && s.saves > 0 {
		s.saves--
		gen.maybeFree(b)
	}
}

func (gen *generator) save(t Tensor) {
	b := gen.g.tensors[t].base
	if s := gen.store[b]; s != nil {
		s.saves++
	}
}

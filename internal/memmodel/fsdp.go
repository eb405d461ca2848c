package memmodel

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/units"
)

// FSDP2 (fully_shard per block plus the root) gathers each unit's
// parameters just before the unit runs and frees them after (reshard):
// _fsdp_param.alloc_storage gives every parameter of the unit its
// unsharded storage on the default stream, interleaved with the
// activations, and the next unit is gathered while one computes
// (prefetch). In backward the order is reversed and the unit gathered
// again unless reshard_after_forward=False kept it. The root unit
// (embeddings, final norm, head: the ops outside any block) stays gathered
// from its forward to the end of backward.

// fsdpUnits is the gathered size of every block's parameters and of the
// root unit's (index -1 is stored at len(blocks)).
type fsdpUnits struct {
	sizes   [][]int64 // per block, one per parameter; the root last
	live    [][]int32 // allocation ids of a gathered unit, nil when sharded
	reshard bool      // reshard_after_forward
	// world is the data-parallel world size; above 1 every gather runs
	// through all-gather buffers on the all-gather stream (agOut: the
	// last gather's output, freed when the next one's exists)
	world int
	agOut int32
	// rsIn is the reduce-scatter input in flight (foreach_reduce's
	// float32 copy of a unit's unsharded gradients, on the default
	// stream), freed when the next unit's is made
	rsIn int32
}

// newFSDPUnits sizes the units of g: a parameter belongs to the block of
// the first op that reads it.
func newFSDPUnits(g *Graph, reshard bool, world int) *fsdpUnits {
	u := &fsdpUnits{sizes: make([][]int64, g.blocks+1), live: make([][]int32, g.blocks+1), reshard: reshard, world: world}
	unit, read := paramUnits(g)
	for _, p := range read {
		pi := g.params[p]
		u.sizes[unit[p]] = append(u.sizes[unit[p]], pi.numel*pi.dt.Size())
	}
	return u
}

func (u *fsdpUnits) index(block int) int {
	if block < 0 || block >= len(u.sizes)-1 {
		return len(u.sizes) - 1
	}
	return block
}

// gather allocates unit b's unsharded parameters, one storage per
// parameter as alloc_storage does, unless they are live.
func (gen *generator) gather(b int) {
	u := gen.units
	i := u.index(b)
	if b < -1 || b >= len(u.sizes)-1 || u.live[i] != nil {
		return
	}
	if u.world > 1 {
		// foreach_all_gather on the all-gather stream: the copy-in of
		// this rank's shards, the flat output of every rank's, the
		// copy-in freed once the collective is queued; the output lives
		// until copy-out, which the next gather follows (late44's
		// TinyLlama FSDP2 on two GPUs, rank 0: 125 and 250 MiB for the
		// root unit, 42 and 84 MiB per block, 464 MiB of segments there)
		var n int64
		for _, x := range u.sizes[i] {
			n += x
		}
		w := int64(u.world)
		in := gen.allocOn((n+w-1)/w, CatTemporaries, "fsdp_all_gather_input", fsdpGatherStream)
		out := gen.allocOn(n, CatTemporaries, "fsdp_all_gather_output", fsdpGatherStream)
		gen.free(in)
		if u.agOut != 0 {
			gen.free(u.agOut)
		}
		u.agOut = out
	}
	for _, n := range u.sizes[i] {
		u.live[i] = append(u.live[i], gen.alloc(n, CatTemporaries, "fsdp_unsharded_params"))
	}
}

// reshard frees unit b's unsharded parameters.
func (gen *generator) reshard(b int) {
	u := gen.units
	i := u.index(b)
	if b < -1 {
		return
	}
	for _, id := range u.live[i] {
		gen.free(id)
	}
	u.live[i] = nil
}

// enterUnit is called before op i runs (forward, or backward when
// backward is set): on entering a block it gathers the block and the
// next one (prefetch) and reshards the block left.
func (gen *generator) enterUnit(i int, backward bool) {
	if gen.units == nil {
		return
	}
	b := gen.g.ops[i].block
	if b == gen.unitAt {
		return
	}
	prev := gen.unitAt
	gen.unitAt = b
	if prev >= 0 && (backward || gen.units.reshard) {
		gen.reshard(prev)
	}
	if prev >= 0 && backward {
		gen.reduceInput(prev)
	}
	if b < 0 {
		gen.gather(-1)
		return
	}
	gen.gather(b)
	if backward {
		gen.gather(b - 1)
	} else {
		gen.gather(b + 1)
	}
}

// reduceInput is foreach_reduce's reduce-scatter input for unit b after
// its backward on several GPUs: the unit's gradients copied into one flat
// float32 tensor on the default stream, made once the previous unit's
// (freed first) is done with (late44's checkpointed TinyLlama FSDP2
// snapshot, _fsdp_collectives.py:522: 168 MiB per block, 500 MiB for the
// root unit at backward's end). Its output, the sharded gradients, is on
// the reduce-scatter stream (passes_backward.go).
func (gen *generator) reduceInput(b int) {
	u := gen.units
	if u.world <= 1 {
		return
	}
	var n int64
	for _, x := range u.sizes[u.index(b)] {
		n += x // the parameters' own dtype: float32 shards reduce in float32
	}
	if u.rsIn != 0 {
		gen.free(u.rsIn)
	}
	u.rsIn = gen.alloc(n, CatTemporaries, "fsdp_reduce_scatter_input")
}

// endUnits reshards what is left gathered after backward.
func (gen *generator) endUnits() {
	if gen.units == nil {
		return
	}
	for i, ids := range gen.units.live {
		for _, id := range ids {
			gen.free(id)
		}
		gen.units.live[i] = nil
	}
	if gen.units.agOut != 0 {
		gen.free(gen.units.agOut)
		gen.units.agOut = 0
	}
	if gen.units.world > 1 {
		// the root unit's gradients are reduced last, and the step
		// waits for every reduce-scatter before the optimizer
		gen.reduceInput(-1)
		gen.free(gen.units.rsIn)
		gen.units.rsIn = 0
	}
	gen.unitAt = -2
}

// paramUnits is the FSDP unit of every parameter of g (the block of the
// first op that reads it; g.blocks, the root unit, outside any block or
// never read) and the parameters in the order ops first read them.
func paramUnits(g *Graph) (unit, read []int) {
	unit = make([]int, len(g.params))
	for i := range unit {
		unit[i] = g.blocks
	}
	seen := map[Tensor]bool{}
	for _, o := range g.ops {
		for _, t := range o.in {
			p := g.tensors[t].param
			if p < 0 || seen[t] {
				continue
			}
			seen[t] = true
			read = append(read, p)
			if o.block >= 0 && o.block < g.blocks {
				unit[p] = o.block
			}
		}
	}
	return unit, read
}

// loadSharded is model.to(device) followed by fully_shard on several
// GPUs: every parameter loaded whole, then unit by unit (the blocks, then
// the root) its shards allocated and the whole parameters freed (late44's
// two-GPU FSDP2 snapshots, _fsdp_param.py's _init_sharded_param). The
// whole model's segments stay cached for the activations. size gives a
// parameter's bytes at a shard fraction.
func (gen *generator) loadSharded(order []int, size func(i int, shard float64) int64) {
	g := gen.g
	whole := make([]int32, len(g.params))
	for _, i := range order {
		whole[i] = gen.alloc(size(i, 1), CatParameters, "param")
	}
	unit, _ := paramUnits(g)
	for u := 0; u <= g.blocks; u++ {
		var freed []int32
		for _, i := range order {
			if unit[i] != u {
				continue
			}
			gen.paramID[i] = gen.alloc(size(i, g.params[i].shard), CatParameters, "param")
			freed = append(freed, whole[i])
		}
		gen.freeAll(freed)
	}
}

// AdviseLoad adds to r, the plan of s, what the sharded load needs when
// the whole model on every GPU before fully_shard (FSDP over several GPUs
// loaded with model.to(device), as the captures ran) sets the peak: the
// same spec from the meta device (Parallel.Init), the way a model larger
// than a GPU must be loaded. It replays the spec a second time, so the
// CLI calls it on the plan it prints, not the searches on every probe.
func AdviseLoad(s Spec, opts Options, r *Result) error {
	c, err := resolve(s)
	if err != nil {
		return err
	}
	p := c.spec.Parallel
	if p.Strategy != "fsdp" || c.dp() < 2 || p.Init == "meta" || r.PeakPhase != PhaseLoad.String() {
		return nil
	}
	m := s
	m.Parallel.Init = "meta"
	mr, err := Estimate(m, opts)
	if err != nil {
		return err
	}
	r.Notes = append(r.Notes, fmt.Sprintf("the peak is at load: model.to(device) before fully_shard holds the whole model on every GPU (%s of parameters); built on the meta device and loaded sharded (spec parallel.init \"meta\", --fsdp-init meta; torchtitan's way, and the only one for a model larger than a GPU) the process needs %s, at most %s",
		units.Bytes(r.Breakdown["parameters"]), units.Bytes(mr.SteadyProcess), units.Bytes(mr.ProcessHigh)))
	return nil
}

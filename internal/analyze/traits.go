package analyze

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// traits reads how the program ran from the trace: training or inference,
// the precision (autocast, FSDP mixed precision, half-precision weights or
// fp32), checkpointing, sharding, and the optimizer from the frames and
// sizes of the state its steps keep. Everything it says agrees with the
// category table c, which it reads.
func (d *dev) traits(c Categories) Traits {
	tr := Traits{Sharding: []string{}, Precision: PrecisionUnknown}
	training := false
	for _, p := range d.ph {
		if p == phBackward {
			training = true
			break
		}
	}
	tr.Training = &training
	if !training && d.oomAt >= 0 && d.iterOf(d.oomAt) <= 1 && !d.isInference() {
		// Died in its first forward pass: a training run and an
		// evaluation look the same until backward would have started.
		tr.Training = nil
		tr.TrainingNote = "unknown (the trace ends before the first backward)"
	}
	used := make([]bool, len(d.facts))
	for k := range d.t.lives {
		used[d.t.lives[k].stack] = true
	}
	var fsdp, ddp, dtensor, zero bool
	for id, f := range d.facts {
		if !used[id] {
			continue
		}
		if f.checkpoint {
			tr.Checkpointing = true
		}
		if f.scaler {
			tr.GradScaler = true
		}
		l := f.lib
		fsdp, dtensor, zero = fsdp || l.fsdp, dtensor || l.dtensor, zero || l.zero
		ddp = ddp || l.role == roleDDPBucket
		tr.Adapters = tr.Adapters || l.peft
	}
	for _, s := range []struct {
		on   bool
		name string
	}{{fsdp, "fsdp2"}, {ddp, "ddp"}, {dtensor, "dtensor"}, {zero, "zero-1"}} {
		if s.on {
			tr.Sharding = append(tr.Sharding, s.name)
		}
	}
	if fsdp {
		tr.WorldSize = d.worldSize()
		if tr.WorldSize == 0 && !d.hasAllGatherOutput() {
			tr.WorldSize = 1 // FSDP all-gathers nothing on one rank
		}
	}
	tr.Inference = d.isInference()
	d.precision(&tr, c, fsdp)
	d.optimizerTraits(&tr, c, training, zero, fsdp)
	return tr
}

// refIter is the 0-based iteration whose structure the traits measure:
// the last one, which runs what the program repeats.
func (d *dev) refIter() (lo, hi int) {
	n := len(d.starts) - 1
	return d.starts[n-1], d.starts[n]
}

// optimizerTraits reads the optimizer from its state: the module that
// made it (frames), the bytes it keeps per gradient byte, and the share of
// parameters that train at all (a frozen base with adapters trains a
// sliver); ZeroRedundancyOptimizer and FSDP mean each rank keeps the
// state of its shard only.
func (d *dev) optimizerTraits(tr *Traits, c Categories, training, zero, fsdp bool) {
	switch {
	case c.Parameters == 0:
		tr.Optimizer = "unknown"
		return
	case tr.Training == nil:
		tr.Optimizer = "unknown (the trace ends before the first optimizer step)"
		return
	case !training:
		tr.Optimizer = "none (no backward pass)"
		return
	}
	byModule := map[string]int64{}
	for k := range d.t.lives {
		if d.ph[k] == phOptim && d.lifetimeCategory(k) == catOptimizer {
			l := &d.t.lives[k]
			byModule[d.facts[l.stack].lib.optimizer] += l.size
		}
	}
	mods := make([]string, 0, len(byModule))
	for m := range byModule {
		mods = append(mods, m)
	}
	sort.Slice(mods, func(i, j int) bool {
		if byModule[mods[i]] != byModule[mods[j]] {
			return byModule[mods[i]] > byModule[mods[j]]
		}
		return mods[i] < mods[j]
	})
	if len(mods) > 0 {
		tr.OptimizerModule = mods[0]
	}
	grads := d.gradientsAtStep()
	if grads > 0 {
		tr.StateBytesPerGradByte = math.Round(1e4*float64(c.OptimizerState)/float64(grads)) / 1e4
		tr.TrainedShare = math.Round(1000*float64(grads)/float64(c.Parameters)) / 1000
		// Gradients of an autocast run are fp32 like the weights; a share
		// well under a half is a frozen base, not a precision effect.
		tr.FrozenBase = tr.TrainedShare < 0.25
	}
	name, state := "", ""
	for _, o := range optimizerStates {
		if tr.OptimizerModule != "" && strings.Contains(tr.OptimizerModule, o.module) {
			name, state = o.name, o.state
			if name == "" {
				name = strings.TrimSuffix(tr.OptimizerModule[strings.LastIndex(tr.OptimizerModule, "/")+1:], ".py")
			}
			break
		}
	}
	r := tr.StateBytesPerGradByte
	if grads == 0 {
		r = float64(c.OptimizerState) / float64(c.Parameters)
	}
	var desc string
	switch {
	case name != "" && c.OptimizerState == 0:
		desc = name + ", holding no state at the peak"
	case name != "" && r < 0.1:
		desc = fmt.Sprintf("%s (%s): %s, %.1f%% of the gradients' bytes", name, tr.OptimizerModule, state, 100*r)
	case name != "":
		desc = fmt.Sprintf("%s (%s): %s, %.2f× the gradients", name, tr.OptimizerModule, state, r)
	case r >= 1.5:
		desc = "Adam-like (two states per parameter)"
	case r >= 0.5:
		desc = "one state per parameter (SGD with momentum or similar)"
	case c.OptimizerState > 0:
		desc = fmt.Sprintf("a compact state (%.2f× the gradients: factored or quantised, like Adafactor or 8-bit Adam)", r)
	default:
		desc = "stateless at the peak (SGD without momentum or similar)"
	}
	if tr.FrozenBase {
		who := "a frozen base"
		if tr.Adapters {
			who = "a frozen base with adapters (LoRA/PEFT)"
		}
		desc += fmt.Sprintf("; only %.1f%% of the parameter bytes get gradients: %s", 100*tr.TrainedShare, who)
	}
	switch {
	case zero:
		desc += "; state sharded by ZeroRedundancyOptimizer (ZeRO-1): each rank keeps its shard's"
	case fsdp:
		desc += "; state sharded by FSDP: each rank keeps its shard's"
	}
	tr.Optimizer = desc
}

// gradientsAtStep is the gradient bytes alive when the reference
// iteration's optimizer step begins: the parameters that train (in the
// gradients' dtype). 0 when the iteration has no step.
func (d *dev) gradientsAtStep() int64 {
	lo, hi := d.refIter()
	at := -1
	for i := lo; i < hi; i++ {
		if d.at[i] == phOptim {
			at = i
			break
		}
	}
	if at < 0 {
		return 0
	}
	// A gradient has its parameter's size (or, sharded by FSDP, its
	// shard's, which are the parameters here too).
	sizes := map[int64]bool{}
	for k := range d.t.lives {
		if l := &d.t.lives[k]; int(l.alloc) >= d.starts[0] {
			break
		} else if l.free == never {
			sizes[l.size] = true
		}
	}
	var g int64
	for _, k := range d.t.liveAt(at) {
		if l := &d.t.lives[k]; sizes[l.size] && d.lifetimeCategory(k) == catGradients && !d.isWorkspace(k) {
			g += l.size
		}
	}
	return g
}

// worldSize measures the ranks of an FSDP run: its first all-gather's
// output holds every rank's shard of what its input holds one of.
func (d *dev) worldSize() int {
	var in int64
	for k := range d.t.lives {
		l := &d.t.lives[k]
		f := d.facts[l.stack].lib
		switch {
		case f.agIn:
			in = l.size
		case f.agOut && in > 0:
			return int(math.Round(float64(l.size) / float64(in)))
		}
	}
	return 0
}

// isInference reports whether the trace generates rather than trains: no
// backward pass, no OOM that cut the first step short, and forward passes
// inside transformers' generate or a KV cache carried from one forward
// pass to the next (an evaluation loop that builds a cache per pass and
// drops it is not generation).
func (d *dev) isInference() bool {
	for _, p := range d.ph {
		if p == phBackward {
			return false
		}
	}
	early := d.oomAt >= 0 && d.iterOf(d.oomAt) <= 1
	for k := range d.t.lives {
		l := &d.t.lives[k]
		f := d.facts[l.stack].lib
		if f.generate {
			return true // even when it died in its prefill
		}
		if !early && f.role == roleKVCache && int(l.alloc) >= d.starts[0] &&
			(l.free == never || d.iterOf(int(l.free)) > d.iterOf(int(l.alloc))) {
			return true
		}
	}
	return false
}

// generateLogits reads the model's dtype from transformers' generate:
// every step it copies the last position's logits to fp32 (size b × vocab
// × 4). The forward's own logits are half that size when the model
// computes in bf16/fp16, the same size in fp32. ok is false when the
// trace has no such copies, or the forward shows neither size.
func (d *dev) generateLogits() (half, ok bool) {
	var copySize int64
	copies := 0
	for k := range d.t.lives {
		l := &d.t.lives[k]
		fr := d.s.Frames(l.stack)
		if len(fr) > 0 && strings.Contains(fr[0].Filename, "transformers/generation/") && l.size >= 16000 && l.size%4 == 0 {
			if l.size > copySize {
				copySize, copies = l.size, 0
			}
			if l.size == copySize {
				copies++
			}
		}
	}
	if copies < 2 {
		return false, false
	}
	var halves, fulls int
	for k := range d.t.lives {
		if l := &d.t.lives[k]; d.ph[k] == phForward {
			switch l.size {
			case copySize / 2:
				halves++
			case copySize:
				fulls++
			}
		}
	}
	switch {
	case 2*halves >= copies:
		return true, true
	case 2*fulls >= copies:
		return false, true
	}
	return false, false
}

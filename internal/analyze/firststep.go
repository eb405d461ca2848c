package analyze

import (
	"fmt"
	"math"
)

// FirstStep explains an out-of-memory error in the first forward pass:
// the batch's activations did not fit next to the weights. The whole
// forward pass's activations are estimated from the part that ran: a
// network is a stack of identical blocks, which repeat in the trace (the
// parameters' sizes when the model is built, the allocation stacks when
// each block runs), so the blocks done and the blocks in the model give
// the share of the forward pass that ran.
type FirstStep struct {
	// Batch is the batch size given in Options.Batch, 0 when unknown.
	Batch int `json:"batch"`
	// FixedBytes is what does not grow with the batch: parameters,
	// buffers, workspaces, anything alive before the forward pass.
	FixedBytes int64 `json:"fixed_bytes"`
	// StateBytes is the optimizer state later steps will add, assumed
	// AdamW's (two fp32 moments: twice the parameters) — the common case;
	// stated so.
	StateBytes int64 `json:"optimizer_state_assumed_bytes"`
	// ActivationsSoFar were alive at the OOM, made by the failing forward
	// pass (its saved tensors and outputs).
	ActivationsSoFar int64 `json:"activations_so_far_bytes"`
	// Blocks is the model's repeated blocks and BlocksDone those whose
	// forward ran (0 when no repetition was found: then the estimate is
	// the activations so far, a lower bound).
	Blocks     int     `json:"blocks"`
	BlocksDone float64 `json:"blocks_done"`
	// Activations is the estimate for the whole forward pass at this
	// batch; PerSample is it over Batch (0 when Batch is unknown).
	Activations int64 `json:"forward_activations_estimate_bytes"`
	PerSample   int64 `json:"per_sample_bytes"`
	LowerBound  bool  `json:"lower_bound"`
	// UsableBytes is what the process could use (Device's capacity).
	UsableBytes int64 `json:"usable_bytes"`
	// FitShare is the share of the batch that fits: the largest batch is
	// FitShare × batch (LargestBatch when Batch is known).
	FitShare     float64 `json:"fit_share"`
	LargestBatch int     `json:"largest_batch,omitempty"`
}

// Bounds of the block search: a block allocates (or holds) at most
// maxPeriod tensors, and the last maxPeriodSeq are searched.
const (
	maxPeriod    = 2000
	maxPeriodSeq = 20000
)

// headroom is the share added to activations for what the estimate leaves
// out: the step's temporaries and the allocator's cache around them.
const headroom = 1.10

// firstStep builds the explanation when the trace dies in the forward
// pass of its first iteration; nil otherwise.
func (d *dev) firstStep(o *OOM) *FirstStep {
	at := d.oomAt
	if at < 0 || d.iterOf(at) != 1 || d.iterHasBackward(1) || d.at[at] != phForward || d.isInference() {
		return nil // generation has no batch of activations to trade for accumulation
	}
	fs := &FirstStep{Batch: d.o.Batch, UsableBytes: d.capBytes}
	if o.Cause == CauseFractionCap {
		// The cap in force, not the device: reserved memory reached it.
		fs.UsableBytes = o.Reserved
	}
	var params int64
	for _, k := range d.t.liveAt(at) {
		l := &d.t.lives[k]
		switch d.category(k) {
		case catActivations:
			fs.ActivationsSoFar += l.size
		case catParameters:
			params += l.size
			fs.FixedBytes += l.size
		default:
			if int(l.alloc) < d.starts[0] || d.ph[k] != phForward || d.isWorkspace(k) {
				fs.FixedBytes += l.size
			} else {
				fs.ActivationsSoFar += l.size
			}
		}
	}
	fs.ActivationsSoFar += o.Requested
	fs.StateBytes = 2 * params
	fs.Blocks = d.modelBlocks()
	done, per := d.blocksRun(at)
	fs.BlocksDone = done
	fs.Activations = fs.ActivationsSoFar
	if fs.Blocks > 0 && done > 0 && done < float64(fs.Blocks) {
		fs.Activations += int64((float64(fs.Blocks) - done) * float64(per))
	} else {
		fs.LowerBound = true
	}
	room := fs.UsableBytes - fs.FixedBytes - fs.StateBytes
	if fs.Activations > 0 && room > 0 {
		fs.FitShare = float64(room) / (headroom * float64(fs.Activations))
	}
	if fs.Batch > 0 {
		fs.PerSample = fs.Activations / int64(fs.Batch)
		fs.LargestBatch = int(math.Floor(fs.FitShare * float64(fs.Batch)))
	}
	return fs
}

// firstStepAdvice ranks the fixes of a first-step OOM, each with the batch
// it allows: a smaller batch (with accumulation to keep the global one),
// autocast, activation checkpointing.
func (d *dev) firstStepAdvice(out *Device) []Advice {
	o := out.OOM
	if o == nil || o.FirstStep == nil || o.FirstStep.FitShare <= 0 {
		return nil
	}
	fs := o.FirstStep
	tr := out.Traits
	batchOf := func(share float64) string {
		if fs.Batch > 0 {
			return fmt.Sprintf("batch %d", int(math.Floor(share*float64(fs.Batch))))
		}
		return fmt.Sprintf("%.0f%% of the current batch", 100*min(share, 1))
	}
	est := fmt.Sprintf("the forward pass needs about %s of activations at this batch (%s so far, %.1f of %d blocks run)",
		bytesStr(fs.Activations), bytesStr(fs.ActivationsSoFar), fs.BlocksDone, fs.Blocks)
	if fs.LowerBound {
		est = fmt.Sprintf("the forward pass needs more than the %s of activations it held when it failed "+
			"(no repeated blocks found to extrapolate from, so the fit below is an upper bound)", bytesStr(fs.ActivationsSoFar))
	}
	if fs.PerSample > 0 {
		est += fmt.Sprintf(", %s per sample", bytesStr(fs.PerSample))
	} else {
		est += " (pass --batch N for batch sizes and the cost per sample)"
	}
	base := fmt.Sprintf("; %s is fixed (weights) and an AdamW step adds %s of state (assumed); the process may use %s",
		bytesStr(fs.FixedBytes), bytesStr(fs.StateBytes), bytesStr(fs.UsableBytes))
	var adv []Advice
	if fs.FitShare < 1 {
		k := int(math.Ceil(1 / fs.FitShare))
		adv = append(adv, Advice{Action: fmt.Sprintf("lower the batch (%s fits) and accumulate gradients over %d micro-batches "+
			"to keep the global batch", batchOf(fs.FitShare), k), FixesFailure: true,
			Saving: int64((1 - fs.FitShare) * float64(fs.Activations)),
			Detail: est + base + fmt.Sprintf(" (with %.0f%% headroom for temporaries)", 100*(headroom-1))})
	}
	if !tr.AMP && tr.Precision != PrecisionHalf {
		share := fs.FitShare / ampActivationShare
		adv = append(adv, d.fitAdvice(fs, "train with automatic mixed precision (torch.autocast bf16)", share,
			ampActivationShare, batchOf, "autocast stores most saved activations at half size (estimate: half)"))
	}
	if !tr.Checkpointing {
		keep := 1 - ckptActivationShare
		share := fs.FitShare / keep
		adv = append(adv, d.fitAdvice(fs, "checkpoint each block (torch.utils.checkpoint)", share, ckptActivationShare, batchOf,
			fmt.Sprintf("checkpointing keeps block inputs only (estimate: %.0f%% of the activations; 25–130%% more step time)", 100*keep)))
	}
	return adv
}

// fitAdvice words a change that scales the activations down: whether the
// current batch then fits, else the batch that does.
func (d *dev) fitAdvice(fs *FirstStep, action string, share, saved float64, batchOf func(float64) string, why string) Advice {
	a := Advice{Action: action, Saving: int64(saved * float64(fs.Activations))}
	if share >= 1 {
		a.FixesFailure = !fs.LowerBound
		a.Detail = fmt.Sprintf("%s; the current batch then fits", why)
		if fs.Batch > 0 {
			a.Detail += fmt.Sprintf(" (up to %s)", batchOf(share))
		}
		return a
	}
	a.Detail = fmt.Sprintf("%s; alone it is not enough: up to %s fits", why, batchOf(share))
	return a
}

// modelBlocks counts the repeated blocks of the model from the sizes of
// the parameters, in the order the model was moved to the GPU: the
// longest run of one repeating pattern. 0 when nothing repeats.
func (d *dev) modelBlocks() int {
	var sizes []int64
	for k := range d.t.lives {
		l := &d.t.lives[k]
		if int(l.alloc) >= d.starts[0] {
			break
		}
		if l.free == never {
			sizes = append(sizes, l.size)
		}
	}
	p, n := period(sizes)
	if p == 0 {
		return 0
	}
	return n/p + 1
}

// blocksRun counts the blocks whose forward ran before request at, from
// the stacks of the forward's allocations (each block runs the same code,
// so its allocations repeat the same stacks), and the activations one
// block keeps.
func (d *dev) blocksRun(at int) (float64, int64) {
	a, b := d.t.lifeRange(d.starts[0], at+1)
	var seq []int64
	var ks []int
	for k := a; k < b; k++ {
		if d.ph[k] == phForward {
			seq = append(seq, int64(d.t.lives[k].stack))
			ks = append(ks, k)
		}
	}
	p, n := period(seq)
	if p == 0 {
		return 0, 0
	}
	// The repeating stretch is its last n+p allocations; what those keep
	// alive at the OOM is the blocks' activations.
	var kept int64
	for _, k := range ks[len(ks)-n-p:] {
		if l := &d.t.lives[k]; l.free == never || int(l.free) > at {
			kept += l.size
		}
	}
	done := float64(n+p) / float64(p)
	return done, int64(float64(kept) / done)
}

// period finds the pattern that repeats over the end of seq: the shift p
// with the most positions j where seq[j] == seq[j-p] (the smallest such
// p), and n, how many positions before the end match at that shift
// without a break of more than one pattern. It returns 0, 0 when fewer
// than two repeats are found.
func period(seq []int64) (p, n int) {
	// The end of a long sequence is enough, and keeps this O(n·p) search
	// to a few million comparisons.
	if len(seq) > maxPeriodSeq {
		seq = seq[len(seq)-maxPeriodSeq:]
	}
	best := 0
	for q := 2; q <= len(seq)/3 && q <= maxPeriod; q++ {
		m := 0
		for j := q; j < len(seq); j++ {
			if seq[j] == seq[j-q] {
				m++
			}
		}
		if m > best {
			best, p = m, q
		}
	}
	if p == 0 || best < 2*p {
		return 0, 0
	}
	// The matching stretch at the end (gaps shorter than p allowed: a
	// block may allocate a little differently).
	gap := 0
	for j := len(seq) - 1; j >= p; j-- {
		if seq[j] == seq[j-p] {
			n += 1 + gap
			gap = 0
			continue
		}
		gap++
		if gap > p {
			break
		}
	}
	if n < 2*p {
		return 0, 0
	}
	return p, n
}

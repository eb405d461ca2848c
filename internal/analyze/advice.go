package analyze

import (
	"fmt"
	"slices"
	"sort"

	"github.com/vramkit/vramkit/internal/units"
)

func bytesStr(n int64) string { return units.Bytes(n) }

// Savings rules of thumb. They come from the H200 fixtures' families
// (fixtures/README.md) and are quoted as estimates:
const (
	// ampActivationShare: autocast stores most saved activations at half
	// size; measured peak cuts were 14–48%, so credit half the activations.
	ampActivationShare = 0.5
	// ckptActivationShare: per-block checkpointing kept a quarter to a
	// half of activations (peak cuts of 53–74%).
	ckptActivationShare = 0.65
	// eightBitStateShare: 8-bit Adam stores 2 bytes per parameter instead
	// of 8.
	eightBitStateShare = 0.75
	// zeroWorld is the data-parallel width quoted for ZeRO/FSDP.
	zeroWorld = 8
)

// advise lists the changes that apply to this trace, biggest saving
// first. Nothing already in use is suggested.
func (d *dev) advise(out *Device) []Advice {
	adv := []Advice{}
	c := out.Categories
	peak := out.PeakAllocated
	tr := out.Traits
	if peak <= 0 {
		return adv
	}
	for _, l := range out.Leaks {
		where := "the site below"
		// The frames are collapsed: the allocating call, then user code.
		// Name user code, which the allocating call is when it is not a
		// library's.
		user := l.Frames
		if len(user) > 0 && isLibrary(user[0].Filename) {
			user = user[1:]
		}
		if len(user) > 0 {
			where = ""
			for i, f := range user[:min(len(user), 2)] {
				if i > 0 {
					where += ", called from "
				}
				where += fmt.Sprintf("%s:%d (%s)", f.Filename, f.Line, f.Name)
			}
		}
		adv = append(adv, Advice{Action: "fix the leak: stop keeping these tensors across iterations",
			Saving: l.BytesPerIteration * int64(l.Iterations-1),
			Detail: fmt.Sprintf("%s per iteration survive every step, allocated at %s; keep .detach().cpu() copies or "+
				".item() values instead of the tensors (they also pin autograd graphs)", bytesStr(l.BytesPerIteration), where)})
	}
	if o := out.OOM; o != nil && o.Cause == CauseFractionCap {
		adv = append(adv, Advice{Action: "raise or remove torch.cuda.set_per_process_memory_fraction",
			Saving: o.DeviceFree, FixesFailure: true,
			Detail: fmt.Sprintf("this is what stopped the run: the process hit its cap at %s reserved while the GPU "+
				"still had %s free, which raising the cap makes available", bytesStr(o.Reserved), bytesStr(o.DeviceFree))})
	}
	first := d.firstStepAdvice(out)
	adv = append(adv, first...)
	act := c.Activations
	// A run that died in its first forward may be training we did not
	// see: advise as for training, since that is what the activations
	// would be kept for.
	train := tr.MayTrain()
	var acts []int
	if (train && act*10 >= peak*3 && len(first) == 0) || (!train && !tr.Inference && act > 0) {
		acts = d.activationLives()
	}
	if train && act*10 >= peak*3 && len(first) == 0 {
		if !tr.AMP && tr.Precision != PrecisionHalf {
			s, bound := d.activationSaving(acts, act, peak, ampActivationShare)
			if s > 0 {
				adv = append(adv, Advice{Action: "train with automatic mixed precision (torch.autocast bf16)", Saving: s,
					Detail: fmt.Sprintf("activations are %s (%.0f%% of the peak) and stored in fp32; autocast keeps most of them "+
						"at half size (estimate: half the activations, ±50%%)%s", bytesStr(act), pct(act, peak), bound)})
			}
		}
		if s, bound := d.activationSaving(acts, act, peak, ckptActivationShare); !tr.Checkpointing && s > 0 {
			det := fmt.Sprintf("activations are %s (%.0f%% of the peak); checkpointing each block keeps only block "+
				"inputs and recomputes the rest in backward (estimate ±30%%; costs 25–130%% more step time)%s", bytesStr(act),
				pct(act, peak), bound)
			if !d.frames {
				det += "; this trace has no frames, so vramkit cannot tell whether checkpointing is already on"
			}
			if slices.Contains(tr.Sharding, "fsdp2") {
				det += "; with FSDP2, wrap each block (checkpoint_wrapper) before fully_shard, or call a Hugging Face " +
					"model's gradient_checkpointing_enable()"
			}
			adv = append(adv, Advice{Action: "checkpoint the heaviest blocks (torch.utils.checkpoint)", Saving: s, Detail: det})
		}
	}
	state := c.Parameters + c.Gradients + c.OptimizerState
	if tr.IsTraining() && state*2 >= peak {
		if c.OptimizerState >= c.Parameters*3/2 {
			adv = append(adv, Advice{Action: "use an 8-bit or factored optimizer (bitsandbytes AdamW8bit, Adafactor)",
				Saving: int64(eightBitStateShare * float64(c.OptimizerState)),
				Detail: fmt.Sprintf("optimizer state is %s, %.1f× the parameters (Adam keeps two fp32 moments)",
					bytesStr(c.OptimizerState), float64(c.OptimizerState)/float64(max(c.Parameters, 1)))})
		}
		shard := c.OptimizerState + c.Gradients
		action := "if you train on several GPUs, shard optimizer state and gradients (FSDP / ZeRO-2)"
		switch {
		case slices.Contains(tr.Sharding, "fsdp2"):
			shard = 0 // already sharded
		case slices.Contains(tr.Sharding, "zero-1"):
			shard, action = c.Gradients, "shard the gradients too (FSDP2 fully_shard, or ZeRO-2): ZeroRedundancyOptimizer shards only the optimizer state"
		case slices.Contains(tr.Sharding, "ddp"):
			action = "replace DDP with FSDP2 (fully_shard) to shard optimizer state and gradients across the ranks"
		}
		if shard > 0 {
			adv = append(adv, Advice{Action: action,
				Saving: shard * (zeroWorld - 1) / zeroWorld,
				Detail: fmt.Sprintf("parameters, gradients and optimizer state are %s (%.0f%% of the peak); with N GPUs each keeps 1/N "+
					"of gradients and optimizer state (saving shown for N = %d, assumed; vramkit plan --parallel fsdp --gpus N "+
					"predicts your case)", bytesStr(state), pct(state, peak), zeroWorld)})
		}
	}
	adv = append(adv, d.shardedAdvice(out)...)
	adv = append(adv, d.llmAdvice(out, d.steady)...)
	if f := out.Fragmentation; f.TuneSaving > 0 {
		adv = append(adv, Advice{Action: "set PYTORCH_CUDA_ALLOC_CONF=" + f.TuneConf, Saving: f.TuneSaving,
			Detail: fmt.Sprintf("peak reserved is %s above peak allocated; %s%s (the same requests through the allocator's own algorithm)",
				bytesStr(out.PeakReserved-out.PeakAllocated), withSemicolon(TuneRoundingNote(out)), tuneSearched(f))})
	}
	adv = append(adv, d.generationAdvice(out)...)
	if !train && !tr.Inference && out.Iterations > 0 && act*2 >= peak-c.Parameters && act > 0 {
		if s, bound := d.activationSaving(acts, act, peak, 1); s > 0 {
			adv = append(adv, Advice{Action: "run evaluation under torch.no_grad() or torch.inference_mode()",
				Saving: s, Detail: fmt.Sprintf("the forward passes keep %s of tensors saved for a backward pass that never "+
					"runs, freed only when the outputs are dropped%s", bytesStr(act), bound)})
		}
	}
	sort.SliceStable(adv, func(i, j int) bool {
		if adv[i].FixesFailure != adv[j].FixesFailure {
			return adv[i].FixesFailure
		}
		return adv[i].Saving > adv[j].Saving
	})
	return adv
}

// TuneRoundingNote explains a tune saving larger than peak reserved minus
// peak allocated, which the cache alone cannot give: the setting also
// allocates less block rounding (expandable segments split blocks down to
// 512 B remainders), so its peak allocated is lower too. Empty otherwise.
func TuneRoundingNote(d *Device) string {
	f := d.Fragmentation
	if f.TuneSaving <= d.PeakReserved-d.PeakAllocated || f.TunePeakAllocated <= 0 || f.TunePeakAllocated >= d.PeakAllocated {
		return ""
	}
	return fmt.Sprintf("it saves more than the cache's cost because it also rounds blocks less: peak allocated "+
		"drops to %s from %s", bytesStr(f.TunePeakAllocated), bytesStr(d.PeakAllocated))
}

// withSemicolon ends a non-empty clause with "; " to join it to the next.
func withSemicolon(s string) string {
	if s == "" {
		return ""
	}
	return s + "; "
}

func pct(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// boundSlack is how far below a rule-of-thumb saving the replayed bound
// must fall before it replaces it: the estimates are quoted at ±30%, so a
// few percent is the same figure.
const boundSlack = 0.1

// activationLives lists every allocation of the trace whose category is
// activations: what checkpointing, autocast or no_grad would shrink.
func (d *dev) activationLives() []int {
	var out []int
	for k := range d.t.lives {
		if d.category(k) == catActivations {
			out = append(out, k)
		}
	}
	return out
}

// peakCut is peak allocated had every life in ks been smaller by share
// of its block, and the request where that lower peak falls. With share 1
// it is peakWithout. A change that shrinks activations lowers the peak
// only while they set it: once they are cut, another moment (an optimizer
// step, the first iteration, the model load) can be the highest.
func (d *dev) peakCut(ks []int, share float64) (int64, int) {
	delta := make([]int64, len(d.t.level)+1)
	for _, k := range ks {
		l := &d.t.lives[k]
		c := int64(share * float64(l.block))
		delta[l.alloc] += c
		if l.free != never {
			delta[l.free] -= c
		}
	}
	var cur, best int64
	at := 0
	for i, lv := range d.t.level {
		cur += delta[i]
		if lv-cur > best {
			best, at = lv-cur, i
		}
	}
	return best, at
}

// activationSaving bounds a rule-of-thumb saving, share of the
// activations act, by what the trace allows: the peak less peakCut of the
// activation lives by the same share. It returns the saving and, when the
// bound is what limits it, a clause for the advice saying which moment
// then sets the peak. Within boundSlack of the rule of thumb the two are
// the same estimate (act is taken at the steady-state peak, the cut over
// blocks), and the rule of thumb stands.
func (d *dev) activationSaving(acts []int, act, peak int64, share float64) (int64, string) {
	est := int64(share * float64(act))
	cut, at := d.peakCut(acts, share)
	if float64(peak-cut) >= (1-boundSlack)*float64(est) {
		return est, ""
	}
	m := d.moment(at)
	where := "before the first iteration"
	if m.Iteration > 0 {
		where = fmt.Sprintf("at iteration %d (%s)", m.Iteration, m.Phase)
	}
	return max(peak-cut, 0), fmt.Sprintf("; only %s of that lowers the peak: with the activations cut by %.0f%% "+
		"throughout the trace, the memory %s, %s, becomes the peak (the same trace replayed)",
		bytesStr(max(peak-cut, 0)), 100*share, where, bytesStr(cut))
}

// tuneSearched says which allocator settings the fragmentation section
// replayed: tune's grid, or on a long trace only the one recommended.
func tuneSearched(f Fragmentation) string {
	if f.TuneSettings == 1 {
		return "the trace replayed under this setting, the only one tried on a trace this long (vramkit tune tries the " +
			"whole grid), reserves that much less"
	}
	return fmt.Sprintf("vramkit tune replayed this trace under %d allocator settings and this one reserves least", f.TuneSettings)
}

package analyze

import (
	"strings"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// phase is the part of a training step an allocation belongs to.
type phase uint8

const (
	phUnknown  phase = iota // no frames, or frames that say nothing
	phSetup                 // .to()/cuda(), model construction, data: user code outside the model
	phForward               // inside a module's forward
	phBackward              // the autograd engine (no Python frames in its thread)
	phOptim                 // an optimizer step or a GradScaler call
	phSample                // generate's own code between forward passes: logits processing, sampling, the cache's bookkeeping
)

// Phase names as reports print them.
func (p phase) String() string {
	return [...]string{"unknown", "setup", "forward", "backward", "optimizer step", "sampling"}[p]
}

// frameFacts are what one interned stack says.
type frameFacts struct {
	phase      phase
	checkpoint bool // inside torch.utils.checkpoint
	scaler     bool // inside torch.amp GradScaler (fp16 AMP)
	toDevice   bool // Module.to()/cuda()/Tensor.to
	lib        libFacts
}

// classifyStack labels a stack (innermost frame first). Library paths are
// matched by their tail so any install prefix works.
func classifyStack(fr []snapshot.Frame) frameFacts {
	var f frameFacts
	if len(fr) == 0 {
		return f
	}
	f.lib = classifyLibrary(fr)
	var optim, fwd, bwd bool
	for _, x := range fr {
		fn := x.Filename
		switch {
		case strings.Contains(fn, "torch/optim/"):
			optim = true
		case strings.Contains(fn, "torch/amp/grad_scaler") || strings.Contains(fn, "cuda/amp/grad_scaler"):
			f.scaler = true
			// scaler.scale(loss) runs in every accumulation micro-step;
			// only unscaling, stepping and updating belong to the
			// optimizer step, which marks an iteration.
			switch x.Name {
			case "step", "unscale_", "_unscale_grads_", "update", "_maybe_opt_step":
				optim = true
			}
		case strings.Contains(fn, "torch/utils/checkpoint"):
			f.checkpoint = true
			// Recomputation runs inside backward, from the unpack hook.
			if x.Name == "recompute_fn" || x.Name == "unpack_hook" {
				bwd = true
			}
		case strings.Contains(fn, "torch/autograd/") && (x.Name == "backward" || x.Name == "grad" || x.Name == "_engine_run_backward"):
			bwd = true
		case strings.Contains(fn, "torch/_tensor.py") && x.Name == "backward":
			bwd = true
		case strings.Contains(fn, "torch/_functorch/_aot_autograd/") && (x.Name == "_backward_impl" || x.Name == "backward"):
			// torch.compile's backward: AOTAutograd runs the compiled
			// backward graph from the autograd engine's thread
			bwd = true
		case strings.Contains(fn, "torch/nn/modules/module.py"):
			switch x.Name {
			case "_call_impl", "_wrapped_call_impl":
				fwd = true
			case "to", "cuda", "_apply", "convert":
				f.toDevice = true
			}
		}
		// C++ frames (stacks="all"): the autograd engine's worker.
		if strings.Contains(x.Name, "autograd::Engine") || strings.Contains(x.Name, "evaluate_function") {
			bwd = true
		}
	}
	// The autograd engine calling a Python autograd.Function's backward:
	// its thread's outermost Python frame is Function.apply (a forward
	// call of it has the caller's frames outside)
	if o := outermostPython(fr); o != nil && strings.HasSuffix(o.Filename, "torch/autograd/function.py") && o.Name == "apply" {
		bwd = true
	}
	switch {
	case optim:
		f.phase = phOptim
	case bwd:
		f.phase = phBackward
	case fwd:
		f.phase = phForward
	case f.lib.generate:
		f.phase = phSample
	default:
		f.phase = phSetup
	}
	return f
}

// outermostPython is the outermost frame of a Python file in fr (innermost
// first), nil when there is none.
func outermostPython(fr []snapshot.Frame) *snapshot.Frame {
	for i := len(fr) - 1; i >= 0; i-- {
		if strings.HasSuffix(fr[i].Filename, ".py") {
			return &fr[i]
		}
	}
	return nil
}

// iterationsFromFrames finds the training iterations from frames. Each
// forward pass that follows a non-forward stretch is a candidate. In a
// trace with no backward pass (evaluation) every candidate is an
// iteration. Otherwise a candidate starts a new iteration when an
// optimizer step allocated since the previous one, or when gradients —
// made by backward since the iteration began — are all freed
// (zero_grad, for an optimizer that allocates nothing, such as plain SGD).
// Gradient-accumulation micro-steps keep their gradients and so stay
// inside their iteration. It returns the request index where each
// iteration starts, plus len(reqs) at the end; nil when no forward pass
// was found.
func iterationsFromFrames(t *timeline, ph []phase) []int {
	params := persistentPrefix(t, ph)
	hasBackward := false
	for _, p := range ph {
		if p == phBackward {
			hasBackward = true
			break
		}
	}
	var starts []int
	prev := phUnknown
	sawOptim := false
	startK := 0 // life index where the current iteration started
	for k := range t.lives {
		p := ph[k]
		switch p {
		case phForward:
			if prev != phForward {
				a := int(t.lives[k].alloc)
				if len(starts) == 0 || !hasBackward || sawOptim || gradientsFreed(t, ph, startK, k, params) {
					starts = append(starts, a)
					startK = k
				}
				sawOptim = false
			}
		case phOptim:
			sawOptim = true
		}
		if p != phUnknown {
			prev = p
		}
	}
	if len(starts) == 0 {
		return nil
	}
	return append(starts, len(t.reqs))
}

// gradientsFreed reports whether the gradients made since life from are
// all but freed (under a tenth of the parameter bytes alive) when life to
// is allocated: zero_grad(set_to_none=True) released them, which
// accumulation micro-steps do not. Gradients are the backward allocations
// of exactly a parameter's size; other long-lived backward allocations
// (cuBLAS workspaces) are not evidence either way.
func gradientsFreed(t *timeline, ph []phase, from, to int, params *paramSet) bool {
	end := t.lives[to].alloc
	var alive int64
	for k := from; k < to; k++ {
		if l := &t.lives[k]; ph[k] == phBackward && l.free > end && params.sizes[l.size] {
			alive += l.block
		}
	}
	return 10*alive <= params.bytes
}

// paramSet is what the persistent prefix of the trace holds: the
// allocations made before the first forward pass and never freed.
type paramSet struct {
	sizes map[int64]bool
	bytes int64
}

func persistentPrefix(t *timeline, ph []phase) *paramSet {
	p := &paramSet{sizes: map[int64]bool{}}
	for k := range t.lives {
		if ph[k] == phForward {
			break
		}
		if l := &t.lives[k]; l.free == never {
			p.sizes[l.size] = true
			p.bytes += l.block
		}
	}
	return p
}

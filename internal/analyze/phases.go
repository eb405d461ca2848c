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
)

// Phase names as reports print them.
func (p phase) String() string {
	return [...]string{"unknown", "setup", "forward", "backward", "optimizer step"}[p]
}

// frameFacts are what one interned stack says.
type frameFacts struct {
	phase      phase
	checkpoint bool // inside torch.utils.checkpoint
	scaler     bool // inside torch.amp GradScaler (fp16 AMP)
	toDevice   bool // Module.to()/cuda()/Tensor.to
}

// classifyStack labels a stack (innermost frame first). Library paths are
// matched by their tail so any install prefix works.
func classifyStack(fr []snapshot.Frame) frameFacts {
	var f frameFacts
	if len(fr) == 0 {
		return f
	}
	var optim, fwd, bwd bool
	for _, x := range fr {
		fn := x.Filename
		switch {
		case strings.Contains(fn, "torch/optim/"):
			optim = true
		case strings.Contains(fn, "torch/amp/grad_scaler") || strings.Contains(fn, "cuda/amp/grad_scaler"):
			optim, f.scaler = true, true
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
	switch {
	case optim:
		f.phase = phOptim
	case bwd:
		f.phase = phBackward
	case fwd:
		f.phase = phForward
	default:
		f.phase = phSetup
	}
	return f
}

// iterations finds the training iterations from frames: one iteration per
// optimizer step (so gradient-accumulation micro-steps do not count), or,
// when the trace has no optimizer step (evaluation), one per run of
// forward allocations. It returns the request index where each iteration
// starts, plus a final end marker; nil when frames do not show a
// repeating step.
func iterationsFromFrames(t *timeline, ph []phase) []int {
	var starts []int
	hasOptim := false
	for k := range t.lives {
		if ph[k] == phOptim {
			hasOptim = true
			break
		}
	}
	prev := phUnknown
	sawOptim := false
	for k := range t.lives {
		p := ph[k]
		switch p {
		case phForward:
			if hasOptim {
				if len(starts) == 0 || sawOptim {
					starts = append(starts, int(t.lives[k].alloc))
					sawOptim = false
				}
			} else if prev != phForward && prev != phBackward {
				starts = append(starts, int(t.lives[k].alloc))
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
	if hasOptim && !sawOptim && len(starts) > 1 {
		// The last forward never reached a step (the trace ended or the
		// run died): count it only if it holds a whole backward.
		last := starts[len(starts)-1]
		if !hasBackwardAfter(t, ph, last) {
			starts = starts[:len(starts)-1]
		}
	}
	return append(starts, len(t.reqs))
}

func hasBackwardAfter(t *timeline, ph []phase, from int) bool {
	for k := len(t.lives) - 1; k >= 0 && int(t.lives[k].alloc) >= from; k-- {
		if ph[k] == phBackward || ph[k] == phUnknown {
			return true
		}
	}
	return false
}

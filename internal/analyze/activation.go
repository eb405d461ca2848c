package analyze

import "fmt"

// pythonActivationAdvice names the intermediates of an MLP activation
// written as Python operators: transformers' NewGELUActivation (hidden_act
// "gelu_new", GPT-2, Phi, GPT-J), FastGELUActivation ("gelu_fast") and
// GELUActivation's Python path ("gelu_python") run one kernel per
// operator, and autograd keeps several of their MLP-wide results for
// backward (0.5·x, the tanh, 1 + tanh: dev77's phi-2 LoRA trace, 8.5 of
// its 16.5 GiB of activations). "gelu_pytorch_tanh" (F.gelu with
// approximate="tanh", the same approximation) and "gelu" are one kernel
// that saves only its input. Only in training: in inference the
// intermediates die as they are made.
func (d *dev) pythonActivationAdvice(out *Device) []Advice {
	drop, calls, per := d.pythonActivationLives()
	if calls == 0 {
		return nil
	}
	s := out.PeakAllocated - d.peakWithout(drop)
	if s*50 < out.PeakAllocated {
		return nil
	}
	return []Advice{{
		Action: `compute the MLP's activation in one kernel: config.hidden_act = "gelu_pytorch_tanh" in place of "gelu_new" or "gelu_fast" (the same tanh approximation), "gelu" in place of "gelu_python", set before the model is built`,
		Saving: s,
		Detail: fmt.Sprintf("%d calls of an activation written as Python operators (transformers' activations.py) allocate up to "+
			"%d tensors of the MLP's width, several of which autograd keeps for backward; a fused kernel allocates its "+
			"output and saves only its input: without the intermediates the peak is %s lower (the trace replayed without "+
			"them; numerically the fused tanh GELU matches to rounding)", calls, per, bytesStr(s)),
	}}
}

// pythonActivationLives finds, in alloc order, the runs of three or more
// allocations of 1 MiB or more made directly by transformers'
// activations.py with nothing else that large allocated between them: one
// call of an activation written as Python operators (a fused one makes
// one; under autocast NewGELU's pow and what follows it are float32, its
// 0.5·x half precision, so sizes differ within a call). The call's first
// tensor (NewGELU's 0.5·x, which its last product saves) stands for the
// input a fused kernel saves instead, of the same size and lifetime, and
// its last is the output both make: the rest are dropped. dev80 measured
// the switch: GPT-2 s1024 b8 bf16 3.35 GiB lower, phi-1.5 s1024 b4 bf16
// 9.00 GiB; dropping the first too claimed 3.94 and 10.5. It returns
// every tensor of the runs but each run's first and last, the number of
// runs and the allocations of the longest.
func (d *dev) pythonActivationLives() (drop []int, calls, per int) {
	var run []int
	flush := func() {
		if len(run) >= 3 {
			drop = append(drop, run[1:len(run)-1]...)
			calls++
			per = max(per, len(run))
		}
		run = run[:0]
	}
	for k := range d.t.lives {
		l := &d.t.lives[k]
		if l.size < 1<<20 {
			continue
		}
		if d.facts[l.stack].lib.role != roleActivation {
			flush()
			continue
		}
		run = append(run, k)
	}
	flush()
	return drop, calls, per
}

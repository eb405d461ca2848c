package rules

import (
	"strings"

	"github.com/vramkit/vramkit/internal/lint"
)

// ZeroGradNotNone is M5 (TorchFix TOR402, the profiler's
// GradNotSetToNonePattern).
var ZeroGradNotNone = &lint.Rule{
	Code: "VK005", Name: "zero-grad-set-to-none-false", Severity: lint.Warning, Fixable: true,
	Summary: "zero_grad(set_to_none=False) keeps every gradient tensor allocated between steps",
	Doc: `Flags .zero_grad(set_to_none=False) (or zero_grad(False)) on an optimizer or a
module.

Memory: with set_to_none=False every .grad tensor stays allocated and is
overwritten with zeros by a memset kernel each step; with the default (True
since PyTorch 2.0) the gradients are freed after the optimizer step and
re-created by the next backward, so the memory is free for activations during
the forward pass, and backward writes instead of accumulating (tuning guide).

Fix (--fix): drop the argument; zero_grad() sets the gradients to None.

Not flagged: files that update .grad in place (p.grad += g, p.grad /= n,
p.grad.add_(g), p.grad.data.copy_(g)), as parameter servers and manual
gradient averaging do. They need the zeroed tensors set_to_none=False keeps:
with the default, .grad is None there and the program fails.
Code that reads p.grad after zero_grad() must then handle None.

Blind spots: the flag passed through a variable (zero_grad(set_to_none=flag)),
and manual loops that do p.grad.zero_().`,
	Run: runZeroGrad,
}

func runZeroGrad(p *lint.Pass) {
	f := p.File
	if inPlaceGrad(f) != nil {
		// The program adds into .grad in place (p.grad += g): it needs the
		// zeroed tensors that set_to_none=False keeps, and with the default
		// .grad would be None there.
		return
	}
	for _, call := range f.Nodes("call") {
		name, _ := f.Method(call)
		if name != "zero_grad" {
			continue
		}
		pos, kw, _ := f.Args(call)
		arg := kw["set_to_none"]
		if len(pos) == 1 && arg == nil {
			arg = pos[0]
		}
		if !f.IsFalse(arg) {
			continue
		}
		if arg.Field == "value" {
			arg = arg.Parent // the whole keyword_argument
		}
		var edits []lint.Edit
		if e, ok := removeArg(f, call, arg); ok {
			edits = append(edits, e)
		}
		p.Report(call, "zero_grad(set_to_none=False) keeps every .grad tensor allocated between steps and zeroes it with an extra kernel; the default frees them after each step",
			"call zero_grad() (set_to_none=True is the default since PyTorch 2.0)", edits...)
	}
}

// inPlaceGrad returns the first statement that updates a .grad tensor in
// place — p.grad += g, p.grad /= n, p.grad.add_(g), p.grad.data.copy_(g) —
// or nil. Such code needs .grad to be a tensor after zero_grad().
func inPlaceGrad(f *lint.File) *lint.Node {
	for _, a := range f.Nodes("attribute") {
		if !f.TextIs(a.Child("attribute"), "grad") {
			continue
		}
		n := a
		if par := n.Parent; par.Is("attribute") && f.TextIs(par.Child("attribute"), "data") && n.Field == "object" {
			n = par
		}
		par := n.Parent
		switch {
		case par.Is("augmented_assignment") && n.Field == "left":
			return par
		case par.Is("attribute") && n.Field == "object":
			m := f.Text(par.Child("attribute"))
			if strings.HasSuffix(m, "_") && !strings.HasPrefix(m, "_") && par.Parent.Is("call") {
				return par.Parent
			}
		}
	}
	return nil
}

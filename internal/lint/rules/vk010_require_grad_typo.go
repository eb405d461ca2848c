package rules

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/lint"
)

// RequireGradTypo is M10 (TorchFix TOR002).
var RequireGradTypo = &lint.Rule{
	Code: "VK010", Name: "require-grad-typo", Severity: lint.Error,
	Summary: "x.require_grad = ... is a typo of requires_grad: nothing is frozen, so gradients and optimizer state are still allocated",
	Doc: `Flags assignments to an attribute named require_grad (or requires_grads).

Memory: Python happily creates a new attribute that autograd never reads. The
parameters meant to be frozen keep requires_grad=True: backward computes and
stores their gradients, the optimizer keeps state for them (two extra copies
with Adam), and activations needed only for their gradients are saved. A
frozen-backbone fine-tune then needs as much memory as full training.

Fix: p.requires_grad = False, or module.requires_grad_(False). There is no
--fix because the rewrite changes what trains.

Blind spots: setattr(p, "require_grad", ...), and the related mistake of
setting module.requires_grad = False on an nn.Module (an attribute the module
ignores; use requires_grad_(False)), which cannot be told from a tensor here.`,
	Run: runRequireGrad,
}

func runRequireGrad(p *lint.Pass) {
	f := p.File
	for _, a := range f.Nodes("assignment") {
		for _, t := range append([]*lint.Node{a.Child("left")}, a.Child("left").NamedChildren()...) {
			if t == nil || t.Kind != "attribute" {
				continue
			}
			attr := f.Text(t.Child("attribute"))
			if attr != "require_grad" && attr != "requires_grads" {
				continue
			}
			obj := f.Text(t.Child("object"))
			p.Report(t, fmt.Sprintf("%s.%s is not an autograd attribute (typo of requires_grad): %s is not frozen, so its gradients and optimizer state are still allocated", obj, attr, obj),
				fmt.Sprintf("write %s.requires_grad = ... (or call .requires_grad_(False) on a module)", obj))
		}
	}
}

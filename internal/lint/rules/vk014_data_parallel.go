package rules

import (
	"strings"

	"github.com/vramkit/vramkit/internal/lint"
)

// DataParallel is M14.
var DataParallel = &lint.Rule{
	Code: "VK014", Name: "data-parallel", Severity: lint.Info, Hint: true,
	// Policy (bench/lint, findings since fixed included): in a file that
	// trains, right 19/27 times (DDIM/NCSNv2 wrap models for sampling in
	// files that also train); in one that does not (metric and inference
	// networks, or a model trained elsewhere) 16/24. Both below the 85%
	// the default output needs, so both are hints.
	Patterns: map[string]lint.Level{"trained": {Severity: lint.Info, Hint: true}, "unknown": {Severity: lint.Info, Hint: true}},
	Summary:  "nn.DataParallel gathers outputs and keeps optimizer state on the first GPU, which runs out of memory first",
	Doc: `A hint (opt-in: --hints, or --select VK014). Flags calls of
torch.nn.DataParallel (and torch.nn.parallel.DataParallel). On real code
about one finding in four was debatable (networks wrapped for sampling or
evaluation only), so it is not in the default output.

Memory: DataParallel replicates the model from cuda:0 on every step, scatters
the batch, and gathers all outputs back onto cuda:0, where the loss, the
gradients' reduction and the optimizer state also live. The first GPU needs
noticeably more memory than the others, so the usable batch size is set by
it; the single process is also slower than one process per GPU (CUDA best
practices recommend DistributedDataParallel).

Fix: DistributedDataParallel launched with torchrun (one process per GPU,
balanced memory). There is no automatic rewrite.

Not flagged: networks wrapped for inference (nn.DataParallel(net).eval(),
nn.DataParallel(Net().eval()), or g = nn.DataParallel(g) followed by
g.eval() in the same function, when the file never calls g.train() or
g.parameters() — for a local name, when that function does not: the same
name in another function is another variable): without gradients and optimizer state the
imbalance is only the gathered outputs. (Whether a file trains says
little: models are often wrapped in one file and trained in another.)

Blind spots: DataParallel reached through a wrapper or a variable
(Wrapper = nn.DataParallel) is not flagged.`,
	Run: runDataParallel,
}

func runDataParallel(p *lint.Pass) {
	f := p.File
	for _, call := range f.Nodes("call") {
		if _, ok := f.CallTo(call, "torch.nn.DataParallel", "torch.nn.parallel.DataParallel", "torch.nn.parallel.data_parallel.DataParallel"); ok {
			if evalOnly(f, call) {
				continue
			}
			p.ReportPattern(dpKind(f), call, "nn.DataParallel gathers every step's outputs, the loss and the optimizer state on the first GPU, so that GPU runs out of memory first and limits the batch size",
				"use DistributedDataParallel (one process per GPU, launched with torchrun)")
		}
	}
}

// evalOnly reports whether a DataParallel(...) call wraps a network used
// for inference: nn.DataParallel(net).eval(...) or
// nn.DataParallel(Net(...).eval()), as metric networks (Inception for FID)
// are wrapped.
func evalOnly(f *lint.File, call *lint.Node) bool {
	for n := call; n.Parent != nil; {
		par := n.Parent
		if par.Is("attribute") && n.Field == "object" && par.Parent.Is("call") {
			if f.TextIs(par.Child("attribute"), "eval") {
				return true
			}
			n = par.Parent
			continue
		}
		break
	}
	pos, _, _ := f.Args(call)
	if len(pos) > 0 {
		if a := lint.Unparen(pos[0]); a.Is("call") {
			if m, _ := f.Method(a); m == "eval" {
				return true
			}
		}
	}
	return evalAfter(f, call)
}

// evalAfter reports whether the name a DataParallel(...) call is assigned
// to (g = nn.DataParallel(g).to(device)) is put in eval mode later in the
// same scope and the file never trains it: no g.train() and no optimizer
// over g.parameters().
func evalAfter(f *lint.File, call *lint.Node) bool {
	n := call
	for n.Parent.Is("attribute") && n.Field == "object" && n.Parent.Parent.Is("call") {
		n = n.Parent.Parent // .to(device), .cuda()
	}
	if !n.Parent.Is("assignment") || n.Field != "right" || !n.Parent.Child("left").Is("identifier", "attribute") {
		return false
	}
	name, scope := f.Text(n.Parent.Child("left")), lint.Scope(call)
	// A local name (model = nn.DataParallel(model) in sample()) is another
	// variable in every other function: only its own function says
	// whether it is trained. An attribute (self.model) is shared.
	local := n.Parent.Child("left").Is("identifier") && scope.Is("function_definition")
	evaluated := false
	for _, c := range f.Nodes("call") {
		m, r := f.Method(c)
		if r == nil || !f.TextIs(r, name) || local && lint.Scope(c) != scope {
			continue
		}
		switch m {
		case "train", "parameters", "named_parameters":
			return false
		case "eval":
			evaluated = evaluated || c.Start > call.End && lint.Scope(c) == scope
		}
	}
	return evaluated
}

// dpKind names what the file shows of a DataParallel-wrapped network:
// "trained" when the file trains (an optimizer step or a backward pass),
// where the optimizer state and gradients pile onto the first GPU;
// "unknown" when nothing in the file trains (an inference or metric
// network, or one trained elsewhere), where only the gathered outputs do.
func dpKind(f *lint.File) string {
	for _, c := range f.Nodes("call") {
		if _, ok := f.BackwardOf(c); ok {
			return "trained"
		}
		if m, r := f.Method(c); m == "step" && r != nil && strings.Contains(strings.ToLower(f.Text(r)), "optim") {
			return "trained"
		}
	}
	return "unknown"
}

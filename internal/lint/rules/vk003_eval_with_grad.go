package rules

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/lint"
)

// EvalWithGrad is M3: evaluation that still records autograd graphs.
var EvalWithGrad = &lint.Rule{
	Code: "VK003", Name: "eval-without-no-grad", Severity: lint.Warning,
	Summary: "a forward pass after model.eval() runs with autograd on and keeps activations for a backward that never comes",
	Doc: `Flags the first forward call model(...) that follows model.eval() in the same
function (or module), when it is not inside with torch.no_grad() /
torch.inference_mode() / torch.set_grad_enabled(False), the function is not
decorated with one of them, and nothing in between switches back with
model.train().

Memory: eval() only changes dropout and batch-norm behaviour; it does not turn
off autograd. Every activation a backward pass would need is saved, so an
evaluation step costs about as much memory as a training step, and a loop that
keeps outputs keeps their graphs (tuning guide: "use torch.no_grad() for
validation or inference").

Fix: wrap the evaluation in with torch.inference_mode(): (or
torch.no_grad()), or decorate the function with @torch.no_grad().

Functions that also call .backward() are skipped (eval() is then used to
freeze batch norm or dropout while fine-tuning).

Blind spots: a caller that wraps the whole evaluation in no_grad is not seen,
so such a function may be flagged when called only from there — suppress it
with "# vramkit: ignore[VK003]"; forward calls through another name or a
helper (predict(model, x)), model.generate() and pipelines are not checked.`,
	Run: runEvalWithGrad,
}

func runEvalWithGrad(p *lint.Pass) {
	f := p.File
	done := map[*lint.Node]bool{}
	for _, call := range f.Nodes("call") {
		name, recv := f.Method(call)
		pos, kw, _ := f.Args(call)
		if name != "eval" || len(pos)+len(kw) > 0 || !recv.Is("identifier", "attribute") {
			continue
		}
		if st := call.Parent; !st.Is("expression_statement") && !(st.Is("assignment") && f.Text(st.Child("left")) == f.Text(recv)) {
			continue
		}
		scope := lint.Scope(call)
		if done[scope] || scope.Kind == "lambda" {
			continue
		}
		model := f.Text(recv)
		var fwd *lint.Node
		skip := false
		for _, c := range lint.Calls(scope) {
			m, r := f.Method(c)
			switch {
			case m == "backward" || m == "manual_backward":
				skip = true
			case c.Start < call.End:
			case m == "train" && f.TextIs(r, model):
				if fwd == nil {
					skip = true // back to training before any forward
				}
			case fwd == nil && f.TextIs(c.Child("function"), model) && !f.GradDisabled(c):
				fwd = c
			}
		}
		if skip || fwd == nil {
			continue
		}
		done[scope] = true
		line := f.Pos(call.Start).Line
		p.Report(fwd, fmt.Sprintf("%s(...) runs with autograd on after %s.eval() (line %d): eval() does not disable gradients, so activations are saved for a backward pass that never comes", model, model, line),
			"wrap the evaluation in `with torch.inference_mode():` or decorate the function with @torch.no_grad()")
	}
}

package rules

import (
	"fmt"
	"regexp"
	"strings"

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

// evalHelperName matches functions whose name says they evaluate or
// sample: sample_images, evaluate, validate, generate, predict, visualize,
// reconstruct, inference, test (but not test_* unit tests).
var evalHelperName = regexp.MustCompile(`(?i)^_*(sample|eval|valid|generat|predict|infer|visuali[sz]|reconstruct|save_sample|log_image|plot_sample|show_sample|test$|test_model|test_epoch|run_test)`)

func runEvalWithGrad(p *lint.Pass) {
	f := p.File
	models := modelNames(f)
	done := map[*lint.Node]bool{}
	report := func(scope, fwd *lint.Node, msg string) {
		done[scope] = true
		p.Report(fwd, msg, "wrap the evaluation in `with torch.inference_mode():` or decorate the function with @torch.no_grad()")
	}
	// After model.eval(), or model = Net(...).eval(), in the same scope.
	for _, call := range f.Nodes("call") {
		model, ok := evalTarget(f, call)
		if !ok {
			continue
		}
		scope := lint.Scope(call)
		if done[scope] || scope.Kind == "lambda" || unitTest(f, scope) {
			continue
		}
		if fwd := forwardAfterEval(f, scope, call, model); fwd != nil {
			report(scope, fwd, fmt.Sprintf("%s(...) runs with autograd on after %s.eval() (line %d): eval() does not disable gradients, so activations are saved for a backward pass that never comes",
				model, model, f.Pos(call.Start).Line))
		}
	}
	// Sampling and evaluation helpers that run a model without no_grad.
	for _, fn := range f.Nodes("function_definition") {
		name := f.Text(fn.Child("name"))
		if done[fn] || !evalHelperName.MatchString(name) || strings.Contains(strings.ToLower(name), "loss") || unitTest(f, fn) {
			continue
		}
		if fwd := helperForward(f, fn, models); fwd != nil {
			report(fn, fwd, fmt.Sprintf("%s(...) runs a forward pass with autograd on, and nothing in %s() calls backward: activations are saved for a backward pass that never comes",
				f.Text(fwd.Child("function")), name))
		}
	}
}

// evalTarget returns the model a call puts in evaluation mode: m in the
// statement m.eval(), or the name assigned in m = Net(...).eval().
func evalTarget(f *lint.File, call *lint.Node) (string, bool) {
	name, recv := f.Method(call)
	pos, kw, _ := f.Args(call)
	if name != "eval" || len(pos)+len(kw) > 0 || recv == nil {
		return "", false
	}
	st := call.Parent
	switch {
	case st.Is("expression_statement") && recv.Is("identifier", "attribute"):
		return f.Text(recv), true
	case st.Is("assignment") && call.Field == "right":
		left := st.Child("left")
		if !left.Is("identifier", "attribute") {
			return "", false
		}
		if f.Text(left) == f.Text(recv) || lint.Unparen(recv).Is("call") {
			return f.Text(left), true
		}
	}
	return "", false
}

// forwardAfterEval returns the first call of model after the eval() call
// in scope that runs with autograd on, or nil. Nothing is returned when the
// scope runs backward after the eval() (eval() then freezes batch norm or
// dropout for fine-tuning) or switches back with model.train() first.
func forwardAfterEval(f *lint.File, scope, eval *lint.Node, model string) *lint.Node {
	var fwd *lint.Node
	for _, c := range lint.Calls(scope) {
		if c.Start < eval.End {
			continue
		}
		m, r := f.Method(c)
		switch {
		case m == "backward" || m == "manual_backward" || m == "step" && r != nil && strings.Contains(strings.ToLower(f.Text(r)), "optim"):
			return nil
		case m == "train" && f.TextIs(r, model):
			if fwd == nil {
				return nil // back to training before any forward
			}
		case fwd == nil && isForwardOf(f, c, model) && !f.RunsGradOff(c):
			fwd = c
		}
	}
	return fwd
}

func isForwardOf(f *lint.File, c *lint.Node, model string) bool {
	fn := lint.Unparen(c.Child("function"))
	if fn.Is("attribute") && f.TextIs(fn.Child("attribute"), "forward") {
		fn = fn.Child("object")
	}
	return f.TextIs(fn, model)
}

// helperForward returns the first model call in an evaluation or sampling
// helper that runs with autograd on, or nil when the helper trains
// (backward, an optimizer step), is a unit test, or only runs under
// no_grad as far as its callers in the file show.
func helperForward(f *lint.File, fn *lint.Node, models map[string]bool) *lint.Node {
	var fwd *lint.Node
	for _, c := range lint.Calls(fn.Child("body")) {
		m, r := f.Method(c)
		switch {
		case m == "backward" || m == "manual_backward" || m == "grad" || m == "step" && r != nil && strings.Contains(strings.ToLower(f.Text(r)), "optim"):
			return nil
		case fwd == nil && modelCall(f, c, models) && !f.RunsGradOff(c):
			fwd = c
		}
	}
	return fwd
}

// unitTest reports whether scope is a unit test (test_* functions and
// methods): tests run small models once, and their memory is not the
// program's.
func unitTest(f *lint.File, scope *lint.Node) bool {
	for s := scope; s != nil; s = s.Parent {
		if s.Kind == "function_definition" && strings.HasPrefix(f.Text(s.Child("name")), "test_") {
			return true
		}
	}
	return false
}

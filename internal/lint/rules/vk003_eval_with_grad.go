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
	// Policy (bench/lint, every judged finding of eight sets, findings
	// since fixed included): an output only saved as an image was right
	// 12/13 (a no_grad augmentation module taken for a network in
	// unseen7), below the 95% a warning needs, so info; a forward after
	// model.eval() 41/45; a forward in a helper named like sampling or
	// evaluation 28/39 (wrappers, update forwards, frozen networks,
	// inference() methods called under no_grad from other files).
	// "-elsewhere": callers in other files choose the grad mode.
	Patterns: map[string]lint.Level{
		"saved-image": {Severity: lint.Info}, "saved-image-elsewhere": {Severity: lint.Info},
		"after-eval": {Severity: lint.Info}, "after-eval-elsewhere": {Severity: lint.Info},
		"helper": {Severity: lint.Info, Hint: true}, "helper-elsewhere": {Severity: lint.Info, Hint: true},
		// A notebook or __main__ script that never moves anything to the
		// GPU (5 debatable in unseen6's course notebooks).
		"cpu-only": {Severity: lint.Info, Hint: true},
		// Too few findings (3/3) for a warning.
		"read-back": {Severity: lint.Info}, "read-back-elsewhere": {Severity: lint.Info, Hint: true},
		// New (issue 16): an action selector's forward read back through
		// names; info until judged >= 95% over >= 5 findings.
		"act": {Severity: lint.Info}, "act-elsewhere": {Severity: lint.Info, Hint: true},
	},
	Summary: "an evaluation or sampling forward (after model.eval(), in a sample/eval helper) runs with autograd on and keeps activations for a backward that never comes",
	Doc: `Flags a model forward that runs with autograd on where no backward pass
follows, in the shapes real code shows:

- after model.eval() (or model = Net(...).eval()) in the same function or
  module, with no backward or optimizer step after the eval() and no
  model.train() before the forward;
- in a sampling or evaluation helper — a function named sample*, eval*,
  valid*, generat*, predict*, infer*, visuali[sz]e*, viz_*, reconstruct*,
  save_sample*, test, or a method of a class named like one (Visualizer,
  Evaluator, Predictor) — that calls a model and never backward (the
  sample_images(batches_done) of GAN scripts, a VAE's viz_traverse());
- a forward whose output is only written as an image (fake = netG(fixed_noise);
  save_image(fake.detach())) inside a training loop;
- a forward whose output is read straight back to the host
  (self.actor(state).cpu().data.numpy() in an RL select_action) in a
  function that never trains;
- in an RL action selector (act, select_action, get_action,
  choose_action) that never trains, a forward whose output only reaches
  the caller through reads that leave no graph, followed through the
  names it is bound to (qvalues = self.forward(state).mean(2); action =
  qvalues.max(1)[1]; .argmax(), .item(), .data, .numpy(); a tuple
  target whose other parts are thrown away, action, _, _ = ..., and a
  rebinding in the other branch of an if): the training loop calls it
  once per environment step. Here a policy network's sample() counts as
  its forward (SAC's self.policy.sample(state): a reparameterised
  sample, with autograd). A selector that passes the
  output on (Categorical(probs), a saved log-prob, a returned tensor) is
  not flagged: REINFORCE and actor-critic train through it;
- after model.eval(), a helper of the file that the model is handed to
  (model.eval(); extract(loader, model)) and that runs it.

A forward is a call of a model (a name the file trains, evaluates or takes
.parameters() of, a name like model/net/encoder/generator, or a name bound
to a module class of the file: self.actor = Actor(...)) or of its method
that runs the network: a method of a module class of the file (model.pi(s)
in minimalRL) unless that method is itself decorated with no_grad, or one
named encode*/decode*/reconstruct*/embed*/pi/v/q/act/get_action
(vae.encode(x), vqvae.decode_code(t, b)). sample()/generate() of classes
defined elsewhere are not taken: libraries decorate them with no_grad.

Grad mode is followed through calls in the same file: a forward is fine when
it sits in with torch.no_grad() / torch.inference_mode() /
torch.set_grad_enabled(False), in a function decorated with one of them (or
with a project wrapper named like them, such as @smart_inference_mode()),
or in a helper whose every caller in the file runs under one of them (a few
calls up), or in a PyTorch Lightning validation/test/predict step or
on_validation_*/on_test_*/on_predict_* hook (Lightning runs those under
no_grad).

Memory: eval() only changes dropout and batch-norm behaviour; it does not turn
off autograd. Every activation a backward pass would need is saved, so an
evaluation or sampling step costs about as much memory as a training step, and
outputs that are kept keep their graphs (tuning guide: "use torch.no_grad()
for validation or inference").

Fix: wrap the evaluation in with torch.inference_mode(): (or
torch.no_grad()), or decorate the function with @torch.no_grad().

Not flagged: unit tests (test_* functions), the shape check at the end of a
model file (a model built in the function and run on torch.randn input),
sample()/generate()/log_images() methods of modules (classes with a
forward, or subclasses of nn.Module, LightningModule or a module class of
the file) that nothing in the file calls on their class (self.x.inference(...) on
another object runs another class's method), and closures that return the
forward's output to code elsewhere (get_model_fn returning model_fn): their
callers, in other files, choose the grad mode. Builders named like
samplers (_generate_network) and helpers named like models (add_module,
save_model) are not forwards.

Nor are forwards of networks the file freezes (net.requires_grad_(False),
or p.requires_grad = False over net.parameters(), never set back) or
unpickles whole (pickle.load: EMA and evaluation copies are saved frozen),
nor calls of the file's module classes that record no graph of their own:
a forward decorated with no_grad (kornia-style augmentation modules), or a
class straight from nn.Module that stores only numbers and flags on self
(no submodule, no Parameter: a dequantization), nor pytorch-fid's
InceptionV3([block]) and its vendored copies (imported from a module named
inception), whose constructor freezes every parameter: they record no
graph whatever the grad mode.

Nor is a helper named like an evaluation whose every caller in the file
builds the loss it runs backward on from the helper's outputs (PPO's
logprobs, values, entropy = policy.evaluate(states, actions)): that is the
update's forward.

Severity, per sub-pattern (how often each was right on real code): an
output only saved as an image, a forward after model.eval() or read back
to the host is info; a forward in a helper named like
sampling or evaluation is a hint (--hints), having been wrong in about one
case in four (wrappers, the update's forward, frozen networks, inference
methods whose callers elsewhere use no_grad). Each is
lowered further ("-elsewhere": info, or a hint) when the file does not
show the grad mode the forward runs under: the helper is called only from
other files, or handed out as a callback, or only by such helpers.

Blind spots: callers in other files are not seen, so a helper called only
from another file under no_grad is still noted (at info; suppress it with
"# vramkit: ignore[VK003]"); forwards through names that do not look like
models, model.generate() and pipelines are not checked.`,
	Run: runEvalWithGrad,
}

// evalHelperName matches functions whose name says they evaluate or
// sample: sample_images, evaluate, validate, generate, predict, visualize,
// reconstruct, inference, test (but not test_* unit tests).
var evalHelperName = regexp.MustCompile(`(?i)^_*(sample|eval|valid|generat|predict|infer|visuali[sz]|viz(_|$)|reconstruct|save_sample|log_image|plot_sample|show_sample|test$|test_model|test_epoch|run_test)`)

// evalClassName matches classes whose methods all serve evaluation or
// display: a Visualizer whose _decode_latents() runs the decoder for the
// sample and traversal grids its other methods draw.
var evalClassName = regexp.MustCompile(`(?i)(visuali[sz]er|viz|evaluator|predictor|inferencer|tester)$`)

// evalHelper reports whether fn evaluates or samples, by its name or, for
// a method, by its class's name (a module class never counts: its
// methods are the network's own).
func evalHelper(f *lint.File, fn *lint.Node) bool {
	if evalHelperName.MatchString(f.Text(fn.Child("name"))) {
		return true
	}
	cls := fn.Ancestor("class_definition", "function_definition")
	return cls.Is("class_definition") && evalClassName.MatchString(f.Text(cls.Child("name"))) && !moduleClass(f, cls, 5)
}

// builderName matches helpers that build rather than run a network:
// _generate_network, generate_model, generate_layers.
var builderName = regexp.MustCompile(`(?i)^_*generat\w*(network|model|layer|module|block|net)s?$`)

func runEvalWithGrad(p *lint.Pass) {
	f := p.File
	models := modelNames(f)
	fw := newForwards(f, models)
	frozen := frozenModels(f)
	done := map[*lint.Node]bool{}
	cpu := cpuOnlyScript(f)
	report := func(pattern string, scope, fwd *lint.Node, msg string) {
		// The forward's own function is done too: an eval()'d model
		// followed into predict(net) is not reported again as predict().
		done[scope], done[lint.Scope(fwd)] = true, true
		if cpu {
			// A script that never uses the GPU: the graph costs host
			// memory only.
			p.ReportPattern("cpu-only", fwd, msg+" (host memory: this script does not use the GPU)", "wrap the evaluation in `with torch.inference_mode():` or decorate the function with @torch.no_grad()")
			return
		}
		if !f.GradModeShown(fwd) {
			// Its callers live in other files and may run it under
			// no_grad: say so, but do not fail a build on it.
			pattern += "-elsewhere"
			msg += " (unless its callers, in other files, run it under no_grad)"
		}
		p.ReportPattern(pattern, fwd, msg, "wrap the evaluation in `with torch.inference_mode():` or decorate the function with @torch.no_grad()")
	}
	// After model.eval(), or model = Net(...).eval(), in the same scope.
	for _, call := range f.Nodes("call") {
		model, ok := evalTarget(f, call)
		if !ok {
			continue
		}
		scope := lint.Scope(call)
		if done[scope] || scope.Kind == "lambda" || unitTest(f, scope) || frozen[model] {
			continue
		}
		if fwd := forwardAfterEval(f, fw, scope, call, model); fwd != nil {
			report("after-eval", scope, fwd, fmt.Sprintf("%s(...) runs with autograd on after %s.eval() (line %d): eval() does not disable gradients, so activations are saved for a backward pass that never comes",
				model, model, f.Pos(call.Start).Line))
		}
	}
	// Sampling and evaluation helpers that run a model without no_grad.
	for _, fn := range f.Nodes("function_definition") {
		name := f.Text(fn.Child("name"))
		// sample_action() and the like are action selectors, taken below
		// only when their output is read back (REINFORCE trains through it).
		if done[fn] || !evalHelper(f, fn) || actionSelector.MatchString(name) || strings.Contains(strings.ToLower(name), "loss") || builderName.MatchString(name) || unitTest(f, fn) || moduleMethod(f, fn) && !calledOnItsClass(f, fn) {
			continue
		}
		if feedsLoss(f, fn) {
			continue // its callers build a loss from its outputs
		}
		if fwd := helperForward(f, fn, fw, frozen); fwd != nil {
			report("helper", fn, fwd, fmt.Sprintf("%s(...) runs a forward pass with autograd on, and nothing in %s() calls backward: activations are saved for a backward pass that never comes",
				f.Text(fwd.Child("function")), name))
		}
	}
	// A forward whose output is only saved as an image (the GAN "fake =
	// netG(fixed_noise); save_image(fake.detach())" inside training).
	saved := savedNames(f)
	for _, a := range f.Nodes("assignment") {
		if ts := targets(a.Child("left")); len(ts) == 0 || !saved[f.Text(ts[0])] {
			continue
		}
		scope := lint.Scope(a)
		if done[scope] || scope.Kind == "lambda" || unitTest(f, scope) {
			continue
		}
		if fwd, ok := savedOnlyForward(f, scope, a, fw, saved); ok && !frozenCall(f, fwd, frozen) {
			report("saved-image", scope, fwd, fmt.Sprintf("%s(...) runs with autograd on, but its output is only saved as an image: activations are saved for a backward pass that never comes",
				f.Text(fwd.Child("function"))))
		}
	}
	// A forward whose output goes straight to the host (acting in RL).
	readBackForwards(p, fw, frozen, done, report)
	// An RL action selector whose forward is read back through names
	// (qvalues = self.forward(s).mean(2); action = qvalues.max(1)[1]).
	actForwards(p, fw, frozen, done, report)
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
func forwardAfterEval(f *lint.File, fw *forwards, scope, eval *lint.Node, model string) *lint.Node {
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
		case fwd == nil && fw.of(c, model) && !f.RunsGradOff(c) && !handedBack(f, c):
			fwd = c
		case fwd == nil && !f.RunsGradOff(c):
			// extract(loader, model): the evaluated model handed to a
			// helper of the file that runs it.
			fwd = passedForward(f, fw, c, model)
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
func helperForward(f *lint.File, fn *lint.Node, fw *forwards, frozen map[string]bool) *lint.Node {
	var fwd *lint.Node
	for _, c := range lint.Calls(fn.Child("body")) {
		m, r := f.Method(c)
		switch {
		case m == "backward" || m == "manual_backward" || m == "grad" || m == "step" && r != nil && strings.Contains(strings.ToLower(f.Text(r)), "optim"):
			return nil
		case fwd == nil && fw.call(c) && !frozenCall(f, c, frozen) && !f.RunsGradOff(c) && !smokeTest(f, fn, c) && !handedBack(f, c):
			fwd = c
		}
	}
	return fwd
}

package rules

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/vramkit/vramkit/internal/lint"
)

// runningMethod matches method names that run a network rather than
// configure it: the encode/decode/sample methods of VAEs and diffusion
// models, the pi/v/act heads of RL policies (model.pi(s), vae.encode(x),
// G.sample(z), vqvae.decode_code(t, b)).
//
// sample and generate are left out: libraries define them under
// @torch.no_grad() (transformers' and minGPT's generate, diffusion
// samplers), which a file that only calls them cannot see. A method of a
// module class of the file counts whatever its name, unless it is itself
// decorated with no_grad.
var runningMethod = regexp.MustCompile(`^(forward|encode\w*|decode\w*|reconstruct\w*|embed\w*|pi|v|q[12]?|act|get_action|get_value|extract_features|forward_features)$`)

// notRunning matches methods of module classes that set a network up
// rather than run it (or that train it, where grad mode is on anyway).
var notRunning = regexp.MustCompile(`(?i)(^_|loss|step$|^(init|reset|weight|configure|on|setup|freeze|unfreeze|update|num|n|count)_|_init$|^(train|eval|to|cuda|cpu|half|float|apply)$)`)

// modelPrefix matches names that say they hold a model: model_vqvae,
// net_G.
var modelPrefix = regexp.MustCompile(`(?i)^_*(model|net)_[a-z0-9_]*$`)

// forwards tells which calls of a file run a network, for VK003: calls of
// models (modelCall) and calls of their methods that run the network —
// model.pi(...), vae.encode(...) — where the method belongs to a module
// class of the file or is named like a running method, and the object is
// a model: one the file trains, evaluates or takes .parameters() of, one
// named like a model, or a name bound to a module class the file defines
// (net = Generator(...), self.actor = Actor(...)).
type forwards struct {
	f       *lint.File
	models  map[string]bool
	methods map[string]bool
}

func newForwards(f *lint.File, models map[string]bool) *forwards {
	fw := &forwards{f: f, models: map[string]bool{}, methods: map[string]bool{}}
	for k, v := range models {
		fw.models[k] = v
	}
	classes := map[string]bool{}
	for _, cls := range f.Nodes("class_definition") {
		if !moduleClass(f, cls, 5) {
			continue
		}
		classes[f.Text(cls.Child("name"))] = true
		for _, d := range f.Nodes("function_definition") {
			if d.Ancestor("class_definition") != cls {
				continue
			}
			name := f.Text(d.Child("name"))
			if f.GradDisabled(d.Child("body")) {
				continue // @torch.no_grad() def sample(...)
			}
			if !notRunning.MatchString(name) && !verbName.MatchString(name) && !builderName.MatchString(name) {
				fw.methods[name] = true
			}
		}
	}
	if len(classes) > 0 {
		for _, a := range f.Nodes("assignment") {
			left, right := a.Child("left"), lint.Unparen(a.Child("right"))
			if !left.Is("identifier", "attribute") || !right.Is("call") {
				continue
			}
			if fn := lint.Unparen(right.Child("function")); fn.Is("identifier") && classes[f.Text(fn)] {
				fw.models[f.Text(left)] = true
			}
		}
	}
	return fw
}

// model reports whether obj, the receiver of a method call, is a model.
func (fw *forwards) model(obj *lint.Node) bool {
	obj = lint.Unparen(obj)
	if !obj.Is("identifier", "attribute") {
		return false
	}
	t := fw.f.Text(obj)
	if fw.models[t] {
		return true
	}
	last := t[strings.LastIndexByte(t, '.')+1:]
	if fw.f.QualifiedName(obj) != "" {
		return false // a module reached through an import (torch.distributions)
	}
	return modelLikeName.MatchString(t) || modelPrefix.MatchString(last) || ganName.MatchString(last)
}

// ganName matches the generator and discriminator names of GAN code:
// G, D, G_XtoY, D_X (CycleGAN's save_samples(..., G_YtoX, G_XtoY)).
var ganName = regexp.MustCompile(`^[GD](_[A-Za-z0-9]+)?$`)

// method reports whether call runs a network through one of its methods
// (model.pi(s), vae.encode(x)), and returns the model.
func (fw *forwards) method(call *lint.Node) (*lint.Node, bool) {
	name, recv := fw.f.Method(call)
	if recv == nil || name == "forward" || !runningMethod.MatchString(name) && !fw.methods[name] {
		return nil, false
	}
	if !fw.model(recv) {
		return nil, false
	}
	return lint.Unparen(recv), true
}

// call reports whether e runs a network: a model call or a running method.
func (fw *forwards) call(e *lint.Node) bool {
	e = lint.Unparen(e)
	if !e.Is("call") {
		return false
	}
	if modelCall(fw.f, e, fw.models) {
		return true
	}
	if fn := lint.Unparen(e.Child("function")); fn.Is("attribute") && fw.f.TextIs(fn, "self.forward") || fw.f.TextIs(fn, "self") {
		// self.forward(x) / self(x) in a method of a module class: the
		// DQN's act() runs its own network.
		if def := lint.Scope(e); def.Is("function_definition") && moduleMethod(fw.f, def) {
			return true
		}
	}
	if fn := lint.Unparen(e.Child("function")); fn.Is("identifier", "attribute") && fw.f.QualifiedName(fn) == "" {
		t := fw.f.Text(fn)
		if ganName.MatchString(t[strings.LastIndexByte(t, '.')+1:]) {
			return true
		}
	}
	_, ok := fw.method(e)
	return ok
}

// of reports whether c runs model: model(...), model.forward(...) or a
// running method of model.
func (fw *forwards) of(c *lint.Node, model string) bool {
	if isForwardOf(fw.f, c, model) {
		return true
	}
	recv, ok := fw.method(c)
	return ok && fw.f.TextIs(recv, model)
}

// hostRead reports whether the output of forward c is read back to the
// host at once — self.actor(state).cpu().data.numpy(), model(x).item() —
// through detaching calls only: nothing can ever run backward through the
// graph it records.
func hostRead(f *lint.File, c *lint.Node) bool {
	host := false
	for u := c; ; {
		par := u.Parent
		if !par.Is("attribute") || u.Field != "object" {
			break
		}
		m := f.Text(par.Child("attribute"))
		if !lint.Detaching(m) && m != "flatten" && m != "squeeze" {
			break
		}
		// .data, .detach(), .numpy(), .item(), .tolist() cut the graph;
		// .cpu(), .flatten() and .squeeze() keep it.
		host = host || lint.Detaching(m) && m != "cpu"
		u = par
		if par.Parent.Is("call") && par.Field == "function" {
			u = par.Parent
		}
	}
	return host
}

// readBackForwards reports forwards whose output is read back to the host
// at once, in functions that never train: acting in RL (select_action)
// and predicting.
func readBackForwards(p *lint.Pass, fw *forwards, frozen map[string]bool, done map[*lint.Node]bool, report func(pattern string, scope, fwd *lint.Node, msg string)) {
	f := p.File
	for _, c := range f.Nodes("call") {
		if !fw.call(c) || !hostRead(f, c) && !readBackName(f, c) || f.RunsGradOff(c) || frozenCall(f, c, frozen) {
			continue
		}
		scope := lint.Scope(c)
		if done[scope] || !scope.Is("function_definition") || f.TextIs(scope.Child("name"), "forward") || unitTest(f, scope) || trainsHere(f, scope) {
			continue
		}
		report("read-back", scope, c, fmt.Sprintf("%s(...) runs with autograd on, but its output is read back to the host at once: the graph it records, and the activations saved for it, are never used",
			f.Text(c.Child("function"))))
	}
}

// trainsHere reports whether fn runs backward, an autograd.grad or an
// optimizer step.
func trainsHere(f *lint.File, fn *lint.Node) bool {
	for _, c := range lint.Calls(fn.Child("body")) {
		m, r := f.Method(c)
		if m == "backward" || m == "manual_backward" || m == "grad" || m == "step" && r != nil && strings.Contains(strings.ToLower(f.Text(r)), "optim") {
			return true
		}
	}
	return false
}

// passedForward returns the forward of model inside the module-level
// function of the file that call c runs with model as a positional
// argument (model.eval(); extract(loader, model)), or nil when there is
// none, the helper trains, or the forward sits under no_grad there.
func passedForward(f *lint.File, fw *forwards, c *lint.Node, model string) *lint.Node {
	callee := lint.Unparen(c.Child("function"))
	if !callee.Is("identifier") || !fw.models["def "+f.Text(callee)] {
		return nil
	}
	pos, _, _ := f.Args(c)
	idx := -1
	for i, a := range pos {
		if f.TextIs(lint.Unparen(a), model) {
			idx = i
		}
	}
	if idx < 0 {
		return nil
	}
	for _, fn := range f.Nodes("function_definition") {
		if !f.TextIs(fn.Child("name"), f.Text(callee)) || !lint.Scope(fn).Is("module") {
			continue
		}
		params := fn.Child("parameters").NamedChildren()
		if idx >= len(params) || trainsHere(f, fn) {
			return nil
		}
		prm := params[idx]
		if !prm.Is("identifier") {
			prm = prm.Child("name")
		}
		if prm == nil || !prm.Is("identifier") {
			return nil
		}
		for _, c2 := range lint.Calls(fn.Child("body")) {
			if fw.of(c2, f.Text(prm)) && !f.GradDisabled(c2) {
				return c2
			}
		}
		return nil
	}
	return nil
}

// readBackName reports whether forward c is assigned to one name (q =
// self.forward(state)) whose every later use in the function, until it is
// assigned again, cuts the graph in the same expression:
// q.max(1)[1].data[0], q.argmax().item(). RL acting code (act()) reads its
// Q values this way.
func readBackName(f *lint.File, c *lint.Node) bool {
	a := c.Parent
	if !a.Is("assignment") || c.Field != "right" || !a.Child("left").Is("identifier") {
		return false
	}
	name, scope := f.Text(a.Child("left")), lint.Scope(a)
	uses, ok := 0, true
	lint.WalkScope(scope, func(n *lint.Node) bool {
		if !ok || n.End <= a.End {
			return ok
		}
		if n.Kind == "assignment" && assigns(f, n, name) && !mentions(f, n.Child("right"), name) {
			return false // later code sees another value
		}
		if n.Kind != "identifier" || !f.TextIs(n, name) || n.Field == "attribute" {
			return true
		}
		uses++
		cut := false
		for u := n; !cut; {
			par := u.Parent
			switch {
			case par.Is("attribute") && u.Field == "object":
				cut = lint.Detaching(f.Text(par.Child("attribute"))) && !f.TextIs(par.Child("attribute"), "cpu")
				u = par
			case par.Is("call") && u.Field == "function", par.Is("subscript") && u.Field == "value":
				u = par
			default:
				ok = false
				return false
			}
		}
		return true
	})
	return ok && uses > 0
}

// cpuOnlyScript reports whether the file is a script (a notebook, or a
// file with an if __name__ == "__main__" block) that never puts anything
// on the GPU: no .cuda(), no .to(device) and no "cuda" anywhere.
func cpuOnlyScript(f *lint.File) bool {
	script := len(f.Cells) > 0
	for _, n := range f.Nodes("if_statement") {
		if lint.Scope(n).Is("module") && strings.Contains(f.Text(n.Child("condition")), "__main__") {
			script = true
		}
	}
	return script && !strings.Contains(string(f.Src), "cuda") && !movesToGPU(f, f.Root)
}

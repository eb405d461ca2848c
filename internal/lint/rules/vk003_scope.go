package rules

import (
	"strings"

	"github.com/vramkit/vramkit/internal/lint"
)

// What VK003 asks of the code around a forward: is it a smoke or unit
// test, what was a name last bound to, is a function a module's method.

// smokeTest reports whether fwd, in fn, runs a model that fn itself builds
// on a synthetic input — net = ResNet18(); y = net(torch.randn(2, 3, 32,
// 32)) — the shape check model files end with, not a program's memory.
func smokeTest(f *lint.File, fn, fwd *lint.Node) bool {
	callee := lint.Unparen(fwd.Child("function"))
	built := false
	lint.WalkScope(fn.Child("body"), func(n *lint.Node) bool {
		if n.Kind == "assignment" && f.Text(n.Child("left")) == f.Text(callee) && lint.Unparen(n.Child("right")).Is("call") {
			built = true
		}
		return !built
	})
	if !built {
		return false
	}
	pos, _, _ := f.Args(fwd)
	for _, a := range pos {
		a = lint.Unparen(a)
		if a.Is("identifier") {
			a = lastAssigned(f, fn, a)
		}
		if a.Is("call") {
			switch q := f.QualifiedName(a.Child("function")); q {
			case "torch.randn", "torch.rand", "torch.zeros", "torch.ones", "torch.empty", "torch.randint":
				return true
			}
		}
	}
	return false
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

// lastAssigned returns the value last assigned to id in fn before id, or
// nil.
func lastAssigned(f *lint.File, fn, id *lint.Node) *lint.Node {
	var v *lint.Node
	lint.WalkScope(fn.Child("body"), func(n *lint.Node) bool {
		if n.Start >= id.Start {
			return false
		}
		if n.Kind == "assignment" && f.TextIs(n.Child("left"), f.Text(id)) {
			v = lint.Unparen(n.Child("right"))
		}
		return true
	})
	return v
}

// moduleMethod reports whether fn is a method of a module class: one that
// defines forward, or whose base classes (nn.Module, LightningModule, or a
// class of this file that is a module) do. A module's own
// sample()/generate()/log_images() is an API whose callers, usually in
// other files, choose the grad mode (unless the file shows them all) (diffusion and VAE libraries run it under
// no_grad from their trainers).
func moduleMethod(f *lint.File, fn *lint.Node) bool {
	cls := fn.Ancestor("class_definition", "function_definition")
	return cls != nil && cls.Kind == "class_definition" && moduleClass(f, cls, 5)
}

func moduleClass(f *lint.File, cls *lint.Node, depth int) bool {
	for _, d := range f.Nodes("function_definition") {
		if d.Ancestor("class_definition") == cls && f.TextIs(d.Child("name"), "forward") {
			return true
		}
	}
	if depth == 0 {
		return false
	}
	for _, b := range cls.Child("superclasses").NamedChildren() {
		t := f.Text(b)
		t = t[strings.LastIndexByte(t, '.')+1:]
		if t == "Module" || t == "LightningModule" {
			return true
		}
		for _, c := range f.Nodes("class_definition") {
			if c != cls && f.TextIs(c.Child("name"), t) && moduleClass(f, c, depth-1) {
				return true
			}
		}
	}
	return false
}

// assigns reports whether assignment a binds name.
func assigns(f *lint.File, a *lint.Node, name string) bool {
	for _, t := range targets(a.Child("left")) {
		if f.TextIs(t, name) {
			return true
		}
	}
	return false
}

// mentions reports whether name occurs in e.
func mentions(f *lint.File, e *lint.Node, name string) bool {
	found := false
	e.Walk(func(n *lint.Node) bool {
		if n.Kind == "identifier" && n.Field != "attribute" && f.TextIs(n, name) {
			found = true
		}
		return !found
	})
	return found
}

func sameScope(a, b *lint.Node) bool { return lint.Scope(a) == lint.Scope(b) }

// handedBack reports whether fwd's output is returned as is (return
// model(x)) from a closure that its factory hands out (get_model_fn
// returning model_fn): the code that calls it, which vramkit cannot see,
// decides the grad mode (losses with it, sampling under no_grad).
func handedBack(f *lint.File, fwd *lint.Node) bool {
	if !fwd.Parent.Is("return_statement") {
		return false
	}
	fn := lint.Scope(fwd)
	if !fn.Is("function_definition") || !lint.Scope(fn).Is("function_definition") {
		return false
	}
	_, complete := f.Callers(fn)
	return !complete
}

// calledOnItsClass reports whether some call in the file runs method fn
// of its class: self.name(...) inside the class, or x.name(...) on a name
// bound to the class (x = Cls(...)). A call of the same name on another
// object (self.duration_predictor.inference(...)) runs another class's
// method.
func calledOnItsClass(f *lint.File, fn *lint.Node) bool {
	calls, complete := f.Callers(fn)
	if !complete {
		return false
	}
	cls := fn.Ancestor("class_definition")
	bound := map[string]bool{}
	for _, a := range f.Nodes("assignment") {
		if r := lint.Unparen(a.Child("right")); r.Is("call") && f.TextIs(lint.Unparen(r.Child("function")), f.Text(cls.Child("name"))) {
			bound[f.Text(a.Child("left"))] = true
		}
	}
	for _, c := range calls {
		_, recv := f.Method(c)
		switch {
		case recv == nil:
		case f.TextIs(recv, "self") && c.Ancestor("class_definition") == cls:
			return true
		case bound[f.Text(recv)]:
			return true
		}
	}
	return false
}

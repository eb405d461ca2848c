package rules

import "github.com/vramkit/vramkit/internal/lint"

// gradFreeClasses returns the module classes of the file whose calls
// record no autograd graph of their own, so that running one outside
// no_grad costs nothing a backward would need:
//
//   - a class whose forward is decorated with no_grad or inference_mode
//     (data augmentation and preprocessing modules: kornia pipelines);
//   - a class deriving straight from nn.Module that holds no parameters:
//     its methods store on self only numbers, strings and flags (literals,
//     or arguments whose default is one), at least one, and never a
//     submodule or a Parameter (a dequantization or a fixed transform).
//     Its outputs carry a graph only if its inputs already do. A class
//     that stores nothing at all is an exercise skeleton as often as not
//     (class Net(nn.Module) with "# TODO: define layers"), so it is not
//     taken.
func gradFreeClasses(f *lint.File) map[string]bool {
	out := map[string]bool{}
	for _, cls := range f.Nodes("class_definition") {
		if !moduleClass(f, cls, 0) && !directModule(f, cls) {
			continue
		}
		if noGradForward(f, cls) || directModule(f, cls) && holdsNoParameters(f, cls) {
			out[f.Text(cls.Child("name"))] = true
		}
	}
	return out
}

// noGradForward reports whether cls defines forward under no_grad.
func noGradForward(f *lint.File, cls *lint.Node) bool {
	for _, d := range f.Nodes("function_definition") {
		if d.Ancestor("class_definition") == cls && f.TextIs(d.Child("name"), "forward") {
			return f.GradDisabled(d.Child("body"))
		}
	}
	return false
}

// directModule reports whether cls's only base is nn.Module.
func directModule(f *lint.File, cls *lint.Node) bool {
	bases := cls.Child("superclasses").NamedChildren()
	if len(bases) != 1 {
		return false
	}
	switch f.Text(bases[0]) {
	case "nn.Module", "torch.nn.Module", "Module":
		return true
	}
	return false
}

// holdsNoParameters reports whether every value the methods of cls store
// on self is a literal or an argument with a literal default, and nothing
// registers a parameter or a submodule by other means.
func holdsNoParameters(f *lint.File, cls *lint.Node) bool {
	ok, stored := true, false
	cls.Child("body").Walk(func(n *lint.Node) bool {
		if !ok {
			return false
		}
		switch n.Kind {
		case "class_definition":
			return false // a nested class is checked on its own
		case "call":
			switch m, _ := f.Method(n); m {
			case "register_parameter", "add_module", "register_module", "Parameter", "setattr":
				ok = false
			}
			if name := f.CalleeName(n); name == "setattr" || name == "Parameter" {
				ok = false
			}
		case "assignment", "augmented_assignment":
			if storesOnSelf(f, n.Child("left")) {
				stored = true
				ok = plainValue(f, n)
			}
		}
		return ok
	})
	return ok && stored
}

// plainValue reports whether assignment a stores a literal, or a
// parameter of its function whose default is a literal.
func plainValue(f *lint.File, a *lint.Node) bool {
	v := lint.Unparen(a.Child("right"))
	if v == nil {
		return false
	}
	if literal(v) {
		return true
	}
	if !v.Is("identifier") {
		return false
	}
	fn := lint.Scope(a)
	if !fn.Is("function_definition") {
		return false
	}
	for _, p := range fn.Child("parameters").NamedChildren() {
		if p.Is("default_parameter", "typed_default_parameter") && f.TextIs(p.Child("name"), f.Text(v)) {
			return literal(lint.Unparen(p.Child("value")))
		}
	}
	return false
}

// literal reports whether e is a number, string or boolean, possibly
// negated.
func literal(e *lint.Node) bool {
	if e == nil {
		return false
	}
	if e.Is("unary_operator") {
		e = e.Child("argument")
	}
	return e.Is("integer", "float", "string", "true", "false")
}

// storesOnSelf reports whether an assignment target sets an attribute of
// self (self.x = ..., self.a, self.b = ...).
func storesOnSelf(f *lint.File, left *lint.Node) bool {
	left = lint.Unparen(left)
	switch {
	case left == nil:
		return false
	case left.Is("attribute"):
		return f.TextIs(left.Child("object"), "self")
	case left.Is("pattern_list", "tuple_pattern", "list_pattern", "tuple", "list"):
		for _, c := range left.NamedChildren() {
			if storesOnSelf(f, c) {
				return true
			}
		}
	}
	return false
}

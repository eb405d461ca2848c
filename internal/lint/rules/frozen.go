package rules

import (
	"strings"

	"github.com/vramkit/vramkit/internal/lint"
)

// frozenModels returns the models (as text) whose forwards the file gives
// no reason to think record a graph: networks frozen with
// requires_grad_(False) (or a loop setting p.requires_grad = False over
// their parameters) and never unfrozen, and networks unpickled whole
// (pickle.load), whose parameters are saved with whatever requires_grad
// they had — EMA and evaluation copies are saved frozen — and instances
// of the file's grad-free module classes (gradFreeClasses). A forward of such
// a network with inputs that do not require grad records nothing, so grad
// mode says nothing about its memory.
func frozenModels(f *lint.File) map[string]bool {
	frozen, thawed := map[string]bool{}, map[string]bool{}
	mark := func(target string, on bool) {
		if on {
			thawed[target] = true
		} else {
			frozen[target] = true
		}
	}
	for _, call := range f.Nodes("call") {
		name, recv := f.Method(call)
		if name != "requires_grad_" || recv == nil {
			continue
		}
		pos, kw, _ := f.Args(call)
		arg := kw["requires_grad"]
		if len(pos) > 0 {
			arg = pos[0]
		}
		on := arg == nil || !f.IsFalse(arg)
		if t, ok := frozenTarget(f, call, recv); ok {
			mark(t, on)
		}
	}
	// for p in net.parameters(): p.requires_grad = False
	for _, a := range f.Nodes("assignment") {
		left := a.Child("left")
		if !left.Is("attribute") || !f.TextIs(left.Child("attribute"), "requires_grad") {
			continue
		}
		loop := lint.Loop(a)
		if loop == nil || loop.Kind != "for_statement" || !f.TextIs(loop.Child("left"), f.Text(left.Child("object"))) {
			continue
		}
		it := lint.Unparen(loop.Child("right"))
		if m, recv := f.Method(it); m == "parameters" && recv != nil {
			mark(f.Text(recv), !f.IsFalse(lint.Unparen(a.Child("right"))))
		}
	}
	for t := range thawed {
		delete(frozen, t)
	}
	// aug = DataAugmentation(): a module class of the file whose forward
	// records no graph of its own.
	// A name also bound to anything else in the file, or trained, is left
	// out: the name says nothing then.
	if free := gradFreeClasses(f); len(free) > 0 || strings.Contains(string(f.Src), "InceptionV3") {
		bound, other := map[string]bool{}, map[string]bool{}
		for _, a := range f.Nodes("assignment") {
			left, right := a.Child("left"), lint.Unparen(a.Child("right"))
			if !left.Is("identifier", "attribute") || right == nil {
				continue
			}
			if fn := lint.Unparen(right.Child("function")); right.Is("call") && (fn.Is("identifier") && free[f.Text(fn)] || fidInception(f, right)) {
				bound[f.Text(left)] = true
			} else {
				other[f.Text(left)] = true
			}
		}
		for _, c := range f.Nodes("call") {
			// The file trains it or takes its parameters: it has some
			// (an exercise skeleton filled in later).
			if m, r := f.Method(c); r != nil && (m == "parameters" || m == "named_parameters" || m == "train") {
				other[f.Text(r)] = true
			}
		}
		for t := range bound {
			if !other[t] {
				frozen[t] = true
			}
		}
	}
	// net = pickle.load(f)['ema'].to(device)
	for _, a := range f.Nodes("assignment") {
		left, right := a.Child("left"), a.Child("right")
		if !left.Is("identifier", "attribute") || right == nil {
			continue
		}
		unpickled := false
		right.Walk(func(n *lint.Node) bool {
			if n.Kind == "call" {
				if _, ok := f.CallTo(n, "pickle.load", "pickle.loads"); ok {
					unpickled = true
				}
			}
			return !unpickled
		})
		if unpickled {
			frozen[f.Text(left)] = true
		}
	}
	return frozen
}

// frozenTarget names the network a requires_grad_ call applies to: net in
// net.requires_grad_(False), or the name assigned in
// ema = deepcopy(net).eval().requires_grad_(False).
func frozenTarget(f *lint.File, call, recv *lint.Node) (string, bool) {
	recv = lint.Unparen(recv)
	if call.Parent.Is("assignment") && call.Field == "right" {
		if left := call.Parent.Child("left"); left.Is("identifier", "attribute") {
			return f.Text(left), true
		}
	}
	for recv.Is("call") {
		// net.eval().requires_grad_(False)
		_, r := f.Method(recv)
		if r == nil {
			return "", false
		}
		recv = lint.Unparen(r)
	}
	if !recv.Is("identifier", "attribute") {
		return "", false
	}
	return f.Text(recv), true
}

// frozenCall reports whether call runs a network from frozenModels.
func frozenCall(f *lint.File, call *lint.Node, frozen map[string]bool) bool {
	if len(frozen) == 0 {
		return false
	}
	fn := lint.Unparen(call.Child("function"))
	if fn.Is("attribute") && f.TextIs(fn.Child("attribute"), "forward") {
		fn = fn.Child("object")
	}
	return frozen[f.Text(fn)]
}

// fidInception reports whether call builds pytorch-fid's InceptionV3 (or
// one of its many vendored copies): InceptionV3([block_idx]) imported from
// a module named inception, not defined in the file. Its constructor sets
// requires_grad=False on every parameter unless told otherwise, so FID
// feature extraction records no graph.
func fidInception(f *lint.File, call *lint.Node) bool {
	fn := lint.Unparen(call.Child("function"))
	if !strings.HasSuffix(f.QualifiedName(fn), "inception.InceptionV3") && !(fn.Is("identifier") && relativeImport(f, f.Text(fn), "inception")) {
		return false
	}
	pos, kw, _ := f.Args(call)
	if rg := kw["requires_grad"]; rg != nil && !f.IsFalse(rg) {
		return false
	}
	return len(pos) > 0 && lint.Unparen(pos[0]).Is("list")
}

// relativeImport reports whether name is imported by a relative import
// from a module whose last part is mod (from .inception import
// InceptionV3).
func relativeImport(f *lint.File, name, mod string) bool {
	for _, st := range f.Nodes("import_from_statement") {
		m := st.Child("module_name")
		if !m.Is("relative_import") || !strings.HasSuffix(f.Text(m), mod) {
			continue
		}
		for _, c := range st.Children {
			if c.Field == "name" && f.TextIs(c, name) {
				return true
			}
		}
	}
	return false
}

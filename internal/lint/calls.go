package lint

import "strings"

// Following calls inside one file. Rules ask "who calls this helper, and
// under which grad mode?" or "does this helper run once per training
// step?". The answers come from the calls in the same file whose callee is
// the helper's name: f(...) for a module-level function, obj.f(...) for a
// method. A helper that is also referenced without being called (passed as
// a callback, stored in a table) has callers vramkit cannot see, and the
// answers then say so.

// callIndex maps a callee's last name to the calls that use it, and counts
// the other references to each name, in source order.
type callIndex struct {
	calls map[string][]*Node
	refs  map[string]int
}

func buildCallIndex(f *File) callIndex {
	ix := callIndex{calls: map[string][]*Node{}, refs: map[string]int{}}
	for _, c := range f.Nodes("call") {
		if name := f.CalleeName(c); name != "" {
			ix.calls[name] = append(ix.calls[name], c)
		}
	}
	for _, id := range f.Nodes("identifier") {
		p := id.Parent
		switch {
		case p == nil:
		case p.Kind == "call" && id.Field == "function":
		case p.Kind == "attribute" && id.Field == "attribute" && p.Field == "function" && p.Parent.Is("call"):
		case p.Is("function_definition", "class_definition") && id.Field == "name":
		case p.Kind == "keyword_argument" && id.Field == "name":
		default:
			ix.refs[f.Text(id)]++
		}
	}
	return ix
}

// Callers returns the calls in the file that may run fn (a
// function_definition), and complete=false when fn's name is also used in
// a way that is not a call (so other callers may exist), when fn is a
// forward method (called through the module), or when it has no callers in
// the file at all.
func (f *File) Callers(fn *Node) (calls []*Node, complete bool) {
	if fn == nil || fn.Kind != "function_definition" {
		return nil, false
	}
	name := f.Text(fn.Child("name"))
	if name == "" || name == "forward" || name == "__call__" || strings.HasPrefix(name, "__") {
		return nil, false
	}
	method := fn.Ancestor("class_definition", "function_definition") != nil &&
		fn.Ancestor("class_definition", "function_definition").Kind == "class_definition"
	for _, c := range f.calls.calls[name] {
		callee := Unparen(c.Child("function"))
		if method != (callee.Kind == "attribute") {
			continue
		}
		if c.Start >= fn.Start && c.End <= fn.End {
			continue // recursion says nothing about the outside callers
		}
		calls = append(calls, c)
	}
	return calls, len(calls) > 0 && f.calls.refs[name] == 0
}

// enclosingFunc returns the function_definition whose body holds n, or nil
// at module level or in a lambda.
func enclosingFunc(n *Node) *Node {
	s := Scope(n)
	if s != nil && s.Kind == "function_definition" {
		return s
	}
	return nil
}

// callDepth bounds how far callers of callers are followed.
const callDepth = 4

// RunsGradOff reports whether n runs with autograd off: GradDisabled(n), or
// n's function is only ever called, in this file, from places that run
// with autograd off (followed a few calls up).
func (f *File) RunsGradOff(n *Node) bool {
	return f.runsGradOff(n, callDepth, map[*Node]bool{})
}

func (f *File) runsGradOff(n *Node, depth int, seen map[*Node]bool) bool {
	if f.GradDisabled(n) {
		return true
	}
	fn := enclosingFunc(n)
	if lightningEvalHook(f, fn) {
		return true
	}
	if fn == nil {
		return false
	}
	return f.everyCaller(fn, depth, seen, f.runsGradOff)
}

// everyCaller reports whether fn has callers, all of them in this file, and
// holds(c) for every call c one level up (depth and seen bound the walk, as
// in the functions that pass themselves as holds).
func (f *File) everyCaller(fn *Node, depth int, seen map[*Node]bool, holds func(*Node, int, map[*Node]bool) bool) bool {
	if depth == 0 || seen[fn] {
		return false
	}
	seen[fn] = true
	calls, complete := f.Callers(fn)
	if !complete {
		return false
	}
	for _, c := range calls {
		if !holds(c, depth-1, seen) {
			return false
		}
	}
	return true
}

// PerStep reports whether n runs once per step of a loop: it is inside a
// loop that stepLoop accepts, in a forward method, or in a function that
// some caller in the file runs per step (followed a few calls up).
// stepLoop tells the loops that run training or sampling steps from epoch
// loops and loops over files or settings.
func (f *File) PerStep(n *Node, stepLoop func(loop *Node) bool) bool {
	return f.perStep(n, stepLoop, callDepth, map[*Node]bool{})
}

func (f *File) perStep(n *Node, stepLoop func(*Node) bool, depth int, seen map[*Node]bool) bool {
	for _, l := range Loops(n) {
		if stepLoop(l) {
			return true
		}
	}
	fn := enclosingFunc(n)
	if fn == nil || depth == 0 || seen[fn] {
		return false
	}
	switch f.Text(fn.Child("name")) {
	case "forward", "training_step", "train_step", "validation_step", "test_step", "predict_step":
		return true
	}
	seen[fn] = true
	calls, _ := f.Callers(fn)
	for _, c := range calls {
		if f.perStep(c, stepLoop, depth-1, seen) {
			return true
		}
	}
	return false
}

// Used reports whether code outside fn (a function_definition) calls or
// mentions it by name: a helper nobody in the file uses does not say how
// this program runs.
func (f *File) Used(fn *Node) bool {
	name := f.Text(fn.Child("name"))
	if f.calls.refs[name] > 0 {
		return true
	}
	for _, c := range f.calls.calls[name] {
		if c.Start < fn.Start || c.End > fn.End {
			return true
		}
	}
	return false
}

// GradModeShown reports whether the file shows the grad mode n runs under:
// n is at module level, or its function runs backward or an optimizer step
// (so grad mode is on), or every caller of its function is in this file
// (RunsGradOff has then followed them). A helper that other files call, or
// that is handed out as a callback, runs under whatever grad mode its
// callers choose.
func (f *File) GradModeShown(n *Node) bool {
	return f.gradModeShown(n, callDepth, map[*Node]bool{})
}

// gradModeShown follows callers up: a helper called only by another
// helper that other files call (Decoder.inference, called by
// Tacotron2.inference) shows no more than its caller does.
func (f *File) gradModeShown(n *Node, depth int, seen map[*Node]bool) bool {
	fn := enclosingFunc(n)
	if fn == nil {
		return Scope(n).Is("module")
	}
	if trains(f, fn) || lightningEvalHook(f, fn) {
		return true
	}
	return f.everyCaller(fn, depth, seen, f.gradModeShown)
}

// lightningEvalHook reports whether fn is a method PyTorch Lightning runs
// inside its evaluation loops, which run under torch.no_grad (or
// inference_mode): validation_step, test_step, predict_step and the
// on_validation_*/on_test_*/on_predict_* hooks.
func lightningEvalHook(f *File, fn *Node) bool {
	if fn == nil {
		return false
	}
	cls := fn.Ancestor("class_definition", "function_definition")
	if cls == nil || cls.Kind != "class_definition" {
		return false
	}
	switch name := f.Text(fn.Child("name")); {
	case name == "validation_step" || name == "test_step" || name == "predict_step":
		return true
	case strings.HasPrefix(name, "on_validation_") || strings.HasPrefix(name, "on_test_") || strings.HasPrefix(name, "on_predict_"):
		return true
	}
	return false
}

// trains reports whether fn's own body calls backward or an optimizer's
// step: it runs with grad mode on.
func trains(f *File, fn *Node) bool {
	found := false
	WalkScope(fn.Child("body"), func(n *Node) bool {
		if found || n.Kind != "call" {
			return !found
		}
		if _, ok := f.BackwardOf(n); ok {
			found = true
		} else if m, r := f.Method(n); m == "step" && r != nil && strings.Contains(strings.ToLower(f.Text(r)), "optim") {
			found = true
		}
		return !found
	})
	return found
}

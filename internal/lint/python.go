package lint

import "strings"

// Helpers that give rules a little Python meaning on top of the syntax
// tree: scopes, loops, autograd contexts and backward calls. They are
// deliberately shallow (no data flow across functions), and where they
// cannot tell they lean towards "no finding".

// Scope returns the function (or lambda, or the module) whose body holds n.
func Scope(n *Node) *Node {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Is("function_definition", "lambda", "module") {
			return p
		}
	}
	return nil
}

// Loops returns the for and while statements whose body holds n, innermost
// first, stopping at n's scope.
func Loops(n *Node) []*Node {
	var out []*Node
	child := n
	for p := n.Parent; p != nil; child, p = p, p.Parent {
		if p.Is("function_definition", "lambda", "module", "class_definition") {
			break
		}
		if p.Is("for_statement", "while_statement") && child.Field == "body" {
			out = append(out, p)
		}
	}
	return out
}

// Loop returns the innermost loop whose body holds n, or nil.
func Loop(n *Node) *Node {
	if l := Loops(n); len(l) > 0 {
		return l[0]
	}
	return nil
}

// OutermostLoop returns the outermost loop (within n's scope) whose body
// holds n, or nil.
func OutermostLoop(n *Node) *Node {
	if l := Loops(n); len(l) > 0 {
		return l[len(l)-1]
	}
	return nil
}

// WalkScope walks the nodes under n that run in n's own scope: it does not
// enter nested function or class definitions or lambdas.
func WalkScope(n *Node, fn func(*Node) bool) {
	n.Walk(func(c *Node) bool {
		if c != n && c.Is("function_definition", "class_definition", "lambda", "decorated_definition") {
			return false
		}
		return fn(c)
	})
}

// Calls returns the calls under n in n's scope, in source order.
func Calls(n *Node) []*Node {
	var out []*Node
	WalkScope(n, func(c *Node) bool {
		if c.Kind == "call" {
			out = append(out, c)
		}
		return true
	})
	return out
}

// CalleeName is the last name of a call's function: "no_grad" for
// torch.no_grad(), "model" for model(x).
func (f *File) CalleeName(call *Node) string {
	fn := Unparen(call.Child("function"))
	switch {
	case fn == nil:
		return ""
	case fn.Kind == "identifier":
		return f.Text(fn)
	case fn.Kind == "attribute":
		return f.Text(fn.Child("attribute"))
	}
	return ""
}

// gradOff reports whether a with-item or decorator expression turns autograd
// off: torch.no_grad(), torch.inference_mode(), torch.set_grad_enabled(False)
// — by qualified name, or by the last name alone when the import cannot be
// resolved (leaning towards "no finding").
func (f *File) gradOff(e *Node) bool {
	e = Unparen(e)
	if e == nil {
		return false
	}
	if e.Kind == "as_pattern" {
		if v := e.NamedChildren(); len(v) > 0 {
			return f.gradOff(v[0])
		}
	}
	target := e
	var call *Node
	if e.Kind == "call" {
		call = e
		target = e.Child("function")
	}
	name := ""
	if q := f.QualifiedName(target); q != "" {
		name = q[strings.LastIndexByte(q, '.')+1:]
		if !strings.HasPrefix(q, "torch.") {
			return false
		}
	} else if target.Kind == "identifier" || target.Kind == "attribute" {
		t := f.Text(target)
		name = t[strings.LastIndexByte(t, '.')+1:]
	}
	switch name {
	case "no_grad":
		return true
	case "inference_mode":
		if call == nil {
			return true
		}
		pos, kw, _ := f.Args(call)
		mode := kw["mode"]
		if len(pos) > 0 {
			mode = pos[0]
		}
		return mode == nil || !f.IsFalse(mode)
	case "set_grad_enabled":
		if call == nil {
			return false
		}
		pos, kw, _ := f.Args(call)
		mode := kw["mode"]
		if len(pos) > 0 {
			mode = pos[0]
		}
		return f.IsFalse(mode)
	}
	return false
}

// GradDisabled reports whether n certainly or possibly runs with autograd
// off: it sits inside a with-statement of torch.no_grad() (or
// inference_mode, set_grad_enabled(False)), inside a function decorated
// with one, or after a torch.set_grad_enabled(False) statement in its
// scope. Enclosing functions count too, since a nested function usually
// runs where it is defined.
func (f *File) GradDisabled(n *Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		switch p.Kind {
		case "with_statement":
			for _, c := range p.Children {
				if c.Kind != "with_clause" {
					continue
				}
				for _, item := range c.NamedChildren() {
					if f.gradOff(item.Child("value")) {
						return true
					}
				}
			}
		case "decorated_definition":
			for _, d := range p.NamedChildren() {
				if d.Kind == "decorator" {
					for _, e := range d.NamedChildren() {
						if f.gradOff(e) || gradOffDecorator(f, e) {
							return true
						}
					}
				}
			}
		case "function_definition", "module":
			if off, ok := f.gradOffAt[p]; ok && off < n.Start {
				return true
			}
		}
	}
	return false
}

// gradOffDecorator reports whether a decorator is a project's own wrapper
// of no_grad or inference_mode, recognised by its name
// (@smart_inference_mode(), @torch_no_grad): the wrapper lives in another
// file, and its name is all vramkit can read of it.
func gradOffDecorator(f *File, e *Node) bool {
	e = Unparen(e)
	if e.Kind == "call" {
		e = e.Child("function")
	}
	if !e.Is("identifier", "attribute") {
		return false
	}
	t := strings.ToLower(f.Text(e))
	t = t[strings.LastIndexByte(t, '.')+1:]
	return strings.Contains(t, "inference_mode") || strings.Contains(t, "no_grad")
}

// gradOffStatements maps each scope to the offset of its first
// torch.set_grad_enabled(False) statement.
func gradOffStatements(f *File) map[*Node]int {
	m := map[*Node]int{}
	for _, c := range f.Nodes("call") {
		if f.CalleeName(c) != "set_grad_enabled" || !f.gradOff(c) || c.Parent.Kind != "expression_statement" {
			continue
		}
		s := Scope(c)
		if old, ok := m[s]; !ok || c.Start < old {
			m[s] = c.Start
		}
	}
	return m
}

// Backward is one call that runs autograd's backward pass.
type Backward struct {
	Call *Node
	// Losses are the identifiers the backward pass starts from:
	// loss.backward(), scaler.scale(loss).backward(), (a + b).backward(),
	// accelerator.backward(loss), self.manual_backward(loss).
	Losses []*Node
	// Scalar is true when the loss is certainly a one-element tensor:
	// backward() without a gradient argument only accepts those.
	Scalar bool
	// RetainGraph is the retain_graph argument, if any.
	RetainGraph *Node
}

// Backwards finds the backward calls under region, in its scope.
func (f *File) Backwards(region *Node) []Backward {
	var out []Backward
	for _, call := range Calls(region) {
		if b, ok := f.BackwardOf(call); ok {
			out = append(out, b)
		}
	}
	return out
}

// BackwardOf reports whether call runs a backward pass and from which
// losses.
func (f *File) BackwardOf(call *Node) (Backward, bool) {
	name, recv := f.Method(call)
	if recv == nil || name != "backward" && name != "manual_backward" {
		return Backward{}, false
	}
	pos, kw, star := f.Args(call)
	b := Backward{Call: call, RetainGraph: kw["retain_graph"]}
	switch {
	case name == "manual_backward" || f.QualifiedName(recv) == "torch.autograd" || len(pos) > 0 && f.lossLike(pos[0]):
		// self.manual_backward(loss), torch.autograd.backward(loss),
		// accelerator.backward(loss), engine.backward(loss)
		if len(pos) == 0 {
			return Backward{}, false
		}
		b.Losses = f.lossNames(pos[0])
		b.Scalar = len(pos) == 1 && !star && kw["gradient"] == nil && kw["grad_tensors"] == nil
	default:
		// loss.backward(), out.backward(grad), loss.mean().backward()
		b.Losses = f.lossNames(recv)
		b.Scalar = len(pos) == 0 && !star && kw["gradient"] == nil && !f.reduced(recv)
	}
	return b, true
}

// lossLike reports whether an argument is named like a loss, which tells
// accelerator.backward(loss) from out.backward(grad).
func (f *File) lossLike(n *Node) bool {
	n = Unparen(n)
	return n.Kind == "identifier" && strings.Contains(strings.ToLower(f.Text(n)), "loss")
}

// reduced reports whether a backward receiver is x.mean()/x.sum(): the
// result is scalar but x itself need not be.
func (f *File) reduced(recv *Node) bool {
	recv = Unparen(recv)
	if recv.Kind != "call" {
		return false
	}
	name, _ := f.Method(recv)
	return name == "mean" || name == "sum"
}

// lossNames collects the identifiers a backward receiver is built from.
func (f *File) lossNames(e *Node) []*Node {
	e = Unparen(e)
	switch {
	case e == nil:
		return nil
	case e.Kind == "identifier":
		return []*Node{e}
	case e.Kind == "binary_operator":
		return append(f.lossNames(e.Child("left")), f.lossNames(e.Child("right"))...)
	case e.Kind == "call":
		name, recv := f.Method(e)
		pos, _, _ := f.Args(e)
		switch {
		case name == "scale" && len(pos) == 1: // scaler.scale(loss)
			return f.lossNames(pos[0])
		case (name == "mean" || name == "sum") && recv != nil:
			return f.lossNames(recv)
		}
	}
	return nil
}

// Detaching reports whether a method or attribute gives something that
// rules treat as holding no autograd graph. x.cpu() is on the list although
// a CPU copy of a graph-attached tensor still holds the graph: it is
// usually written under no_grad, and a missed finding beats a false one.
func Detaching(method string) bool {
	switch method {
	case "detach", "detach_", "item", "cpu", "numpy", "tolist", "data":
		return true
	}
	return false
}

package rules

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/lint"
)

// LossAccumulated is M1, the first item of PyTorch's memory FAQ.
var LossAccumulated = &lint.Rule{
	Code: "VK001", Name: "loss-accumulated-with-graph", Severity: lint.Warning, Fixable: true,
	// Policy (bench/lint, all judged findings): a plain running total was
	// right 0/12 times (host memory only), so it is a hint.
	Patterns: map[string]lint.Level{"retain-graph": {Severity: lint.Warning}, "host-total": {Severity: lint.Info, Hint: true}},
	Summary:  "a loss added to a running total in a loop keeps every iteration's autograd graph alive",
	Doc: `Flags "total += loss" and "total = total + loss" inside a for or while loop when
loss is what .backward() runs on in that loop (loss.backward(),
scaler.scale(loss).backward(), accelerator.backward(loss)) and total lives
across iterations.

Memory: loss is a tensor that requires grad, so the sum is one too and its
grad_fn links to every loss added so far (PyTorch FAQ, "Don't accumulate
history across your training loop"). When the loop's backward passes
retain_graph=True, each iteration's saved activations stay alive with it
and GPU memory grows step after step: a warning. Otherwise backward has
already freed the saved activations, and what grows is the chain of graph
nodes in host memory, not GPU memory: reported as a hint (info, shown with
--hints or --select VK001), since the default output is for what costs
GPU memory.

Fix: add a number, total += loss.item() (or float(loss)), or
total += loss.detach() to stay on the GPU without a per-step sync.

--fix rewrites loss to loss.item() when total is provably a Python number: it
starts from a numeric literal in the same function, is only added to, printed
or logged there (never returned, passed on, or used as a tensor), and loss
comes from a plain backward() that requires a one-element tensor.

Blind spots: a loss that reaches .backward() under another name, or only
inside a called function; totals kept in containers other than the
variable, attribute or subscript itself; accumulation in one function and
backward in another; a graph-attached tensor that is not the loss (see VK002).`,
	Run: runLossAccumulated,
}

func runLossAccumulated(p *lint.Pass) {
	f := p.File
	losses := newMemo(func(loop *lint.Node) map[string]bool { return lossVars(f, loop) })
	for _, n := range f.Nodes("augmented_assignment") {
		if f.TextIs(n.Child("operator"), "+=") {
			checkAccumulation(p, losses, n, n.Child("left"), n.Child("right"))
		}
	}
	for _, n := range f.Nodes("assignment") {
		left, right := n.Child("left"), lint.Unparen(n.Child("right"))
		if right.Is("binary_operator") && f.TextIs(right.Child("operator"), "+") && left != nil &&
			f.Text(lint.Unparen(right.Child("left"))) == f.Text(left) {
			checkAccumulation(p, losses, n, left, right.Child("right"))
		}
	}
}

func checkAccumulation(p *lint.Pass, lossesOf *memo[map[string]bool], stmt, target, rhs *lint.Node) {
	f := p.File
	inner, outer := lint.Loop(stmt), lint.OutermostLoop(stmt)
	if outer == nil || target == nil || !target.Is("identifier", "attribute", "subscript") || f.GradDisabled(stmt) {
		return
	}
	acc := f.Text(target)
	if resetIn(f, inner.Child("body"), acc) {
		return // reset every iteration: building a loss, not a running total
	}
	losses := lossesOf.get(outer)
	if _, ok := losses[acc]; ok {
		return // loss = loss + aux: still building the loss
	}
	var found []*lint.Node
	rhs.Walk(func(n *lint.Node) bool {
		if n.Kind == "identifier" && bareOperand(n, rhs) {
			if _, ok := losses[f.Text(n)]; ok {
				found = append(found, n)
			}
		}
		return n.Is("binary_operator", "parenthesized_expression", "unary_operator") || n == rhs
	})
	if len(found) == 0 {
		return
	}
	loss := f.Text(found[0])
	msg := fmt.Sprintf("%s accumulates %s with its autograd graph: every iteration's graph and saved activations stay alive, so memory grows each step", acc, loss)
	hint := false
	if !retainsGraph(f, outer, loss) {
		// backward() frees each step's saved activations: what the total
		// keeps is the chain of graph nodes, in host memory.
		hint = true
		msg = fmt.Sprintf("%s accumulates %s with its autograd graph (the PyTorch FAQ's \"accumulating history\"): backward frees each step's saved activations, but the total keeps every step's graph nodes in host memory and stays a tensor that requires grad", acc, loss)
	}
	fix := fmt.Sprintf("add a number: %s += %s.item() (or %s.detach() to avoid a sync)", acc, loss, loss)
	var edits []lint.Edit
	if numberAccumulator(f, stmt, target, outer) {
		for _, id := range found {
			if !losses[f.Text(id)] {
				edits = nil
				break
			}
			edits = append(edits, lint.Edit{Start: id.End, End: id.End, New: ".item()"})
		}
	}
	if hint {
		p.ReportPattern("host-total", stmt, msg, fix, edits...)
		return
	}
	p.ReportPattern("retain-graph", stmt, msg, fix, edits...)
}

// retainsGraph reports whether a backward in region that starts from loss
// passes retain_graph (other than False): then the saved activations
// outlive the backward, and a total holding the loss holds them too.
func retainsGraph(f *lint.File, region *lint.Node, loss string) bool {
	for _, b := range f.Backwards(region) {
		if b.RetainGraph == nil || f.IsFalse(lint.Unparen(b.RetainGraph)) {
			continue
		}
		for _, l := range b.Losses {
			if f.TextIs(l, loss) {
				return true
			}
		}
	}
	return false
}

// lossVars maps the names backward() starts from in region to whether
// the loss is certainly a one-element tensor.
func lossVars(f *lint.File, region *lint.Node) map[string]bool {
	out := map[string]bool{}
	for _, b := range f.Backwards(region) {
		for _, l := range b.Losses {
			name := f.Text(l)
			out[name] = out[name] || b.Scalar
		}
	}
	return out
}

// resetIn reports whether region assigns name a value that does not
// depend on name itself (total = 0, not total = total + x).
func resetIn(f *lint.File, region *lint.Node, name string) bool {
	reset := false
	lint.WalkScope(region, func(n *lint.Node) bool {
		if reset || n.Kind != "assignment" || f.Text(n.Child("left")) != name {
			return !reset
		}
		uses := false
		n.Child("right").Walk(func(c *lint.Node) bool {
			uses = uses || f.TextIs(c, name)
			return !uses
		})
		reset = !uses
		return !reset
	})
	return reset
}

// bareOperand reports whether id is used as a value in arithmetic up to
// root, not as the object of a method call or an argument.
func bareOperand(id, root *lint.Node) bool {
	for n := id; n != root; n = n.Parent {
		if p := n.Parent; p == nil || !p.Is("binary_operator", "parenthesized_expression", "unary_operator") {
			return false
		}
	}
	return true
}

// numberAccumulator reports whether target is a plain variable that is
// provably a Python number apart from the tensor being added: initialised
// from a numeric literal before the loop, and otherwise only added to,
// printed or logged in its function.
func numberAccumulator(f *lint.File, stmt, target, loop *lint.Node) bool {
	if target.Kind != "identifier" {
		return false
	}
	name := f.Text(target)
	scope := lint.Scope(stmt)
	initialised, ok := false, true
	scope.Walk(func(n *lint.Node) bool {
		if !ok || n.Kind != "identifier" || !f.TextIs(n, name) || n.Field == "attribute" || n.Field == "name" && n.Parent.Kind == "keyword_argument" {
			return ok
		}
		if lint.Scope(n) != scope {
			ok = false // used by a nested function: it may need a tensor
			return false
		}
		par := n.Parent
		switch {
		case par.Kind == "assignment" && n.Field == "left":
			r := lint.Unparen(par.Child("right"))
			switch {
			case r.Is("integer", "float"):
				if par.End <= loop.Start {
					initialised = true
				}
			case r.Is("binary_operator") && f.Text(lint.Unparen(r.Child("left"))) == name:
			default:
				ok = false
			}
		case par.Kind == "augmented_assignment" && n.Field == "left":
		default:
			ok = reportedOnly(f, n, name)
		}
		return ok
	})
	return ok && initialised
}

// reportedOnly reports whether the value of id only flows, through
// arithmetic and string formatting, into a print or log call or back into
// an update of the accumulator itself.
func reportedOnly(f *lint.File, id *lint.Node, name string) bool {
	for n := id.Parent; n != nil; n = n.Parent {
		switch n.Kind {
		case "binary_operator", "parenthesized_expression", "unary_operator", "interpolation",
			"string", "concatenated_string", "argument_list", "keyword_argument", "format_specifier", "comparison_operator":
			continue
		case "call":
			switch f.CalleeName(n) {
			case "format", "round", "float", "int", "str", "abs":
				continue // still a number or a string
			case "print", "info", "debug", "warning", "log", "add_scalar", "add_scalars", "write",
				"set_postfix", "set_postfix_str", "set_description":
				return true
			}
			return false
		case "assignment", "augmented_assignment":
			return f.Text(n.Child("left")) == name
		default:
			return false
		}
	}
	return false
}

package rules

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/lint"
)

// GraphAppended is M2: tracking statistics with graph-attached tensors.
var GraphAppended = &lint.Rule{
	Code: "VK002", Name: "graph-tensor-kept-in-list", Severity: lint.Warning,
	// Policy (bench/lint): a kept loss costs one element and the graph's
	// nodes per step (backward freed its saved activations), so it is info.
	// It was judged once (debatable): too few findings to move it.
	Patterns: map[string]lint.Level{"retain-graph": {Severity: lint.Warning}, "output": {Severity: lint.Warning}, "loss": {Severity: lint.Info}},
	Summary:  "a tensor from the autograd graph appended to a list in a training loop keeps each step's graph alive",
	Doc: `Flags xs.append(t), xs.extend([t]) and xs += [t] inside a loop that calls
.backward(), when t is the loss that backward runs on, or a model output the
loss was computed from (out = model(x); loss = criterion(out, y)), and the
list outlives the iteration.

Memory: each stored tensor stays alive with its grad_fn (FAQ: "Don't
accumulate history across your training loop"). backward() frees each
step's saved activations, so what grows is the stored tensors themselves —
model outputs, often batch x classes or batch x vocabulary, stay on the GPU
(a warning) — and the graph's nodes; a stored loss is one element (info).
With retain_graph=True the saved activations stay too (a warning).

Fix: store losses.append(loss.item()) for scalars, or
outputs.append(out.detach()) (and .cpu() to free GPU memory).

Blind spots: only tensors named by the loss or by a direct input of the
loss's assignment are tracked; outputs stored under another name, through a
helper, in a dict, or appended after an unrelated call on them
(out.argmax(1) is not flagged) are missed. .cpu() counts as detaching, which it
does not (a CPU copy keeps the graph); loops under torch.no_grad() are skipped.`,
	Run: runGraphAppended,
}

func runGraphAppended(p *lint.Pass) {
	f := p.File
	seen := map[string]bool{}
	models := modelNames(f)
	graphs := newMemo(func(loop *lint.Node) map[string]string { return graphVars(f, loop, models) })
	check := func(stmt, container, elem *lint.Node) {
		inner, outer := lint.Loop(stmt), lint.OutermostLoop(stmt)
		if outer == nil || container == nil || f.GradDisabled(stmt) {
			return
		}
		list := f.Text(container)
		if resetIn(f, inner.Child("body"), list) {
			return // a fresh list every iteration
		}
		graph := graphs.get(outer)
		root, ok := plainChain(f, elem)
		if !ok {
			return
		}
		kind, ok := graph[f.Text(root)]
		if !ok || madeWithoutGrad(f, inner, stmt, f.Text(root), 2) {
			return
		}
		key := fmt.Sprint(outer.Start, list, f.Text(elem))
		if seen[key] {
			return
		}
		seen[key] = true
		e := f.Text(elem)
		fix := fmt.Sprintf("store %s.item() for a scalar, or %s.detach() (.detach().cpu() to free GPU memory)", e, e)
		switch {
		case retainedIn(f, outer):
			p.ReportPattern("retain-graph", stmt, fmt.Sprintf("%s keeps %s (%s) with its autograd graph: every iteration's graph and saved activations stay alive, so memory grows each step", list, e, kind), fix)
		case kind == "the loss":
			// backward freed the saved activations: what stays is a
			// one-element tensor and the graph's nodes per step.
			p.ReportPattern("loss", stmt, fmt.Sprintf("%s keeps %s (the loss) with its autograd graph: backward has freed the saved activations, but every step's loss tensor and graph nodes stay alive", list, e), fix)
		default:
			p.ReportPattern("output", stmt, fmt.Sprintf("%s keeps %s (%s) with its autograd graph: backward has freed the saved activations, but every step's output stays on the GPU with its graph, so memory grows each step", list, e, kind), fix)
		}
	}
	for _, call := range f.Nodes("call") {
		name, recv := f.Method(call)
		pos, kw, star := f.Args(call)
		if len(pos) != 1 || len(kw) > 0 || star {
			continue
		}
		switch name {
		case "append":
			check(call, recv, pos[0])
		case "extend":
			for _, e := range listItems(pos[0]) {
				check(call, recv, e)
			}
		}
	}
	for _, n := range f.Nodes("augmented_assignment") {
		if f.TextIs(n.Child("operator"), "+=") {
			for _, e := range listItems(n.Child("right")) {
				check(n, n.Child("left"), e)
			}
		}
	}
}

func listItems(n *lint.Node) []*lint.Node {
	n = lint.Unparen(n)
	if n.Is("list", "tuple") {
		return n.NamedChildren()
	}
	return nil
}

// plainChain returns the identifier at the root of x, x.attr or x[i]
// chains; ok is false for anything else or when the chain detaches.
func plainChain(f *lint.File, n *lint.Node) (*lint.Node, bool) {
	for {
		n = lint.Unparen(n)
		switch n.Kind {
		case "identifier":
			return n, true
		case "attribute":
			if lint.Detaching(f.Text(n.Child("attribute"))) {
				return nil, false
			}
			n = n.Child("object")
		case "subscript":
			n = n.Child("value")
		default:
			return nil, false
		}
	}
}

// graphVars names the tensors of region that certainly hold the autograd
// graph: the losses backward() runs on, and the variables assigned from a
// model call in region that the loss's own assignment reads (out in
// "out = model(x); loss = criterion(out, y)"), or that are assigned by the
// same model call as the loss ("logits, loss = model(x, y)").
func graphVars(f *lint.File, region *lint.Node, models map[string]bool) map[string]string {
	out := map[string]string{}
	fromModel := map[string]bool{}
	var assigns []*lint.Node
	lint.WalkScope(region, func(n *lint.Node) bool {
		if n.Kind == "assignment" {
			assigns = append(assigns, n)
			if modelCall(f, n.Child("right"), models) {
				for _, t := range targets(n.Child("left")) {
					fromModel[f.Text(t)] = true
				}
			}
		}
		return true
	})
	for name := range lossVars(f, region) {
		out[name] = "the loss"
	}
	for _, a := range assigns {
		ts := targets(a.Child("left"))
		isLoss := false
		for _, t := range ts {
			if out[f.Text(t)] == "the loss" {
				isLoss = true
			}
		}
		if !isLoss {
			continue
		}
		for _, t := range ts {
			if _, ok := out[f.Text(t)]; !ok && modelCall(f, a.Child("right"), models) {
				out[f.Text(t)] = "an output of the forward pass that gives the loss"
			}
		}
		a.Child("right").Walk(func(c *lint.Node) bool {
			if c.Kind == "identifier" && c.Field != "attribute" && fromModel[f.Text(c)] {
				if _, ok := out[f.Text(c)]; !ok {
					out[f.Text(c)] = "a model output the loss is computed from"
				}
			}
			return true
		})
	}
	return out
}

// targets lists the identifiers an assignment target binds.
func targets(n *lint.Node) []*lint.Node {
	n = lint.Unparen(n)
	switch {
	case n == nil:
		return nil
	case n.Kind == "identifier":
		return []*lint.Node{n}
	case n.Is("pattern_list", "tuple_pattern", "list_pattern", "tuple", "list"):
		var out []*lint.Node
		for _, c := range n.NamedChildren() {
			out = append(out, targets(c)...)
		}
		return out
	}
	return nil
}

// madeWithoutGrad reports whether name, as stmt sees it, was last assigned
// in loop's body from a value computed with autograd off: under no_grad
// itself (outputs = model(x) in a with torch.no_grad() block), or from a
// name that was (loss = outputs.loss after that block). depth bounds how
// many assignments back are followed.
func madeWithoutGrad(f *lint.File, loop, stmt *lint.Node, name string, depth int) bool {
	var last *lint.Node
	lint.WalkScope(loop.Child("body"), func(n *lint.Node) bool {
		if n.Start >= stmt.Start {
			return false
		}
		if n.Kind == "assignment" {
			for _, t := range targets(n.Child("left")) {
				if f.TextIs(t, name) {
					last = n
				}
			}
		}
		return true
	})
	if last == nil {
		return false
	}
	if f.RunsGradOff(last) {
		return true
	}
	if depth == 0 {
		return false
	}
	root, ok := plainChain(f, last.Child("right"))
	return ok && !f.TextIs(root, name) && madeWithoutGrad(f, loop, last, f.Text(root), depth-1)
}

// retainedIn reports whether a backward in region passes retain_graph
// (other than False), so that saved activations outlive it.
func retainedIn(f *lint.File, region *lint.Node) bool {
	for _, b := range f.Backwards(region) {
		if b.RetainGraph != nil && !f.IsFalse(lint.Unparen(b.RetainGraph)) {
			return true
		}
	}
	return false
}

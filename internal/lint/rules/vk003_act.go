package rules

import (
	"fmt"
	"regexp"

	"github.com/vramkit/vramkit/internal/lint"
)

// actionSelector matches the names RL code gives the function that picks
// an action from a policy or Q network once per environment step: act,
// select_action, get_action, choose_action (selectAction in camel case).
var actionSelector = regexp.MustCompile(`(?i)^_*(act|(select|get|choose|take|pick|sample)_?actions?)$`)

// actForwards reports forwards in action selectors (DQN's act(state,
// epsilon)) whose output only ever reaches the caller as an action read
// back from it, followed through the names it is bound to:
//
//	qvalues = self.forward(state).mean(2)
//	action = qvalues.max(1)[1]
//
// The training loop calls the selector once per environment step, and
// each call records a graph (and saves its activations) for a backward
// that never comes. Forwards the read-back pattern already reported are
// not reported again. A selector whose forward output goes anywhere else
// — into Categorical(probs), a list of log-probs, a returned tensor — is
// left alone: REINFORCE and actor-critic train through it.
func actForwards(p *lint.Pass, fw *forwards, frozen map[string]bool, done map[*lint.Node]bool, report func(pattern string, scope, fwd *lint.Node, msg string)) {
	f := p.File
	for _, fn := range f.Nodes("function_definition") {
		name := f.Text(fn.Child("name"))
		if done[fn] || !actionSelector.MatchString(name) || unitTest(f, fn) || trainsHere(f, fn) {
			continue
		}
		for _, c := range lint.Calls(fn.Child("body")) {
			if done[lint.Scope(c)] || !fw.call(c) && !policySample(f, fw, c) || f.RunsGradOff(c) || frozenCall(f, c, frozen) || !actionRead(f, fn, c) {
				continue
			}
			report("act", fn, c, fmt.Sprintf("%s(...) runs with autograd on in the action selector %s(), whose output is only read back as an action: each environment step records a graph, and saves its activations, for a backward that never comes",
				f.Text(c.Child("function")), name))
			break
		}
	}
}

// How a value flows out of the expression that produced it.
const (
	flowOther = iota // anywhere else: an argument, a return, a container
	flowCut          // through a read that has no graph (.item(), .max(1)[1])
	flowBound        // into a plain name (q = ...), the graph still attached
)

// flowUp follows n up through method calls, attributes and subscripts on
// it, and says where its value goes: cut by a read that leaves no graph
// behind, bound to a name (then the assignment is returned), or elsewhere.
func flowUp(f *lint.File, n *lint.Node) (int, *lint.Node) {
	for u := n; ; {
		par := u.Parent
		switch {
		case par == nil:
			return flowOther, nil
		case par.Is("parenthesized_expression"):
			u = par
		case par.Is("attribute") && u.Field == "object":
			if m := f.Text(par.Child("attribute")); lint.Detaching(m) && m != "cpu" || m == "argmax" || m == "argmin" || m == "indices" {
				return flowCut, nil
			}
			u = par
		case par.Is("call") && u.Field == "function":
			u = par
		case par.Is("subscript") && u.Field == "value":
			if indices(f, u, par) {
				return flowCut, nil
			}
			u = par
		case par.Is("argument_list") && graphFreeCall(f, par.Parent, u):
			return flowCut, nil // torch.argmax(q, 1)
		case par.Is("assignment") && u.Field == "right" && boundName(f, par) != "":
			return flowBound, par
		default:
			return flowOther, nil
		}
	}
}

// graphFreeCall reports whether call takes arg as its first positional
// argument and returns integers, which carry no graph: torch.argmax(q, 1).
func graphFreeCall(f *lint.File, call, arg *lint.Node) bool {
	pos, _, _ := f.Args(call)
	if len(pos) == 0 || pos[0] != arg {
		return false
	}
	switch f.QualifiedName(call.Child("function")) {
	case "torch.argmax", "torch.argmin", "torch.argsort":
		return true
	}
	return false
}

// indices reports whether sub takes the indices out of v, a reduction that
// returns (values, indices): q.max(1)[1], q.topk(k)[1]. Indices are
// integers and carry no graph.
func indices(f *lint.File, v, sub *lint.Node) bool {
	if !f.TextIs(sub.Child("subscript"), "1") || !v.Is("call") {
		return false
	}
	m, _ := f.Method(v)
	pos, kw, _ := f.Args(v)
	switch m {
	case "max", "min", "topk", "sort", "kthvalue", "mode", "median":
		return len(pos)+len(kw) > 0 || m == "sort" || m == "topk"
	}
	return false
}

// actionRead reports whether the output of forward c, in fn, is only read
// back through graph-free reads, following it through the names it is
// assigned to (at most three hops); at least one read must be seen. Any
// other use may carry the graph on to a loss and fails.
func actionRead(f *lint.File, fn, c *lint.Node) bool {
	switch kind, a := flowUp(f, c); kind {
	case flowCut:
		return true
	case flowBound:
		return nameRead(f, fn, a, 0)
	}
	return false
}

// nameRead reports whether the name that assignment a binds is, from
// there on in fn and until it is bound to another value, only read
// through graph-free reads (or handed to another name that is).
func nameRead(f *lint.File, fn, a *lint.Node, depth int) bool {
	name := boundName(f, a)
	var uses []*lint.Node
	lint.WalkScope(fn.Child("body"), func(n *lint.Node) bool {
		if n.Start >= a.End && n.Kind == "identifier" && f.TextIs(n, name) && n.Field != "attribute" && !(n.Parent.Is("keyword_argument") && n.Field == "name") {
			uses = append(uses, n)
		}
		return true
	})
	reads, kill := 0, -1
	for _, n := range uses {
		if kill >= 0 && n.Start >= kill {
			break
		}
		if asg := assignedBy(n); asg != nil {
			if exclusive(a, asg) {
				continue // the other branch of an if: this value is not there
			}
			if !mentions(f, asg.Child("right"), name) {
				break // bound to another value from here on
			}
			continue // its right-hand side says what the name holds
		}
		switch kind, next := flowUp(f, n); kind {
		case flowCut:
			reads++
			if s := n.Ancestor("assignment", "function_definition"); s.Is("assignment") && f.TextIs(s.Child("left"), name) {
				kill = s.End // action = action.data.cpu().numpy(): a host value now
			}
		case flowBound:
			if boundName(f, next) == name {
				continue // q = q.mean(2): the same graph, same name
			}
			if depth >= 2 || !nameRead(f, fn, next, depth+1) {
				return false
			}
			reads++
		default:
			return false
		}
	}
	return reads > 0
}

// policySample reports whether c samples an action from a policy network
// of the file — self.policy.sample(state) in SAC's select_action — a
// model-like receiver's sample(), which RL policies implement as a
// reparameterised forward, with autograd.
func policySample(f *lint.File, fw *forwards, c *lint.Node) bool {
	m, recv := f.Method(c)
	return m == "sample" && recv != nil && fw.model(recv)
}

// boundName is the one name assignment a binds: q in q = ..., action in
// action, _, _ = ... (the other targets thrown away as _), or "".
func boundName(f *lint.File, a *lint.Node) string {
	left := a.Child("left")
	if left.Is("identifier") {
		return f.Text(left)
	}
	if !left.Is("pattern_list", "tuple_pattern") {
		return ""
	}
	name := ""
	for _, t := range left.NamedChildren() {
		switch {
		case !t.Is("identifier"):
			return ""
		case f.TextIs(t, "_"):
		case name != "":
			return ""
		default:
			name = f.Text(t)
		}
	}
	return name
}

// assignedBy returns the assignment whose target n is (alone or in a
// tuple), or nil.
func assignedBy(n *lint.Node) *lint.Node {
	u := n
	for u.Parent.Is("pattern_list", "tuple_pattern") {
		u = u.Parent
	}
	if u.Parent.Is("assignment") && u.Field == "left" {
		return u.Parent
	}
	return nil
}

// exclusive reports whether a and b sit in different branches of one if
// statement, so that at most one of them runs.
func exclusive(a, b *lint.Node) bool {
	for ifs := a.Ancestor("if_statement"); ifs != nil; ifs = ifs.Ancestor("if_statement") {
		if b.Start < ifs.Start || b.End > ifs.End {
			continue
		}
		ba, bb := branchOf(ifs, a), branchOf(ifs, b)
		return ba != nil && bb != nil && ba != bb
	}
	return false
}

// branchOf returns the child of ifs (its body, an elif or the else) that
// holds n, or nil when n is in the condition.
func branchOf(ifs, n *lint.Node) *lint.Node {
	for _, c := range ifs.NamedChildren() {
		if c.Field != "condition" && n.Start >= c.Start && n.End <= c.End {
			return c
		}
	}
	return nil
}

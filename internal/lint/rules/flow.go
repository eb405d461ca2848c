package rules

import "github.com/vramkit/vramkit/internal/lint"

// lossInputs returns the names whose values flow, inside fn, into a loss
// that fn runs backward on: the losses themselves and, transitively, every
// name on the right of an assignment to one of them (loss = -torch.min(surr1,
// surr2) + c * values makes surr1, surr2 and values inputs, and so on back).
func lossInputs(f *lint.File, fn *lint.Node) map[string]bool {
	body := fn.Child("body")
	deps := map[string]bool{}
	for _, b := range f.Backwards(body) {
		for _, l := range b.Losses {
			deps[f.Text(l)] = true
		}
	}
	if len(deps) == 0 {
		return deps
	}
	type flow struct {
		to   []string
		from *lint.Node
	}
	var flows []flow
	lint.WalkScope(body, func(n *lint.Node) bool {
		if n.Is("assignment", "augmented_assignment") && n.Child("right") != nil {
			var to []string
			for _, t := range targets(n.Child("left")) {
				to = append(to, f.Text(t))
			}
			flows = append(flows, flow{to, n.Child("right")})
		}
		return true
	})
	for changed := true; changed; {
		changed = false
		for _, fl := range flows {
			hit := false
			for _, t := range fl.to {
				hit = hit || deps[t]
			}
			if !hit {
				continue
			}
			fl.from.Walk(func(n *lint.Node) bool {
				if n.Kind == "identifier" && n.Field != "attribute" && !deps[f.Text(n)] {
					deps[f.Text(n)] = true
					changed = true
				}
				return true
			})
		}
	}
	return deps
}

// feedsLoss reports whether every call of fn in the file assigns its
// result to names that flow into a loss the calling function runs
// backward on: PPO's logprobs, values, entropy =
// self.policy.evaluate(states, actions) is the update's forward, whatever
// the helper is called.
func feedsLoss(f *lint.File, fn *lint.Node) bool {
	calls, _ := f.Callers(fn)
	if len(calls) == 0 {
		return false
	}
	for _, c := range calls {
		caller := lint.Scope(c)
		a := c.Parent
		if !caller.Is("function_definition") || !a.Is("assignment") || c.Field != "right" {
			return false
		}
		deps := lossInputs(f, caller)
		fed := false
		for _, t := range targets(a.Child("left")) {
			fed = fed || deps[f.Text(t)]
		}
		if !fed {
			return false
		}
	}
	return true
}

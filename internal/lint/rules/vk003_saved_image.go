package rules

import (
	"regexp"

	"github.com/vramkit/vramkit/internal/lint"
)

// VK003's "saved-image" shape: a forward whose output is only written or
// logged as an image (fake = netG(fixed_noise); save_image(fake.detach())).

// saveLike matches calls that write or log images.
var saveLike = regexp.MustCompile(`(?i)(save_image|imsave|imwrite|make_grid|add_image|log_image|savefig|imshow)`)

// savedNames lists the identifiers that appear in the arguments of image
// writers anywhere in the file: only assignments to those names can be
// forwards whose output is only saved.
func savedNames(f *lint.File) map[string]bool {
	m := map[string]bool{}
	for _, c := range f.Nodes("call") {
		name := f.CalleeName(c)
		if len(name) < 6 || !saveLike.MatchString(name) {
			continue
		}
		c.Child("arguments").Walk(func(n *lint.Node) bool {
			if n.Kind == "identifier" && n.Field != "attribute" {
				m[f.Text(n)] = true
			}
			return true
		})
	}
	return m
}

// savedOnlyForward reports whether assignment a binds one name to a model
// call that runs with autograd on and every later use of that name in
// scope (until it is assigned again) only feeds an image writer, directly
// or through .detach(), .data, .cpu() or indexing.
func savedOnlyForward(f *lint.File, scope, a *lint.Node, fw *forwards, saved map[string]bool) (*lint.Node, bool) {
	left, right := a.Child("left"), lint.Unparen(a.Child("right"))
	if left.Is("pattern_list", "tuple_pattern") {
		// fake, _, _ = self.G(z): follow the first output.
		if ts := targets(left); len(ts) > 0 {
			left = ts[0]
		}
	}
	// fake = net_G(z).cpu(): look through detaching calls to the forward.
	for right.Is("call") && !fw.call(right) {
		m, recv := f.Method(right)
		if recv == nil || !lint.Detaching(m) {
			break
		}
		right = lint.Unparen(recv)
	}
	if !left.Is("identifier") || !fw.call(right) || constructor(f, right, fw.models) || f.RunsGradOff(a) {
		return nil, false
	}
	name := f.Text(left)
	uses, ok := 0, true
	lint.WalkScope(scope, func(n *lint.Node) bool {
		if !ok || n.End <= a.End {
			return ok
		}
		if n.Kind == "assignment" && n.Start > a.End && assigns(f, n, name) && !mentions(f, n.Child("right"), name) {
			ok = ok && uses > 0 // name now holds something else
			return false
		}
		if n.Kind != "identifier" || !f.TextIs(n, name) || n.Field == "attribute" || n.Field == "left" && n.Parent.Is("assignment") {
			return true
		}
		uses++
		u := n
		for {
			par := u.Parent
			if par.Is("attribute") && u.Field == "object" {
				u = par // .detach(), .data, .cpu(), .mul(0.5)...
			} else if par.Is("call") && u.Field == "function" {
				u = par
			} else if par.Is("subscript") && u.Field == "value" {
				u = par
			} else if par.Is("binary_operator", "parenthesized_expression") {
				u = par // (samples + 1) / 2
			} else if par.Is("argument_list") && !saveLike.MatchString(f.CalleeName(par.Parent)) && !fw.call(par.Parent) && len(par.NamedChildren()) == 1 {
				u = par.Parent // denorm(samples), a one-argument transform
			} else {
				break
			}
		}
		switch par := u.Parent; {
		case par.Is("assignment") && u.Field == "right" && (assigns(f, par, name) || saved[f.Text(par.Child("left"))] && sameScope(par, a)):
			// samples = samples.mul(0.5); grid = make_grid(samples) is
			// checked at the call, or grid = (samples + 1) / 2 then saved.
		case par.Is("argument_list") && saveLike.MatchString(f.CalleeName(par.Parent)):
		default:
			ok = false
		}
		return true
	})
	return right, ok && uses > 0
}

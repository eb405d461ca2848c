package rules

import (
	"regexp"
	"strings"

	"github.com/vramkit/vramkit/internal/lint"
)

// modelNames returns the expressions (as text) that the file treats as
// models: receivers of .train(), .eval(), .parameters() and
// .named_parameters().
//
// Functions the file defines are recorded as "def NAME" so that modelCall
// can tell validate_network(...) (a helper) from network(...) (a model).
func modelNames(f *lint.File) map[string]bool {
	m := map[string]bool{}
	for _, fn := range f.Nodes("function_definition") {
		if lint.Scope(fn).Is("module") {
			m["def "+f.Text(fn.Child("name"))] = true
		}
	}
	for _, call := range f.Nodes("call") {
		switch name, recv := f.Method(call); name {
		case "train", "eval", "parameters", "named_parameters":
			if recv.Is("identifier", "attribute") {
				m[f.Text(recv)] = true
			}
		}
	}
	return m
}

var modelLikeName = regexp.MustCompile(`(?i)(^|[._])(model|net|network|module|encoder|decoder|generator|discriminator|backbone|transformer|policy|critic|unet|vae)$`)

// verbName matches helper names that merely mention a model: save_model,
// load_network, build_generator, get_model...
var verbName = regexp.MustCompile(`(?i)^_*(add|register|save|load|build|get|create|make|init|initiali[sz]e|print|update|freeze|unfreeze|unwrap|wrap|prepare|setup|set|copy|export|restore|reset|count|log|summari[sz]e|validate|evaluate|test|train)_`)

// modelCall reports whether e calls a model: a name from modelNames, one
// named like a model (model, net, self.encoder, ...), or its forward.
func modelCall(f *lint.File, e *lint.Node, models map[string]bool) bool {
	e = lint.Unparen(e)
	if !e.Is("call") {
		return false
	}
	fn := lint.Unparen(e.Child("function"))
	if !fn.Is("identifier", "attribute") {
		return false
	}
	if fn.Kind == "attribute" && f.TextIs(fn.Child("attribute"), "forward") {
		fn = fn.Child("object")
	}
	t := f.Text(fn)
	if fn.Kind == "identifier" && models["def "+t] {
		return false
	}
	if !models[t] && verbName.MatchString(t[strings.LastIndexByte(t, '.')+1:]) {
		return false // self.save_model(), load_model(...): helpers, not forwards
	}
	if !models[t] && f.QualifiedName(fn) != "" {
		// idist.auto_model(model), torchvision.models.resnet50(): a
		// library function reached through an import, not a forward.
		return false
	}
	return models[t] || modelLikeName.MatchString(t)
}

// removeArg is the edit that deletes one argument of a call with its
// separating comma. ok is false when comments in the list make that unsafe.
func removeArg(f *lint.File, call, arg *lint.Node) (lint.Edit, bool) {
	al := call.Child("arguments")
	var args []*lint.Node
	for _, c := range al.Children {
		if c.Kind == "comment" {
			return lint.Edit{}, false
		}
		if c.Named {
			args = append(args, c)
		}
	}
	i := -1
	for j, a := range args {
		if a == arg {
			i = j
		}
	}
	switch {
	case i < 0:
		return lint.Edit{}, false
	case len(args) == 1:
		return lint.Edit{Start: al.Start, End: al.End, New: "()"}, true
	case i == len(args)-1:
		return lint.Edit{Start: args[i-1].End, End: arg.End}, true
	default:
		return lint.Edit{Start: arg.Start, End: args[i+1].Start}, true
	}
}

// insertKeyword is the edit that adds "name=value" as the last argument.
func insertKeyword(f *lint.File, call *lint.Node, kw string) (lint.Edit, bool) {
	al := call.Child("arguments")
	if al == nil || al.Kind != "argument_list" {
		return lint.Edit{}, false
	}
	var last *lint.Node
	for _, c := range al.Children {
		if c.Kind == "comment" {
			return lint.Edit{}, false
		}
		if c.Named {
			last = c
		}
	}
	if last == nil {
		return lint.Edit{Start: al.Start, End: al.End, New: "(" + kw + ")"}, true
	}
	return lint.Edit{Start: last.End, End: last.End, New: ", " + kw}, true
}

// memo caches a per-node computation for the length of one rule run.
type memo[T any] struct {
	m  map[*lint.Node]T
	fn func(*lint.Node) T
}

func newMemo[T any](fn func(*lint.Node) T) *memo[T] {
	return &memo[T]{m: map[*lint.Node]T{}, fn: fn}
}

func (c *memo[T]) get(n *lint.Node) T {
	v, ok := c.m[n]
	if !ok {
		v = c.fn(n)
		c.m[n] = v
	}
	return v
}

// stepLooper returns the test PerStep uses for "a loop of training or
// sampling steps": a loop whose body runs a model, a backward pass or an
// optimizer step, and whose variable is not an epoch counter (once per
// epoch is setup, not a step).
func stepLooper(f *lint.File, models map[string]bool) func(*lint.Node) bool {
	return newMemo(func(loop *lint.Node) bool {
		if l := loop.Child("left"); l != nil && strings.Contains(strings.ToLower(f.Text(l)), "epoch") {
			return false
		}
		step := false
		lint.WalkScope(loop.Child("body"), func(n *lint.Node) bool {
			if step || n.Kind != "call" {
				return !step
			}
			if _, ok := f.BackwardOf(n); ok || modelCall(f, n, models) {
				step = true
			} else if m, r := f.Method(n); m == "step" && r != nil && strings.Contains(strings.ToLower(f.Text(r)), "optim") {
				step = true
			}
			return !step
		})
		return step
	}).get
}

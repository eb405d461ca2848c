package rules

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/vramkit/vramkit/internal/lint"
)

// LoopTemporary is M12, FAQ item "Don't hold onto tensors and variables
// you don't need".
var LoopTemporary = &lint.Rule{
	Code: "VK012", Name: "loop-temporary-outlives-loop", Severity: lint.Info, Hint: true,
	Summary: "a model output assigned in a loop stays alive after the loop while the function goes on to more GPU work",
	Doc: `Flags a variable assigned from a model call inside a loop (out = model(x),
logits, loss = model(x, y)) when the variable is never mentioned after the
loop, and the same function then does more GPU work: another loop that calls
a model or runs backward, or a model call.

Memory: Python has no block scope. After the loop ends, the last iteration's
output (and whatever graph it still holds) stays referenced until the
function returns, so the next phase — typically validation right after a
training loop — runs with that memory still allocated (PyTorch FAQ: "Don't
hold onto tensors and variables you don't need"; "intermediate" stays alive
after the loop).

Fix: del out, loss after the loop (or move the loop into its own function).

Not flagged: __init__ methods and constructors (Encoder(...) building a
submodule is not a model output), and outputs computed with autograd off.

Blind spots: only model calls count as large (big tensors from other ops are
not seen), only the outermost loop in a function is considered, module-level
scripts are not checked, and a name reused after the loop counts as used even
though the old value is kept until the reassignment.`,
	Run: runLoopTemporary,
}

func runLoopTemporary(p *lint.Pass) {
	f := p.File
	models := modelNames(f)
	for _, fn := range f.Nodes("function_definition") {
		if f.TextIs(fn.Child("name"), "__init__") {
			continue // builds submodules: Encoder(...) there is a constructor
		}
		body := fn.Child("body")
		var loops []*lint.Node
		lint.WalkScope(body, func(n *lint.Node) bool {
			if n.Is("for_statement", "while_statement") {
				loops = append(loops, n)
				return false // outermost loops only
			}
			return true
		})
		for _, loop := range loops {
			if !heavyAfter(f, fn, loop, models) {
				continue
			}
			reported := map[string]bool{}
			lint.WalkScope(loop.Child("body"), func(n *lint.Node) bool {
				if n.Kind != "assignment" || !modelCall(f, n.Child("right"), models) ||
					constructor(f, n.Child("right"), models) || f.RunsGradOff(n) {
					return true
				}
				for _, t := range targets(n.Child("left")) {
					name := f.Text(t)
					if reported[name] || mentionedAfter(f, fn, loop, name) {
						continue
					}
					reported[name] = true
					p.Report(t, fmt.Sprintf("%s (a model output) stays referenced after the loop ends at line %d, so its memory is still held while the rest of the function runs", name, f.Pos(loop.End).Line),
						fmt.Sprintf("del %s after the loop", name))
				}
				return true
			})
		}
	}
}

// mentionedAfter reports whether name appears in fn after the loop.
func mentionedAfter(f *lint.File, fn, loop *lint.Node, name string) bool {
	found := false
	fn.Child("body").Walk(func(n *lint.Node) bool {
		if n.Start >= loop.End && n.Kind == "identifier" && f.TextIs(n, name) && n.Field != "attribute" {
			found = true
		}
		return !found && n.End > loop.End || n == fn.Child("body")
	})
	return found
}

// heavyAfter reports whether fn does more GPU work after the loop: a model
// call, or a loop that calls a model or runs backward.
func heavyAfter(f *lint.File, fn, loop *lint.Node, models map[string]bool) bool {
	for _, c := range lint.Calls(fn.Child("body")) {
		if c.Start < loop.End {
			continue
		}
		if modelCall(f, c, models) {
			return true
		}
		if _, ok := f.BackwardOf(c); ok && lint.Loop(c) != nil {
			return true
		}
	}
	return false
}

// constructor reports whether call builds an object rather than running a
// model: a capitalised callee (Encoder(...), nn.Linear(...)) that the file
// never treats as a model.
func constructor(f *lint.File, call *lint.Node, models map[string]bool) bool {
	fn := lint.Unparen(lint.Unparen(call).Child("function"))
	if !fn.Is("identifier", "attribute") || models[f.Text(fn)] {
		return false
	}
	name := f.Text(fn)
	name = name[strings.LastIndexByte(name, '.')+1:]
	return name != "" && unicode.IsUpper(rune(name[0])) && strings.ToUpper(name) != name
}

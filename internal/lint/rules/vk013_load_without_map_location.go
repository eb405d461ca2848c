package rules

import (
	"strings"

	"github.com/vramkit/vramkit/internal/lint"
)

// LoadWithoutMapLocation is M13.
var LoadWithoutMapLocation = &lint.Rule{
	Code: "VK013", Name: "load-without-map-location", Severity: lint.Info,
	// Policy (bench/lint): loads read as checkpoints (load_state_dict,
	// ckpt["model"]) were right 137/155 times; whole pickled objects and
	// data files 4/9 (written from the CPU by another script), so those
	// are hints.
	Patterns: map[string]lint.Level{"checkpoint": {Severity: lint.Info}, "object": {Severity: lint.Info, Hint: true}},
	Summary:  "torch.load without map_location restores every tensor onto the GPU it was saved from",
	Doc: `Flags torch.load(...) calls that pass no map_location (by keyword, as the
second argument, or through **kwargs).

Memory: a checkpoint saved from GPU tensors is restored onto the same device
index. Loading it to fill a model that is already on the GPU holds two copies
(weights and optimizer state) at once; in a multi-process job every rank
loads onto cuda:0, which runs out of memory or is slowed by the other ranks'
copies; on a machine with fewer GPUs the load fails.

Fix: torch.load(path, map_location="cpu") (load_state_dict then copies into
the model), or map_location=device for the process's own GPU.

Not flagged: a module-level load (a notebook cell) of what the file
itself saved earlier at module level while nothing had gone to the GPU yet
— module-level code runs in order, so that was saved from the CPU; a load in one branch of an if statement whose other branch
calls torch.load with a map_location (if args.gpu is None:
torch.load(path) else: torch.load(path, map_location=loc): the author
chose per branch),
CPU-only scripts (nothing in the file goes to a CUDA device),
and files whose torch.save calls store host data (.cpu(), .numpy() or NumPy
values, or a name the function last assigned such a value, or a model it
moved with model.cpu() before saving its state dict): what they load back
is on the CPU.

Blind spots: wrappers around torch.load, and files saved as CPU tensors by
another script (then the finding is harmless; suppress it).`,
	Run: runLoad,
}

func runLoad(p *lint.Pass) {
	f := p.File
	if f.Root == nil || !movesToGPU(f, f.Root) || savesHostCopies(f) {
		// A CPU-only script loads onto the CPU anyway; a file that saves
		// .cpu() copies (or NumPy arrays) loads back CPU tensors.
		return
	}
	var loads, mapped []*lint.Node
	for _, call := range f.Nodes("call") {
		if _, ok := f.CallTo(call, "torch.load"); !ok {
			continue
		}
		pos, kw, star := f.Args(call)
		if kw["map_location"] != nil || len(pos) >= 2 || star {
			mapped = append(mapped, call)
			continue
		}
		loads = append(loads, call)
	}
	for _, call := range loads {
		if lint.Scope(call).Is("module") && savedBefore(f, call.Start) && !movedBefore(f, call.Start) {
			// Module-level code (a notebook's cells) runs top to bottom:
			// the file saved what it reloads here while nothing was on
			// the GPU yet, so it was saved from the CPU.
			continue
		}
		if branchMaps(call, mapped) {
			// if args.gpu is None: torch.load(path) else: torch.load(path,
			// map_location=loc): the author chose where each branch loads.
			continue
		}
		p.ReportPattern(loadKind(f, call), call, "torch.load without map_location restores every tensor onto the GPU it was saved from: a second copy next to the model, and in multi-process jobs every rank loads onto that one GPU",
			`pass map_location="cpu" (or the process's own device)`)
	}
}

// savesHostCopies reports whether the file's torch.save calls store host
// data: an object built with .cpu() or .numpy(), or a NumPy call.
func savesHostCopies(f *lint.File) bool {
	for _, call := range f.Nodes("call") {
		if _, ok := f.CallTo(call, "torch.save"); !ok {
			continue
		}
		pos, _, _ := f.Args(call)
		if len(pos) == 0 {
			continue
		}
		if hostValue(f, pos[0]) || hostBefore(f, call, savedName(f, pos[0])) {
			return true
		}
	}
	return false
}

// hostValue reports whether e builds host data: a .cpu() or .numpy()
// call, or a NumPy call.
func hostValue(f *lint.File, e *lint.Node) bool {
	host := false
	e.Walk(func(n *lint.Node) bool {
		if n.Kind == "call" {
			if m, _ := f.Method(n); m == "cpu" || m == "numpy" || strings.HasPrefix(f.QualifiedName(n.Child("function")), "numpy.") {
				host = true
			}
		}
		return !host
	})
	return host
}

// savedName is the name whose data torch.save stores: x in
// torch.save(x, ...), model in torch.save(model.state_dict(), ...).
func savedName(f *lint.File, e *lint.Node) string {
	e = lint.Unparen(e)
	if m, r := f.Method(e); m == "state_dict" && r != nil {
		e = lint.Unparen(r)
	}
	if e.Is("identifier", "attribute") {
		return f.Text(e)
	}
	return ""
}

// hostBefore reports whether, earlier in the function of save, name was
// moved to the host in place (model.cpu(), the save helper that moves
// the model back afterwards) or last assigned host data (feats =
// feats.detach().cpu()).
func hostBefore(f *lint.File, save *lint.Node, name string) bool {
	if name == "" {
		return false
	}
	host := false
	lint.WalkScope(lint.Scope(save), func(n *lint.Node) bool {
		if n.Start >= save.Start {
			return false
		}
		switch n.Kind {
		case "expression_statement":
			if c := lint.Unparen(n.NamedChildren()[0]); c.Is("call") {
				if m, r := f.Method(c); m == "cpu" && f.TextIs(r, name) {
					host = true
				}
			}
		case "assignment":
			if f.TextIs(n.Child("left"), name) {
				host = n.Child("right") != nil && hostValue(f, n.Child("right"))
			}
		}
		return true
	})
	return host
}

// branchMaps reports whether another branch of the if statement around
// load calls torch.load with a map_location.
func branchMaps(load *lint.Node, mapped []*lint.Node) bool {
	ifs := load.Ancestor("if_statement", "function_definition", "class_definition")
	if !ifs.Is("if_statement") {
		return false
	}
	for _, m := range mapped {
		if m.Start >= ifs.Start && m.End <= ifs.End {
			return true
		}
	}
	return false
}

// movedBefore reports whether code before offset end moves something to a
// CUDA device.
func movedBefore(f *lint.File, end int) bool {
	for _, c := range f.Nodes("call") {
		if c.End <= end && movesToGPU(f, c) {
			return true
		}
	}
	return false
}

// savedBefore reports whether module-level code before offset end calls
// torch.save.
func savedBefore(f *lint.File, end int) bool {
	for _, c := range f.Nodes("call") {
		if _, ok := f.CallTo(c, "torch.save"); ok && c.End <= end && lint.Scope(c).Is("module") {
			return true
		}
	}
	return false
}

// loadKind names what a torch.load call reads, from how its result is
// used: "checkpoint" when it goes into load_state_dict or is read by key
// (ckpt["model"], ckpt.get(...), ckpt.items()), the state dicts a training
// run saved from its GPU; "object" otherwise — a whole pickled model or a
// data file, often written by another script from the CPU, whose device
// the file does not show.
func loadKind(f *lint.File, call *lint.Node) string {
	n := call
	for n.Parent.Is("parenthesized_expression") {
		n = n.Parent
	}
	switch par := n.Parent; {
	case par.Is("subscript") && n.Field == "value":
		return "checkpoint"
	case par.Is("argument_list"):
		if m, _ := f.Method(par.Parent); m == "load_state_dict" {
			return "checkpoint"
		}
	case par.Is("attribute") && n.Field == "object":
		switch f.Text(par.Child("attribute")) {
		case "get", "items", "keys", "values":
			return "checkpoint"
		}
	case par.Is("assignment") && n.Field == "right" && par.Child("left").Is("identifier"):
		name := f.Text(par.Child("left"))
		kind := "object"
		lint.WalkScope(lint.Scope(call), func(u *lint.Node) bool {
			if kind != "object" || u.Kind != "identifier" || u.Start < par.End || !f.TextIs(u, name) || u.Field == "attribute" {
				return kind == "object"
			}
			switch up := u.Parent; {
			case up.Is("subscript") && u.Field == "value":
				kind = "checkpoint"
			case up.Is("attribute") && u.Field == "object":
				switch f.Text(up.Child("attribute")) {
				case "get", "items", "keys", "values":
					kind = "checkpoint"
				}
			case up.Is("argument_list"):
				if m, _ := f.Method(up.Parent); m == "load_state_dict" {
					kind = "checkpoint"
				}
			}
			return kind == "object"
		})
		return kind
	}
	return "object"
}

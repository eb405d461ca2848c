package rules

import (
	"regexp"
	"strings"

	"github.com/vramkit/vramkit/internal/lint"
)

// What the DataLoader hints (VK007, VK008) need to know about a loader:
// whether it is the loader that feeds training steps on the GPU. Real code
// builds many loaders that are not: evaluation and test loaders, a
// one-shot next(iter(DataLoader(...))), loaders over an in-memory
// TensorDataset, loaders in CPU-only scripts, and loaders whose batches
// never reach the GPU. Advice about worker processes and pinned memory is
// noise for those, so the hints only speak about a loader when the file
// shows its batches going to the GPU inside a training loop.

// evalLoaderName matches names of evaluation and test loaders.
var evalLoaderName = regexp.MustCompile(`(?i)(val|test|eval|dev|valid|infer|pred|sample|vis)`)

// gpuTrainingLoader reports whether call (a DataLoader(...) call) builds a
// training loader whose batches the file moves to a CUDA device inside a
// loop over it that runs backward or an optimizer step.
func gpuTrainingLoader(f *lint.File, call *lint.Node) bool {
	pos, kw, _ := f.Args(call)
	var ds *lint.Node
	if len(pos) > 0 {
		ds = pos[0]
	} else {
		ds = kw["dataset"]
	}
	if ds != nil && inMemoryDataset(f, ds) {
		return false
	}
	// next(iter(DataLoader(...))) or iter(DataLoader(...)): one batch.
	if par := call.Parent; par.Is("argument_list") && par.Parent.Is("call") && f.CalleeName(par.Parent) == "iter" {
		return false
	}
	name := loaderName(f, call)
	if name == "" || evalLoaderName.MatchString(name) {
		return false
	}
	return feedsGPUStep(f, call, name)
}

// loaderName is the name the loader is bound to: x in x = DataLoader(...),
// self.x, or the keyword in a dict literal {"train": DataLoader(...)}.
func loaderName(f *lint.File, call *lint.Node) string {
	par := call.Parent
	switch {
	case par.Is("assignment") && call.Field == "right":
		return f.Text(par.Child("left"))
	case par.Is("pair"):
		if s, ok := f.StringValue(par.Child("key")); ok {
			return s
		}
	case par.Is("return_statement"):
		if fn := lint.Scope(call); fn.Is("function_definition") {
			return f.Text(fn.Child("name"))
		}
	}
	return ""
}

// inMemoryDataset reports whether ds is a TensorDataset, or a dataset
// class of the file whose __getitem__ only indexes what it holds (data
// already in memory: workers only add process start-up and copies).
func inMemoryDataset(f *lint.File, ds *lint.Node) bool {
	ds = lint.Unparen(ds)
	inMemory := func(c *lint.Node) bool {
		return c.Is("call") && (f.CalleeName(c) == "TensorDataset" || indexingDataset(f, f.CalleeName(c)))
	}
	if ds.Is("call") {
		return inMemory(ds)
	}
	if !ds.Is("identifier") {
		return false
	}
	for _, a := range f.Nodes("assignment") {
		if f.TextIs(a.Child("left"), f.Text(ds)) && inMemory(lint.Unparen(a.Child("right"))) {
			return true
		}
	}
	return false
}

// indexingDataset reports whether the file defines class name with a
// __getitem__ that calls nothing: it returns items indexed out of tensors
// or lists it holds (self.features[index]), with no file reads, decoding
// or transforms for a worker to take over.
func indexingDataset(f *lint.File, name string) bool {
	if name == "" {
		return false
	}
	for _, cls := range f.Nodes("class_definition") {
		if !f.TextIs(cls.Child("name"), name) {
			continue
		}
		for _, d := range f.Nodes("function_definition") {
			if d.Ancestor("class_definition") == cls && f.TextIs(d.Child("name"), "__getitem__") {
				return len(lint.Calls(d.Child("body"))) == 0
			}
		}
	}
	return false
}

// feedsGPUStep reports whether some loop iterates over the loader (for b in
// loader, enumerate(loader), tqdm(loader)...) and, in its body, moves data
// to a CUDA device and runs backward or an optimizer step. A loop in
// another function that builds its own loader under the same name
// (dataloader = DataLoader(...) in train() and in sample()) iterates over
// that one, not over call's.
func feedsGPUStep(f *lint.File, call *lint.Node, name string) bool {
	last := name[strings.LastIndexByte(name, '.')+1:]
	// A loader its function returns (get_dataloaders) reaches other
	// functions under any name.
	local := !strings.Contains(name, ".") && !returnsName(f, lint.Scope(call), name)
	for _, loop := range f.Nodes("for_statement") {
		if s := lint.Scope(loop); local && s != lint.Scope(call) && s.Is("function_definition") && bindsLocally(f, s, name) {
			continue
		}
		it := loop.Child("right")
		mentions := false
		it.Walk(func(n *lint.Node) bool {
			if n.Is("identifier", "attribute") && (f.TextIs(n, name) || n.Kind == "attribute" && f.TextIs(n.Child("attribute"), last)) {
				mentions = true
			}
			if v, ok := f.StringValue(n); ok && n.Kind == "string" && v == name {
				mentions = true // loaders["train"]
			}
			return !mentions
		})
		if mentions && movesToGPU(f, loop.Child("body")) && trains(f, loop.Child("body")) {
			return true
		}
	}
	return false
}

// movesToGPU reports whether region copies something to a CUDA device:
// .cuda(), .to(device...) or .to("cuda...").
func movesToGPU(f *lint.File, region *lint.Node) bool {
	found := false
	region.Walk(func(n *lint.Node) bool {
		if found || n.Kind != "call" {
			return !found
		}
		switch name, _ := f.Method(n); name {
		case "cuda":
			found = true
		case "to":
			pos, kw, _ := f.Args(n)
			d := kw["device"]
			if len(pos) > 0 {
				d = pos[0]
			}
			found = d != nil && isDevice(f, d)
		}
		return !found
	})
	return found
}

// trains reports whether region runs backward or an optimizer step.
func trains(f *lint.File, region *lint.Node) bool {
	found := false
	region.Walk(func(n *lint.Node) bool {
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

// bindsLocally reports whether function fn builds its own name: assigns
// it a value that is not made from it (loader = tqdm(loader) wraps the
// loader it was given), and does not take it as a parameter.
func bindsLocally(f *lint.File, fn *lint.Node, name string) bool {
	for _, p := range fn.Child("parameters").NamedChildren() {
		if f.TextIs(p, name) || f.TextIs(p.Child("name"), name) {
			return false
		}
	}
	found := false
	lint.WalkScope(fn.Child("body"), func(n *lint.Node) bool {
		if n.Kind == "assignment" && assigns(f, n, name) && n.Child("right") != nil && !mentions(f, n.Child("right"), name) {
			found = true
		}
		return !found
	})
	return found
}

// returnsName reports whether function fn returns name (alone or in a
// tuple).
func returnsName(f *lint.File, fn *lint.Node, name string) bool {
	if !fn.Is("function_definition") {
		return false
	}
	found := false
	lint.WalkScope(fn.Child("body"), func(n *lint.Node) bool {
		if n.Kind == "return_statement" && mentions(f, n, name) {
			found = true
		}
		return !found
	})
	return found
}

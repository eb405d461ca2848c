package rules

import (
	"strings"

	"github.com/vramkit/vramkit/internal/lint"
)

// LoadWithoutMapLocation is M13.
var LoadWithoutMapLocation = &lint.Rule{
	Code: "VK013", Name: "load-without-map-location", Severity: lint.Info,
	Summary: "torch.load without map_location restores every tensor onto the GPU it was saved from",
	Doc: `Flags torch.load(...) calls that pass no map_location (by keyword, as the
second argument, or through **kwargs).

Memory: a checkpoint saved from GPU tensors is restored onto the same device
index. Loading it to fill a model that is already on the GPU holds two copies
(weights and optimizer state) at once; in a multi-process job every rank
loads onto cuda:0, which runs out of memory or is slowed by the other ranks'
copies; on a machine with fewer GPUs the load fails.

Fix: torch.load(path, map_location="cpu") (load_state_dict then copies into
the model), or map_location=device for the process's own GPU.

Not flagged: CPU-only scripts (nothing in the file goes to a CUDA device),
and files whose torch.save calls store host data (.cpu(), .numpy() or NumPy
values): what they load back is on the CPU.

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
	for _, call := range f.Nodes("call") {
		if _, ok := f.CallTo(call, "torch.load"); !ok {
			continue
		}
		pos, kw, star := f.Args(call)
		if kw["map_location"] != nil || len(pos) >= 2 || star {
			continue
		}
		p.Report(call, "torch.load without map_location restores every tensor onto the GPU it was saved from: a second copy next to the model, and in multi-process jobs every rank loads onto that one GPU",
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
		host := false
		pos[0].Walk(func(n *lint.Node) bool {
			if n.Kind == "call" {
				if m, _ := f.Method(n); m == "cpu" || m == "numpy" || strings.HasPrefix(f.QualifiedName(n.Child("function")), "numpy.") {
					host = true
				}
			}
			return !host
		})
		if host {
			return true
		}
	}
	return false
}

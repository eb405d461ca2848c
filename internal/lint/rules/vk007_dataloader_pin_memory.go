package rules

import (
	"github.com/vramkit/vramkit/internal/lint"
)

// DataLoaderPinMemory is M7 (performance tuning guide).
var DataLoaderPinMemory = &lint.Rule{
	Code: "VK007", Name: "dataloader-without-pin-memory", Severity: lint.Info,
	Summary: "a DataLoader feeding a GPU without pin_memory=True makes every batch copy synchronous",
	Doc: `A hint (opt-in: --hints, or --select VK007). Flags a training DataLoader
that is given num_workers but not pin_memory=True (missing or False), when
the file shows its batches going to a CUDA device (.cuda(), .to(device))
in a loop over it that runs backward or an optimizer step. Loaders without
num_workers are left to VK008, which then names pinning too, so each loader
gets one hint.

Not flagged: evaluation and test loaders (named val, test, eval...), a
one-shot next(iter(DataLoader(...))), loaders over an in-memory
TensorDataset (or a Dataset class of the file whose __getitem__ only
indexes what it holds), loaders whose batches never reach the GPU (a
training loop in another function that builds its own loader under the
same name does not count), and CPU-only
scripts (a "cuda" string elsewhere in the file does not count).

Memory: batches live in pageable host memory, so each host-to-GPU copy is
staged through a pinned bounce buffer by the driver and blocks; the copy cannot
overlap compute and non_blocking=True does nothing (tuning guide: "use
pin_memory=True when using a GPU"). Pinning costs page-locked host RAM for
the batches in flight, not GPU memory.

Fix: DataLoader(..., pin_memory=True), and .to(device, non_blocking=True).

Blind spots: loaders built from **kwargs or a config dict, subclasses and
wrappers of DataLoader, loaders passed to a framework (Lightning, a Trainer)
whose loop is not in the file, and datasets that already return CUDA tensors
(then pinning is wrong, and this file should suppress the rule).`,
	Run: runPinMemory,
}

// dataLoaderCalls returns the calls of torch.utils.data.DataLoader.
func dataLoaderCalls(f *lint.File) []*lint.Node {
	var out []*lint.Node
	for _, call := range f.Nodes("call") {
		if _, ok := f.CallTo(call, "torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"); ok {
			out = append(out, call)
		}
	}
	return out
}

func runPinMemory(p *lint.Pass) {
	f := p.File
	for _, call := range dataLoaderCalls(f) {
		if !gpuTrainingLoader(f, call) {
			continue
		}
		_, kw, star := f.Args(call)
		if _, ok := kw["num_workers"]; !ok && !star {
			continue // VK008 reports this loader, pinning included
		}
		pin, ok := kw["pin_memory"]
		if (!ok && !star) || f.IsFalse(pin) {
			p.Report(call, "DataLoader without pin_memory=True in a script that copies batches to the GPU: each copy is staged through pageable memory and blocks, so it cannot overlap compute",
				"pass pin_memory=True and copy with .to(device, non_blocking=True)")
		}
	}
}

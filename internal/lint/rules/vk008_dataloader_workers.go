package rules

import (
	"github.com/vramkit/vramkit/internal/lint"
)

// DataLoaderWorkers is M8 (TorchFix TOR401, Sonar S6983).
var DataLoaderWorkers = &lint.Rule{
	Code: "VK008", Name: "dataloader-num-workers", Severity: lint.Info, Hint: true,
	Summary: "a DataLoader with num_workers missing or 0 loads every batch in the training process",
	Doc: `A hint (opt-in: --hints, or --select VK008). Flags a training DataLoader
without num_workers, when the file shows its batches going to a CUDA device
in a loop over it that runs backward or an optimizer step. It is reported
once per loader: when pin_memory is missing too, the fix says so and VK007
stays quiet.

Not flagged: an explicit num_workers=0 (a choice: debugging, a dataset that
cannot be pickled), evaluation and test loaders, a one-shot
next(iter(DataLoader(...))), loaders over an in-memory TensorDataset (or
a Dataset class of the file whose __getitem__ only indexes what it holds),
loaders whose batches never reach the GPU, and CPU-only scripts.

Memory: none on the GPU. Loading and collating happen in the main process
between steps, so the GPU idles while the next batch is prepared (the
profiler's SynchronizedDataLoaderPattern). Worker processes each hold a copy
of the dataset object and prefetch_factor batches, which costs host RAM.

Fix: num_workers=N, with N around the number of CPU cores per GPU; there is
no safe automatic value, so there is no --fix.

Blind spots: values from variables or configuration (num_workers=args.workers
is trusted), **kwargs, and loaders built by frameworks (Lightning,
Hugging Face Trainer's dataloader_num_workers).`,
	Run: runWorkers,
}

func runWorkers(p *lint.Pass) {
	f := p.File
	for _, call := range dataLoaderCalls(f) {
		if !gpuTrainingLoader(f, call) {
			continue
		}
		// An explicit num_workers=0 is a choice (debugging, a dataset that
		// cannot be pickled), so only a missing argument is reported.
		_, kw, star := f.Args(call)
		if _, ok := kw["num_workers"]; ok || star {
			continue
		}
		fix := "pass num_workers=N (e.g. the CPU cores per GPU) and persistent_workers=True"
		if pin, ok := kw["pin_memory"]; !ok || f.IsFalse(pin) {
			// One finding per loader: VK007 leaves this loader to us.
			fix += ", with pin_memory=True so the copies can overlap compute"
		}
		p.Report(call, "DataLoader without num_workers loads and collates every batch in the training process, so the GPU waits for data between steps", fix)
	}
}

package rules

import (
	"github.com/vramkit/vramkit/internal/lint"
)

// DataLoaderWorkers is M8 (TorchFix TOR401, Sonar S6983).
var DataLoaderWorkers = &lint.Rule{
	Code: "VK008", Name: "dataloader-num-workers", Severity: lint.Info,
	Summary: "a DataLoader with num_workers missing or 0 loads every batch in the training process",
	Doc: `Flags torch.utils.data.DataLoader(...) calls whose num_workers is missing or the
literal 0.

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
		_, kw, star := f.Args(call)
		n, ok := kw["num_workers"]
		switch {
		case !ok && !star:
			p.Report(call, "DataLoader without num_workers loads and collates every batch in the training process, so the GPU waits for data between steps",
				"pass num_workers=N (e.g. the CPU cores per GPU) and persistent_workers=True")
		case ok && n.Kind == "integer" && f.TextIs(n, "0"):
			p.Report(n, "DataLoader with num_workers=0 loads and collates every batch in the training process, so the GPU waits for data between steps",
				"pass num_workers=N (e.g. the CPU cores per GPU) and persistent_workers=True")
		}
	}
}

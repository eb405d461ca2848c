package rules

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/lint"
)

// CudnnBenchmarkVariableShapes notes cudnn autotuning on inputs whose
// shape changes.
var CudnnBenchmarkVariableShapes = &lint.Rule{
	Code: "VK021", Name: "cudnn-benchmark-variable-shapes", Severity: lint.Info,
	Summary: "torch.backends.cudnn.benchmark = True with inputs of varying shape re-runs autotuning for every new shape",
	Doc: `Notes torch.backends.cudnn.benchmark = True in a file whose inputs vary in
shape: it pads per batch (pad_sequence, pack_padded_sequence,
Hugging Face DataCollatorWithPadding / DataCollatorForSeq2Seq, tokenizers
called with padding=True or "longest").

Memory: with benchmark on, cuDNN times several convolution algorithms the
first time it sees each input shape and caches the winner. Every new shape
pays that search again (slow first steps, memory spikes from the trial
workspaces, some algorithms needing large workspaces), so with variable
shapes the setting costs more than it gains. This is informational: with few
distinct shapes it is still a win.

Only padding that runs counts: at module level, or in a function the file
calls or passes on (collate_fn=collate); a helper nothing uses is ignored.

Fix: pad to a few fixed lengths (bucketing), or leave benchmark off.

Blind spots: variable shapes from other sources (random resizing, the
smaller last batch without drop_last=True, dynamic sequence lengths in
custom collate functions) are not recognised.`,
	Run: runCudnnBenchmark,
}

var padders = map[string]bool{
	"pad_sequence": true, "pack_padded_sequence": true, "pad_packed_sequence": true, "pack_sequence": true,
	"DataCollatorWithPadding": true, "DataCollatorForSeq2Seq": true, "DataCollatorForTokenClassification": true,
}

func runCudnnBenchmark(p *lint.Pass) {
	f := p.File
	var evidence *lint.Node
	for _, call := range f.Nodes("call") {
		if !reachable(f, call) {
			continue // padding in a helper this file never uses
		}
		if padders[f.CalleeName(call)] {
			evidence = call
			break
		}
		_, kw, _ := f.Args(call)
		if v := kw["padding"]; v != nil {
			if s, ok := f.StringValue(v); f.IsTrue(v) || ok && s == "longest" {
				evidence = call
				break
			}
		}
	}
	if evidence == nil {
		return
	}
	for _, a := range f.Nodes("assignment") {
		if !f.Resolves(a.Child("left"), "torch.backends.cudnn.benchmark") || !f.IsTrue(a.Child("right")) {
			continue
		}
		at := f.Pos(evidence.Start)
		p.Report(a, fmt.Sprintf("cudnn.benchmark = True autotunes for every new input shape, and shapes vary here (%s at line %d): each new shape re-runs the search with its trial workspaces", f.CalleeName(evidence), at.Line),
			"pad to a few fixed lengths, or leave cudnn.benchmark off")
	}
}

// reachable reports whether n runs when the file runs: at module level, or
// in functions (and their enclosing functions) that the file uses.
func reachable(f *lint.File, n *lint.Node) bool {
	for s := lint.Scope(n); s != nil && s.Kind != "module"; s = lint.Scope(s) {
		if s.Kind == "function_definition" && !f.Used(s) && !f.TextIs(s.Child("name"), "main") {
			return false
		}
	}
	return true
}

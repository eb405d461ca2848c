package rules

import (
	"github.com/vramkit/vramkit/internal/lint"
)

// EmptyCacheInLoop is M11 (CUDA semantics notes).
var EmptyCacheInLoop = &lint.Rule{
	Code: "VK011", Name: "empty-cache-in-training-loop", Severity: lint.Info,
	Summary: "torch.cuda.empty_cache() on every training step frees nothing tensors hold and makes the allocator cudaMalloc again",
	Doc: `Flags torch.cuda.empty_cache() that runs on every iteration of the loop that
calls .backward() itself (not from a nested loop), and not inside an if or
except within that loop.

Memory: empty_cache() only hands cached blocks that no tensor uses back to the
driver. It cannot free memory held by tensors, so it does not prevent an
out-of-memory error, and the next step has to cudaMalloc the same blocks
again, which is slow and synchronises the device (CUDA semantics notes). It
only makes nvidia-smi look better, and it can increase fragmentation.

Fix: remove it. For fragmentation, set
PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True; to leave room for another
process, call it once after training.

Blind spots: loops whose backward runs in a called function (train_step(batch))
are not recognised as training loops; a call in an outer loop (once per
epoch) and occasional calls under an if are deliberately not flagged.`,
	Run: runEmptyCache,
}

func runEmptyCache(p *lint.Pass) {
	f := p.File
	for _, call := range f.Nodes("call") {
		if _, ok := f.CallTo(call, "torch.cuda.empty_cache", "torch.cuda.memory.empty_cache"); !ok {
			continue
		}
		loop := lint.Loop(call)
		if loop == nil || !everyIteration(call, loop) {
			continue
		}
		for _, b := range f.Backwards(loop) {
			if lint.Loop(b.Call) == loop {
				p.Report(call, "torch.cuda.empty_cache() on every training step: it frees no memory that tensors hold, and the next step has to cudaMalloc the released blocks again (slow, synchronising)",
					"remove it; for fragmentation set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True")
				break
			}
		}
	}
}

// everyIteration reports whether n runs on every pass through loop's body:
// no if, except or conditional expression stands between them.
func everyIteration(n, loop *lint.Node) bool {
	for p := n.Parent; p != nil && p != loop; p = p.Parent {
		switch p.Kind {
		case "if_statement", "elif_clause", "else_clause", "except_clause", "conditional_expression", "boolean_operator", "match_statement":
			return false
		}
	}
	return true
}

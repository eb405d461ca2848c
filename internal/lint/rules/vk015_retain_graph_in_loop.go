package rules

import (
	"github.com/vramkit/vramkit/internal/lint"
)

// RetainGraphInLoop is M15.
var RetainGraphInLoop = &lint.Rule{
	Code: "VK015", Name: "retain-graph-in-loop", Severity: lint.Warning,
	Summary: "backward(retain_graph=True) as the last backward of a loop iteration keeps the whole graph and its activations alive",
	Doc: `Flags backward(retain_graph=True) inside a loop when no other backward call
follows it in the same loop body.

Memory: retain_graph=True stops autograd from freeing the graph's saved
tensors as backward consumes them. That is needed only when a second backward
runs through the same graph in the same step (two losses sharing an encoder,
GAN updates), which is why a retain_graph=True followed by another backward
is not flagged. As the last backward, it keeps the step's activations until
the loss is rebound in the next iteration, so the next forward runs with
them still allocated; and when anything carries over between iterations (an
RNN hidden state that is not detached), the graph grows every step.
Often it is added to silence "Trying to backward through the graph a second
time", whose real fix is detaching the carried state.

Fix: drop retain_graph=True; detach state carried across iterations
(hidden = hidden.detach(), as in repackage_hidden).

Blind spots: retain_graph passed through a variable, and a second backward
that runs in a called function.`,
	Run: runRetainGraph,
}

func runRetainGraph(p *lint.Pass) {
	f := p.File
	for _, call := range f.Nodes("call") {
		b, ok := f.BackwardOf(call)
		loop := lint.Loop(call)
		if !ok {
			continue
		}
		if loop == nil || !f.IsTrue(b.RetainGraph) {
			continue
		}
		last := true
		for _, later := range f.Backwards(loop.Child("body")) {
			if later.Call.Start > b.Call.End {
				last = false
			}
		}
		if last {
			p.Report(b.Call, "backward(retain_graph=True) is the last backward of the iteration: the graph's saved activations stay allocated into the next step, and grow if state carried between iterations is not detached",
				"drop retain_graph=True and detach state carried across iterations (hidden = hidden.detach())")
		}
	}
}

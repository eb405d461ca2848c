package memmodel

import (
	"testing"

	"github.com/vramkit/vramkit/internal/allocsim"
)

// The gradients autograd materialises for a compiled backward are the only
// large requests of a compiled step that carry no stack frame (the autograd
// engine allocates them in C++, before the backward graph runs). In the
// dev9 snapshots (3 steps each) they are the zero gradients of the
// key/value cache (GPT-2 s512 b32: 24 of 24 MiB a step; GPT-2 medium s1024
// b8: 48 of 16 MiB; LLaMA-small s1024 b8: 48 of 32 MiB), LLaMA's
// 500 MiB zero gradient of its logits (its loss is in the graph; GPT-2's
// loss is a graph of its own, whose backward makes the logits' gradient
// with a stack), and GPT-2's one float32 hidden-size gradient (its model
// graph returns the final norm's output to the graph break: not
// modelled, 0.4% of the peak). The generated stream must make as many of
// each (compiledBackwardInputs).
func TestCompiledBackwardInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("replays snapshots")
	}
	const dir = dev9CompileDir
	for _, row := range dev9CompileSnaps {
		snap := loadSnapshot(t, dir+row+".pickle.gz")
		d, err := allocsim.ReplayDevice(snap, 0, allocsim.DefaultReplayOptions())
		if err != nil {
			t.Fatal(err)
		}
		tr := snap.Trace(0)
		real := map[int64]int{}
		for _, r := range d.Result.Requests {
			if r.Kind == allocsim.ReqAlloc && r.Size >= 1<<20 && len(snap.Frames(tr[r.Event].Stack)) == 0 {
				real[r.Size]++
			}
		}
		spec, c, st := compiledStream(t, row)
		gen := map[int64]int{}
		for _, r := range st.Requests {
			if r.Kind == allocsim.ReqAlloc && st.Tags[r.ID].Op == "compiled_backward_input" {
				gen[r.Size]++
			}
		}
		hidden := int64(spec.Batch*spec.Seq) * int64(c.arch.Hidden) * 4
		for size, n := range real {
			if size == hidden && c.arch.family().Name == "gpt2" {
				continue // the graph break's float32 hidden state (see above)
			}
			if gen[size] != n {
				t.Errorf("%s: %.2f MiB: %d generated, the snapshot's autograd materialises %d", row, float64(size)/(1<<20), gen[size], n)
			}
		}
		logits := int64(spec.Batch*spec.Seq) * int64(c.arch.Vocab) * 2
		for size, n := range gen {
			if real[size] == 0 && size != logits {
				t.Errorf("%s: %.2f MiB: %d generated, none in the snapshot", row, float64(size)/(1<<20), n)
			}
		}
	}
}

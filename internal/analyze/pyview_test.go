package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// TestStacksAllReadAsPython: dev76 recorded one GPT-2 training run (s256
// b4 bf16 AMP, 3 steps) twice, in two processes: with stacks="python" and
// with PyTorch's default stacks="all", whose every stack starts with C++
// frames (the unwinder, the caching allocator, ATen) and whose autograd
// engine thread has C++ frames only. The analysis of the second is the
// first's: the same iterations, categories, sites (Python frames, not a
// torch::unwind "library call" followed by 4,000 characters of C++
// "user code") and advice. probe-default (testdata/unit), the same
// default recording of a script with no training, names its script's
// lines.
func TestStacksAllReadAsPython(t *testing.T) {
	const dir = "../../testdata/dev76/dev76-gpt2-s256-b4-bf16-"
	snap, err := snapshot.LoadFile(dir + "all.pickle.gz")
	if err != nil {
		t.Fatal(err)
	}
	cpp := 0
	for _, st := range snap.Stacks {
		for _, f := range st {
			if !snapshot.IsPythonFrame(f) {
				cpp++
			}
		}
	}
	if cpp == 0 {
		t.Fatal("the stacks='all' snapshot has no C++ frames")
	}
	digest := func(d Device) string {
		var b strings.Builder
		fmt.Fprintf(&b, "iterations %d peak %d/%d categories %+v\n", d.Iterations, d.PeakAllocated, d.PeakReserved, d.Categories)
		for _, s := range d.TopSites {
			fmt.Fprintf(&b, "site %d %s %s", s.Bytes, s.Category, s.Label)
			for _, f := range s.Frames {
				fmt.Fprintf(&b, " %s:%d %s", f.Filename, f.Line, f.Name)
			}
			b.WriteByte('\n')
		}
		for _, a := range d.Advice {
			fmt.Fprintf(&b, "advice %s %d\n", a.Action, a.Saving)
		}
		return b.String()
	}
	py := digest(analyzePath(t, dir+"py.pickle.gz", DefaultOptions()))
	all := digest(analyzePath(t, dir+"all.pickle.gz", DefaultOptions()))
	if py != all {
		t.Errorf("stacks='all' reads differently from stacks='python':\n--- python\n%s--- all\n%s", py, all)
	}
	d := analyzePath(t, "../../testdata/unit/probe-default.pickle", DefaultOptions())
	for _, s := range d.TopSites {
		for _, f := range s.Frames {
			if !strings.HasSuffix(f.Filename, ".py") {
				t.Errorf("probe-default: a site of %d bytes names C++ frame %s (%s)", s.Bytes, f.Name, f.Filename)
			}
		}
	}
}

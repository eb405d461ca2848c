package analyze

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// TestLeakSiteNamed: testdata/probes/roundup-list grows what survives its
// three iterations (found from allocation floors), and the one tensor the
// raw trace never frees was allocated in the last iteration. The leak's
// site looked only at iterations 2..n-1, found nothing, and printed
// "allocated at: " with no name, while its advice pointed at "the site
// below". The site must be the call that allocated the surviving tensor,
// and the advice must name the same line.
func TestLeakSiteNamed(t *testing.T) {
	s, err := snapshot.LoadFile(filepath.Join("../../testdata", "probes", "roundup-list.pickle.gz"))
	if err != nil {
		t.Fatal(err)
	}
	// The tensors the raw trace allocates and never frees.
	live := map[uint64]snapshot.StackID{}
	for _, e := range s.Trace(0) {
		switch e.Action {
		case snapshot.ActionAlloc:
			live[e.Addr] = e.Stack
		case snapshot.ActionFreeCompleted:
			delete(live, e.Addr)
		}
	}
	if len(live) != 1 {
		t.Fatalf("%d tensors outlive the trace, want the probe's one", len(live))
	}
	var want snapshot.Frame
	for _, st := range live {
		for _, f := range s.Stacks[st] {
			if strings.HasSuffix(f.Filename, ".py") && !isLibrary(f.Filename) {
				want = f
				break
			}
		}
	}
	if want.Filename == "" {
		t.Fatal("the surviving tensor has no Python frame")
	}
	o := DefaultOptions()
	o.Tune = false
	rep, err := Analyze(s, o)
	if err != nil {
		t.Fatal(err)
	}
	d := rep.Devices[0]
	if len(d.Leaks) != 1 {
		t.Fatalf("%d leaks, want 1", len(d.Leaks))
	}
	l := d.Leaks[0]
	if len(l.Frames) == 0 || l.Frames[0] != want {
		t.Errorf("leak site %v (label %q), want %v", l.Frames, l.Label, want)
	}
	at := fmt.Sprintf("allocated at %s:%d (%s)", want.Filename, want.Line, want.Name)
	found := false
	for _, a := range d.Advice {
		if strings.HasPrefix(a.Action, "fix the leak") {
			found = true
			if !strings.Contains(a.Detail, at) {
				t.Errorf("leak advice %q does not say %q", a.Detail, at)
			}
		}
	}
	if !found {
		t.Error("no leak advice")
	}
}

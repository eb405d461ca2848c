package analyze

import (
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// TestSitesReadPythonFramesOfMixedStacks: testdata/unit/probe-default was
// recorded with _record_memory_history's default stacks, C++ frames
// included: each allocation's stack starts with torch::unwind, the
// caching allocator and ATen, then the Python frames. Its sites are the
// Python frames (the probe script's own lines), not a C++ frame as the
// "library call" and every C++ frame after it as "user code" (4,000
// characters a site line before).
func TestSitesReadPythonFramesOfMixedStacks(t *testing.T) {
	const path = "../../testdata/unit/probe-default.pickle"
	snap, err := snapshot.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cpp := 0
	for _, e := range snap.Trace(0) {
		for _, f := range snap.Frames(e.Stack) {
			if !strings.HasSuffix(f.Filename, ".py") && !strings.HasPrefix(f.Filename, "<") {
				cpp++
			}
		}
	}
	d := analyzePath(t, path, DefaultOptions())
	if cpp == 0 {
		t.Fatal("the snapshot has no C++ frames: it no longer tests mixed stacks")
	}
	if len(d.TopSites) == 0 {
		t.Fatal("no sites")
	}
	for _, s := range d.TopSites {
		if len(s.Frames) == 0 || len(s.Frames) > 3 {
			t.Errorf("site of %d bytes has %d frames, want the script's few", s.Bytes, len(s.Frames))
		}
		for _, f := range s.Frames {
			if !strings.HasSuffix(f.Filename, ".py") {
				t.Errorf("site of %d bytes names a C++ frame %s (%s:%d)", s.Bytes, f.Name, f.Filename, f.Line)
			}
		}
	}
}

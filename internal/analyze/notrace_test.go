package analyze

import (
	"path/filepath"
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// TestStateOnly: without a usable history — none recorded, or a ring
// buffer that dropped the oldest events — analyze reports the dump's state
// from the segment list (allocated = the live blocks' bytes) and who holds
// it from the blocks' own stacks, and claims no peaks or iterations.
func TestStateOnly(t *testing.T) {
	s, err := snapshot.LoadFile(filepath.Join(dataDir, "resnet50-b64-fp32.pickle.gz"))
	if err != nil {
		t.Fatal(err)
	}
	var live, reserved int64
	for _, g := range s.Segments {
		reserved += int64(g.TotalSize)
		for _, b := range g.Blocks {
			if b.State == snapshot.BlockActiveAllocated {
				live += int64(b.Size)
			}
		}
	}
	full := s.Devices[0].Events
	for name, events := range map[string][]snapshot.TraceEvent{
		"no history": nil,
		"late start": full[len(full)/3:],
	} {
		s.Devices[0].Events = events
		rep, err := Analyze(s, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		d := rep.Devices[0]
		if !d.StateOnly || d.TraceComplete || d.Iterations != 0 {
			t.Errorf("%s: state_only=%v complete=%v iterations=%d", name, d.StateOnly, d.TraceComplete, d.Iterations)
		}
		if d.PeakAllocated != live || d.PeakReserved != reserved {
			t.Errorf("%s: allocated %d reserved %d, segments hold %d / %d", name, d.PeakAllocated, d.PeakReserved, live, reserved)
		}
		var sum int64
		for _, st := range d.TopSites {
			sum += st.Bytes
		}
		if len(d.TopSites) == 0 || sum > live || len(d.TopSites[0].Frames) == 0 {
			t.Errorf("%s: top sites %+v", name, d.TopSites)
		}
		if len(d.Notes) == 0 {
			t.Errorf("%s: no note saying why", name)
		}
	}
}

package cli

import (
	"fmt"
	"io"

	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/report"
	"github.com/vramkit/vramkit/internal/units"
)

// summarizeSnapshot is what `vramkit run` prints for each snapshot the
// training script left: the peaks PyTorch's allocator reached, an OOM's
// cause, leaks, and the top advice — one screen, with `vramkit analyze`
// for the rest.
func summarizeSnapshot(path string, w io.Writer) error {
	s, err := loadSnapshot(path)
	if err != nil {
		return err
	}
	o := analyze.DefaultOptions()
	o.Tune = false // keep the exit quick; analyze runs it on demand
	o.Top = 3
	rep, err := analyze.Analyze(s, o)
	if err != nil {
		return err
	}
	for _, d := range rep.Devices {
		exact := "exact"
		if !d.TraceComplete {
			exact = "incomplete trace"
		}
		fmt.Fprintf(w, "  device %d: peak allocated %s, peak reserved %s (%s), %s\n", d.Device,
			units.Bytes(d.PeakAllocated), units.Bytes(d.PeakReserved), exact,
			plural(d.Iterations, "iteration", "iterations"))
		if d.OOM != nil {
			fmt.Fprintf(w, "  out of memory asking for %s: %s — %s\n", units.Bytes(d.OOM.Requested), d.OOM.Cause, d.OOM.Explain)
		}
		for _, l := range d.Leaks {
			site := ""
			if len(l.Frames) > 0 {
				f := l.Frames[0]
				site = fmt.Sprintf(" at %s:%d", report.ShortPath(f.Filename), f.Line)
			}
			fmt.Fprintf(w, "  LEAK: %s more kept every iteration%s\n", units.Bytes(l.BytesPerIteration), site)
		}
		for i, a := range d.Advice {
			if i == 3 {
				break
			}
			fmt.Fprintf(w, "  %d. %s — saves about %s\n", i+1, a.Action, units.Bytes(a.Saving))
		}
	}
	fmt.Fprintf(w, "  details: vramkit analyze %s\n", path)
	return nil
}

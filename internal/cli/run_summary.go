package cli

import (
	"context"
	"io"

	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/report"
)

// summarizeSnapshot is what `vramkit run` prints for each snapshot the
// training script left: the peaks PyTorch's allocator reached, an OOM's
// cause, leaks, and the top advice — one screen, with `vramkit analyze`
// for the rest.
func summarizeSnapshot(path string, w io.Writer) error {
	s, err := loadSnapshot(context.Background(), path)
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
	report.RunSummary(w, path, rep.Devices)
	return nil
}

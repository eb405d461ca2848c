package cli

import (
	"context"
	"io"
	"path/filepath"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/report"
	"github.com/vramkit/vramkit/internal/report/html"
)

func reportCommand() *Command {
	c := &Command{
		Name:  "report",
		Usage: "report [--device N] [--capacity BYTES|auto] [--memory-fraction F] [-o FILE.html] SNAPSHOT",
		Short: "write a self-contained HTML report: timeline, allocator state, sites, what-ifs",
		Long: `Writes one HTML file, with its scripts and data inline, that opens in a browser from disk
without a network: allocated and reserved memory over the trace (zoom, and hover for the
largest allocation and its stack), the allocator's segments and blocks at peak reserved
memory, the top allocation sites and an icicle chart of live memory at peak, and the
PYTORCH_CUDA_ALLOC_CONF what-if table of 'vramkit tune'. The default output is
SNAPSHOT's name with .html.`,
	}
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		fs := newFlagSet(c, env.Stderr)
		out := fs.String("o", "", "output file (- for stdout; default: SNAPSHOT's name with .html)")
		dev := fs.Int("device", -1, "CUDA device (default: the first with a trace)")
		var w whatIf
		w.add(fs)
		if err := parseFlags(fs, args); err != nil {
			return err
		}
		path, err := oneArg(fs.Args(), "SNAPSHOT")
		if err != nil {
			return err
		}
		if *out == "" {
			*out = defaultHTMLName(path)
		}
		s, d, err := loadTraced(path, *dev)
		if err != nil {
			return err
		}
		tl, rep := report.BuildTimeline(s, d, allocsim.ReplayOptions{MemoryFraction: w.fraction, KeepRequests: true}, timelineBuckets)
		trace := s.Trace(d)
		live := report.LiveAt(trace, max(tl.PeakAllocatedAt, 0))
		in := html.Input{
			Title: "vramkit report — " + filepath.Base(path), Source: path, Snapshot: s, Timeline: tl,
			Live: live, Sites: report.TopSites(s, live), Notes: rep.Notes, Stats: rep.Result.Stats,
			Markers: append(report.OOMMarkers(trace), report.IterationMarkers(s, d)...),
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		capBytes, _, err := w.resolve(trace)
		if err != nil {
			return err
		}
		rows, err := allocsim.Tune(rep.Result.Requests, capBytes, w.fraction)
		if err != nil {
			return err
		}
		in.Tune = htmlTune(rep, capBytes, rows)
		page := html.Build(in)
		return writeFile(env, *out, func(wr io.Writer) error { return html.Render(wr, page) })
	}
	return c
}

// htmlTune is tune's table for the report: the rows come ranked, best
// first, from allocsim.Tune.
func htmlTune(d allocsim.DeviceReplay, capBytes int64, rows []allocsim.TuneRow) *html.Tune {
	h := &html.Tune{RecordedConf: d.Config.String(), RecordedReserved: d.Result.Stats.ReservedBytes.All.Peak, Capacity: capBytes}
	if len(rows) > 0 && rows[0].Feasible && rows[0].PeakReserved < h.RecordedReserved {
		h.Best = rows[0].AllocConf
	}
	for _, r := range rows {
		row := html.TuneRow{Conf: r.AllocConf, PeakReserved: r.PeakReserved, PeakAllocated: r.PeakAllocated,
			Retries: r.Retries, OOMAt: -1, Feasible: r.Feasible}
		if r.OOMAt != nil {
			row.OOMAt = *r.OOMAt
		}
		h.Rows = append(h.Rows, row)
	}
	return h
}

// defaultHTMLName turns run.pickle.gz into run.html, next to it.
func defaultHTMLName(path string) string {
	if path == "-" {
		return "report.html"
	}
	base := path
	for _, ext := range []string{".gz", ".pickle", ".pkl"} {
		if len(base) > len(ext) && base[len(base)-len(ext):] == ext {
			base = base[:len(base)-len(ext)]
		}
	}
	return base + ".html"
}

package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/hugepage"
	"github.com/vramkit/vramkit/internal/report"
	"github.com/vramkit/vramkit/internal/report/html"
	"github.com/vramkit/vramkit/internal/snapshot"
)

func reportCommand() *Command {
	c := &Command{
		Name:    "report",
		Formats: "html, to -o FILE (default: the snapshot's name with .html; - for stdout)",
		Usage:   "report [--device N] [--tune auto|always|never] [--capacity BYTES|auto] [--memory-fraction F] [-o FILE.html] SNAPSHOT",
		Short:   "write a self-contained HTML report: analysis, timeline, allocator state, sites, what-ifs",
		Long: `Writes one HTML file, with its scripts and data inline, that opens in a browser from disk
without a network: vramkit analyze's summary and advice; allocated and reserved memory over
the trace, stacked by category, with iterations, leaks and OOMs marked (zoom, and hover for
the largest allocation and its stack); the allocator's segments and blocks at peak reserved
memory; analyze's top allocation sites and an icicle chart of live memory at peak; and the
PYTORCH_CUDA_ALLOC_CONF what-if table of 'vramkit tune'. The default output is
SNAPSHOT's name with .html.`,
	}
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		fs := newFlagSet(c, env.Stderr)
		out := fs.String("o", "", "output file (- for stdout; default: SNAPSHOT's name with .html)")
		dev := fs.Int("device", -1, "CUDA device (default: the first with a trace)")
		tune := fs.String("tune", "auto", "the allocator-settings table: auto (skipped past "+
			fmt.Sprint(analyze.DefaultOptions().TuneMaxRequests)+" requests, as analyze does), always or never")
		var w whatIf
		w.add(fs)
		if err := parseFlags(fs, args); err != nil {
			return err
		}
		flags, err := w.flags(fs)
		if err != nil {
			return err
		}
		path, err := oneArg(fs.Args(), "SNAPSHOT")
		if err != nil {
			return err
		}
		if *out == "" {
			*out = defaultHTMLName(path)
		}
		if *tune != "auto" && *tune != "always" && *tune != "never" {
			return usagef("--tune must be auto, always or never, not %q", *tune)
		}
		page, err := buildReport(ctx, path, *dev, *tune, flags)
		if err != nil {
			return err
		}
		return writeFile(env, *out, func(wr io.Writer) error { return html.Render(wr, page) })
	}
	return c
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

// replayTimeline resolves device dev's settings from f and replays it once,
// keeping the request stream and a timeline of at most buckets buckets
// (taking ahead's replay when it is that one: see loadReplaying).
func replayTimeline(ctx context.Context, s *snapshot.Snapshot, dev int, f analyze.Flags, buckets int, ahead *allocsim.Ahead) (analyze.Settings, allocsim.DeviceReplay, *report.Timeline, error) {
	st, rep, err := replayResolved(ctx, s, dev, f, func(o allocsim.ReplayOptions) allocsim.ReplayOptions {
		o = report.TimelineOptions(o, buckets)
		o.Ahead = ahead
		return o
	})
	if err != nil {
		return st, rep, nil, err
	}
	return st, rep, report.NewTimeline(s, &rep), nil
}

// reportAhead is what a report runs while its snapshot decodes: the
// replay with its timeline, and analyze's timeline of the requests.
type reportAhead struct {
	replay   *allocsim.Ahead
	requests *analyze.TimelineAhead
}

// buildReport makes the report page of one snapshot: device dev (-1: the
// first with a trace), tune auto|always|never, and f for the settings. The
// trace is replayed once, while the file decodes when it can; the
// timeline, the analysis and the what-ifs all read that replay.
func buildReport(ctx context.Context, path string, dev int, tune string, f analyze.Flags) (*html.Data, error) {
	// The options replayTimeline will replay under, as far as they are
	// known before the snapshot is (the Ahead's result is taken only if
	// they turn out to be those).
	o := allocsim.DefaultReplayOptions()
	o.MemoryFraction, o.MakeRequests = f.MemoryFraction, hugeRequests
	requests := analyze.NewTimelineAhead(hugepage.AdviseAny) // as analyzeFor advises
	s, replay, err := loadReplaying(ctx, path, report.TimelineOptions(o, timelineBuckets), allocsim.AheadOptions{Requests: requests.Add})
	if err != nil {
		return nil, err
	}
	s, d, err := pickTraced(s, path, dev)
	if err != nil {
		return nil, err
	}
	return reportOf(ctx, s, d, path, tune, f, reportAhead{replay, requests})
}

// reportOf is buildReport's work on a decoded snapshot, device d, with
// what ran ahead of it (none: the zero reportAhead).
func reportOf(ctx context.Context, s *snapshot.Snapshot, d int, path string, tune string, f analyze.Flags, ahead reportAhead) (*html.Data, error) {
	st, rep, tl, err := replayTimeline(ctx, s, d, f, timelineBuckets, ahead.replay)
	if err != nil {
		return nil, err
	}
	trace := s.Trace(d)
	live := report.LiveAt(trace, max(tl.PeakAllocatedAt, 0))
	in := html.Input{
		Title: "vramkit report — " + filepath.Base(path), Source: path, Snapshot: s, Timeline: tl,
		Live: live, Notes: append(append([]string(nil), rep.Notes...), "settings: "+st.String()), Stats: rep.Result.Stats,
	}
	if ad, err := analyzeFor(s, st, &rep, tl, ahead); err != nil {
		in.Notes = append(in.Notes, "analyze failed, so the report has no summary, categories or sites: "+oneLine(err))
		in.Markers = append(report.OOMMarkers(trace), report.IterationMarkers(s, d)...)
	} else {
		in.Analysis, in.Sites, in.Markers = html.AnalysisOf(path, ad), ad.TopSites, report.AnalysisMarkers(ad, trace)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	switch n := len(rep.Result.Requests); {
	case tune == "always" || tune == "auto" && n <= analyze.DefaultOptions().TuneMaxRequests:
		rows, err := allocsim.TuneContext(ctx, rep.Result.Requests, st.CapacityBytes, st.TotalBytes, st.MemoryFraction)
		if err != nil {
			return nil, err
		}
		in.Tune = html.TuneOf(&rep, st.CapacityBytes, rows)
	case tune == "auto":
		// as analyze does: one replay, under the setting that ends size churn
		rows, err := allocsim.TuneSettings(ctx, rep.Result.Requests, allocsim.LongTraceGrid(), st.CapacityBytes,
			st.TotalBytes, st.MemoryFraction)
		if err != nil {
			return nil, err
		}
		in.Tune = html.TuneOf(&rep, st.CapacityBytes, rows)
		in.Notes = append(in.Notes, fmt.Sprintf("the allocator-settings table has expandable_segments:True alone: the trace has %d "+
			"requests and each setting is a full replay (run vramkit tune, or report --tune always, for the whole grid)", n))
	}
	return html.Build(in), nil
}

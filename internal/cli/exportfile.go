package cli

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/report"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// timelineBuckets is how many points the exports and the report keep of a
// timeline: enough for a 4K screen zoomed in tenfold, few enough that a
// million-event trace gives a file of a few MB.
const timelineBuckets = 20000

func exportPprofCommand() *Command {
	c := &Command{
		Name:    "export-pprof",
		Formats: "pprof (gzipped protocol buffer), to -o FILE",
		Usage:   "export-pprof [--device N] [--at peak|end|TIME] -o FILE.pb.gz SNAPSHOT",
		Short:   "write live memory by stack as a pprof profile (go tool pprof, speedscope)",
		Long: `Writes a gzipped pprof profile of the device's memory by allocation stack: inuse_space and
inuse_objects are the bytes and tensors alive at --at (peak: where allocated memory peaked;
end: the end of the trace; or a time since the first event such as 1.5s), alloc_space the
bytes allocated over the whole trace. Sizes are the bytes the program requested. Open it
with 'go tool pprof -http=: FILE' for flame graphs.`,
	}
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		var at *string
		out, s, d, err := exportArgs(ctx, c, env, args, func(fs *flag.FlagSet) {
			at = fs.String("at", "peak", "peak, end, or a time since the first event (e.g. 1.5s)")
		})
		if err != nil {
			return err
		}
		trace := s.Trace(d)
		peak := -1
		if *at == "peak" {
			_, _, tl, err := replayTimeline(ctx, s, d, analyze.Flags{}, 1, nil)
			if err != nil {
				return err
			}
			peak = tl.PeakAllocatedAt
		}
		idx, err := report.ResolveAt(*at, trace, peak)
		if err != nil {
			return &UsageError{err}
		}
		return writeFile(env, out, func(w io.Writer) error { return report.WritePprof(w, s, trace, idx) })
	}
	return c
}

func exportPerfettoCommand() *Command {
	c := &Command{
		Name:    "export-perfetto",
		Formats: "Chrome trace-event JSON, to -o FILE",
		Usage:   "export-perfetto [--device N] -o FILE.json SNAPSHOT",
		Short:   "write memory counters as Chrome trace-event JSON (Perfetto, chrome://tracing)",
		Long: `Writes a Chrome trace-event JSON file with counter tracks for allocated and reserved bytes
and for each memory category of vramkit analyze (parameters, gradients, optimizer state,
activations, temporaries, other, block rounding), and instant events where iterations start
and at analyze's leak and out-of-memory findings. Timestamps are the snapshot's
own microseconds, so the file can be opened next to a torch.profiler trace of the same run
in https://ui.perfetto.dev (which runs locally in the browser). Long traces are reduced to
each interval's lowest and highest values, so peaks are exact.`,
	}
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		out, s, d, err := exportArgs(ctx, c, env, args, nil)
		if err != nil {
			return err
		}
		st, rep, tl, err := replayTimeline(ctx, s, d, analyze.Flags{}, timelineBuckets, nil)
		if err != nil {
			return err
		}
		trace := s.Trace(d)
		ad, err := analyzeFor(s, st, &rep, tl, reportAhead{})
		if err != nil {
			return err
		}
		marks := report.AnalysisMarkers(ad, trace)
		return writeFile(env, out, func(w io.Writer) error { return report.WritePerfetto(w, tl, report.CategorySeries(ad), marks) })
	}
	return c
}

// exportArgs parses the flags the export commands share (-o, --device,
// plus what setup declares) and loads the snapshot and device to export.
func exportArgs(ctx context.Context, c *Command, env *Env, args []string, setup func(*flag.FlagSet)) (out string, s *snapshot.Snapshot, dev int, err error) {
	fs := newFlagSet(c, env.Stderr)
	o := fs.String("o", "", "output file (- for stdout)")
	d := fs.Int("device", -1, "CUDA device (default: the first with a trace)")
	if setup != nil {
		setup(fs)
	}
	if err = parseFlags(fs, args); err != nil {
		return "", nil, 0, err
	}
	path, err := oneArg(fs.Args(), "SNAPSHOT")
	if err != nil {
		return "", nil, 0, err
	}
	if *o == "" {
		return "", nil, 0, usagef("missing -o FILE")
	}
	s, dev, err = loadTraced(ctx, path, *d)
	return *o, s, dev, err
}

// loadTraced loads a snapshot and picks the device to draw: dev, or the
// first one with a trace when dev < 0.
func loadTraced(ctx context.Context, path string, dev int) (*snapshot.Snapshot, int, error) {
	s, err := loadSnapshot(ctx, path)
	if err != nil {
		return nil, 0, err
	}
	return pickTraced(s, path, dev)
}

// pickTraced picks the device of s to draw: dev, or the first one with a
// trace when dev < 0.
func pickTraced(s *snapshot.Snapshot, path string, dev int) (*snapshot.Snapshot, int, error) {
	if dev >= 0 {
		if len(s.Trace(dev)) == 0 {
			return nil, 0, fmt.Errorf("%s: device %d has no allocation trace", path, dev)
		}
		return s, dev, nil
	}
	for _, id := range s.DeviceIDs() {
		if len(s.Trace(id)) > 0 {
			return s, id, nil
		}
	}
	return nil, 0, fmt.Errorf("%s: no allocation trace (enable torch.cuda.memory._record_memory_history before the run)", path)
}

// writeFile writes through fn to the file name, or to stdout for "-",
// removing a half-written file on error.
func writeFile(env *Env, name string, fn func(io.Writer) error) error {
	if name == "-" {
		bw := bufio.NewWriter(env.Stdout)
		if err := fn(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	err = fn(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
	}
	return err
}

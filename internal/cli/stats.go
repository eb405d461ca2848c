package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/report"
	"github.com/vramkit/vramkit/internal/snapshot"
)

func statsCommand() *Command {
	c := &Command{
		Name:    "stats",
		Formats: "text (default) or json, on stdout",
		Usage:   "stats [--memory-fraction F] [--format text|json] SNAPSHOT",
		Short:   "the memory_stats() and memory_summary() a snapshot's trace determines",
		Long: `Replays the snapshot's allocation trace through vramkit's copy of PyTorch's caching
allocator and prints what torch.cuda.memory_stats() and memory_summary() reported at the end
of the run. SNAPSHOT is the pickle from torch.cuda.memory._dump_snapshot(), plain or gzipped.
If the trace did not start with the process (ring buffer overflow, history enabled late),
vramkit says so and reports what the recorded segments still tell.`,
	}
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		w := whatIf{capacity: "auto"}
		path, format, fs, err := snapshotArgs(c, env, args, func(fs *flag.FlagSet) {
			fs.Float64Var(&w.fraction, "memory-fraction", 1, "the per-process memory fraction the run set "+
				"(snapshots do not record it; garbage_collection_threshold only acts under one)")
		})
		if err != nil {
			return err
		}
		flags, err := w.flags(fs)
		if err != nil {
			return err
		}
		s, ahead, err := loadReplaying(ctx, path, allocsim.ReplayOptions{MemoryFraction: flags.MemoryFraction}, allocsim.AheadOptions{})
		if err != nil {
			return err
		}
		out, err := statsOf(ctx, s, path, flags, ahead)
		if err != nil {
			return err
		}
		return report.Write(env.Stdout, format, out, func(w io.Writer) error { return report.StatsText(w, &out) })
	}
	return c
}

// statsOf is the stats command's work on a decoded snapshot: each device
// replayed once, without its request stream (or its replay taken from
// ahead, when that ran while the file decoded).
func statsOf(ctx context.Context, s *snapshot.Snapshot, path string, flags analyze.Flags, ahead *allocsim.Ahead) (report.Stats, error) {
	var out report.Stats
	out.Path = path
	for _, dev := range s.DeviceIDs() {
		st, d, err := replayResolved(ctx, s, dev, flags, func(o allocsim.ReplayOptions) allocsim.ReplayOptions {
			o.KeepRequests = false
			o.Ahead = ahead
			return o
		})
		if err != nil {
			return out, err
		}
		m := d.Result.Stats.Map()
		var win *allocsim.Window
		if !d.TraceComplete && d.Events > 0 {
			w := allocsim.TraceWindow(s.Trace(dev), s.Segments, dev, d.Config)
			win = &w
		}
		if !d.TraceComplete {
			// Only the dump's own state is certain: keep the current
			// values the segment list gives and drop peaks and totals.
			seg := allocsim.SegmentStats(s.Segments, dev)
			m = currentOnly(seg.Map())
			d.Notes = append(d.Notes, "stats below are the allocator's state at the dump, read from the snapshot's segments; "+
				"the counters' peaks and cumulative totals need an exact replay and are left out")
		}
		out.Devices = append(out.Devices, report.StatsDevice{
			Device: dev, TraceComplete: d.TraceComplete, Events: d.Events,
			AllocConf: d.Config.Source, Notes: d.Notes, Stats: m, Window: win, Settings: st,
		})
	}
	if len(out.Devices) == 0 {
		return out, fmt.Errorf("%s: the snapshot holds no segments and no trace (was CUDA used?)", path)
	}
	return out, nil
}

// currentOnly keeps the ".current" counters of a memory_stats() map.
func currentOnly(m map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for k, v := range m {
		if strings.HasSuffix(k, ".current") {
			out[k] = v
		}
	}
	return out
}

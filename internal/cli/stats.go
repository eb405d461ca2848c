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
	"github.com/vramkit/vramkit/internal/units"
)

func statsCommand() *Command {
	c := &Command{
		Name:  "stats",
		Usage: "stats [--memory-fraction F] [--format text|json] SNAPSHOT",
		Short: "the memory_stats() and memory_summary() a snapshot's trace determines",
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
		s, err := loadSnapshot(path)
		if err != nil {
			return err
		}
		type devOut struct {
			Device        int              `json:"device"`
			TraceComplete bool             `json:"trace_complete"`
			Events        int              `json:"events"`
			AllocConf     string           `json:"alloc_conf"`
			Notes         []string         `json:"notes,omitempty"`
			Stats         map[string]int64 `json:"stats"`
			// Window is what an incomplete trace proves about the
			// stretch it covers.
			Window *allocsim.Window `json:"trace_window,omitempty"`
			// Settings are the resolved settings, each with its source.
			Settings analyze.Settings `json:"settings"`
		}
		var out struct {
			Path    string   `json:"path"`
			Devices []devOut `json:"devices"`
		}
		out.Path = path
		for _, dev := range s.DeviceIDs() {
			st, d, err := replayResolved(s, dev, flags, func(o allocsim.ReplayOptions) allocsim.ReplayOptions {
				o.KeepRequests = false
				return o
			})
			if err != nil {
				return err
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
			out.Devices = append(out.Devices, devOut{
				Device: dev, TraceComplete: d.TraceComplete, Events: d.Events,
				AllocConf: d.Config.Source, Notes: d.Notes, Stats: m, Window: win, Settings: st,
			})
		}
		if len(out.Devices) == 0 {
			return fmt.Errorf("%s: the snapshot holds no segments and no trace (was CUDA used?)", path)
		}
		if format == "json" {
			return writeJSON(env.Stdout, out)
		}
		for _, d := range out.Devices {
			status := "complete trace: figures are exact"
			if !d.TraceComplete {
				status = "INCOMPLETE trace: see notes"
			}
			fmt.Fprintf(env.Stdout, "%s — device %d, %s, %s\n", path, d.Device, plural(d.Events, "trace event", "trace events"), status)
			fmt.Fprintf(env.Stdout, "settings: %s\n", d.Settings.String())
			for _, n := range d.Notes {
				fmt.Fprintf(env.Stdout, "note: %s\n", n)
			}
			if !d.TraceComplete {
				printCurrent(env.Stdout, d.Stats)
				if w := d.Window; w != nil {
					printWindow(env.Stdout, w)
				}
				continue
			}
			if err := report.MemorySummary(env.Stdout, d.Stats, d.Device, false); err != nil {
				return err
			}
		}
		return nil
	}
	return c
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

func printCurrent(w io.Writer, m map[string]int64) {
	rows := []struct{ key, name string }{
		{"allocated_bytes", "allocated"}, {"active_bytes", "active"}, {"requested_bytes", "requested"},
		{"reserved_bytes", "reserved"}, {"inactive_split_bytes", "non-releasable (inactive split)"},
	}
	fmt.Fprintf(w, "  %-32s %14s %14s %14s\n", "at the dump", "all", "large pool", "small pool")
	for _, r := range rows {
		fmt.Fprintf(w, "  %-32s %14s %14s %14s\n", r.name, units.Bytes(m[r.key+".all.current"]),
			units.Bytes(m[r.key+".large_pool.current"]), units.Bytes(m[r.key+".small_pool.current"]))
	}
	fmt.Fprintf(w, "  %-32s %14d %14d %14d\n", "allocations", m["allocation.all.current"],
		m["allocation.large_pool.current"], m["allocation.small_pool.current"])
	fmt.Fprintf(w, "  %-32s %14d %14d %14d\n", "segments", m["segment.all.current"],
		m["segment.large_pool.current"], m["segment.small_pool.current"])
}

// printWindow shows what an incomplete trace proves about its own stretch.
func printWindow(w io.Writer, win *allocsim.Window) {
	secs := float64(win.EndUS-win.StartUS) / 1e6
	if win.FromStart() {
		fmt.Fprintf(w, "\n  over the whole trace (%d events, %.1f s):\n", win.Events, secs)
	} else {
		fmt.Fprintf(w, "\n  over the %d recorded events (%.1f s) — earlier history is gone:\n", win.Events, secs)
	}
	fmt.Fprintf(w, "  %-32s %14s  (exact: segment events carry their sizes)\n", "peak reserved in the window", units.Bytes(win.ReservedPeak))
	fmt.Fprintf(w, "  %-32s %14s  (a lower bound: blocks freed in the window count at their rounded request size; typically within 1%%)\n",
		"peak allocated in the window", units.Bytes(win.AllocatedPeak))
	fmt.Fprintf(w, "  %-32s %14s reserved, %s allocated\n", "at the window's start", units.Bytes(win.ReservedStart), units.Bytes(win.AllocatedStart))
}

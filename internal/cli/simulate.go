package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/report"
	"github.com/vramkit/vramkit/internal/snapshot"
	"github.com/vramkit/vramkit/internal/units"
)

// whatIf holds the settings flags of simulate, tune, stats and report;
// analyze.Resolve turns them, the snapshot and the GPU table into the
// settings every output reports with their sources.
type whatIf struct {
	capacity string
	fraction float64
	conf     string
	// given records which flags were set on the command line.
	given map[string]bool
}

func (w *whatIf) add(fs *flag.FlagSet) {
	fs.StringVar(&w.capacity, "capacity", "auto", "device memory the process may use, in bytes (e.g. 139GiB), or auto "+
		"(from the trace's OOM record when it has one, else the GPU table's H200 less its CUDA context)")
	fs.Float64Var(&w.fraction, "memory-fraction", 1, "per-process memory fraction, as torch.cuda.set_per_process_memory_fraction")
}

// flags reads the parsed flag set fs into analyze.Flags.
func (w *whatIf) flags(fs *flag.FlagSet) (analyze.Flags, error) {
	w.given = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { w.given[f.Name] = true })
	f := analyze.Flags{AllocConf: w.conf, AllocConfSet: w.given["alloc-conf"]}
	if w.fraction <= 0 || w.fraction > 1 {
		return f, usagef("--memory-fraction must be in (0, 1], not %v", w.fraction)
	}
	if w.given["memory-fraction"] {
		f.MemoryFraction = w.fraction
	}
	if w.capacity != "auto" {
		n, err := units.ParseBytes(w.capacity)
		if err != nil {
			return f, usagef("--capacity: %v", err)
		}
		f.CapacityBytes = n
	}
	return f, nil
}

// resolve is analyze.Resolve with its errors, all caused by flags, made
// usage errors.
func resolve(s *snapshot.Snapshot, dev int, f analyze.Flags) (analyze.Settings, error) {
	st, err := analyze.Resolve(s, dev, f)
	if err != nil {
		return st, usagef("%v", err)
	}
	return st, nil
}

// replayResolved resolves device dev's settings from f and replays it
// once under them, with the options more adds.
func replayResolved(ctx context.Context, s *snapshot.Snapshot, dev int, f analyze.Flags,
	more func(allocsim.ReplayOptions) allocsim.ReplayOptions) (analyze.Settings, allocsim.DeviceReplay, error) {
	st, err := resolve(s, dev, f)
	if err != nil {
		return st, allocsim.DeviceReplay{}, err
	}
	o := st.ReplayOptions()
	o.MakeRequests = hugeRequests
	if more != nil {
		o = more(o)
	}
	d, err := allocsim.ReplayDeviceContext(ctx, s, dev, o)
	return st, d, err
}

func simulateCommand() *Command {
	c := &Command{
		Name:    "simulate",
		Formats: "text (default) or json, on stdout",
		Usage:   "simulate [--alloc-conf STR] [--capacity BYTES|auto] [--memory-fraction F] [--format text|json] SNAPSHOT",
		Short:   "replay a trace through the allocator, as recorded or under other settings",
		Long: `Without settings flags, replays the trace under the settings it was recorded with and
reports whether every segment allocation, free, map and unmap and every block address was
reproduced. With --alloc-conf (a PYTORCH_CUDA_ALLOC_CONF string), --capacity or
--memory-fraction, replays the program's request stream under those settings and predicts
peak reserved and allocated memory, cudaMalloc retries and out-of-memory errors.`,
	}
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		var w whatIf
		path, format, fs, err := snapshotArgs(c, env, args, func(fs *flag.FlagSet) {
			fs.StringVar(&w.conf, "alloc-conf", "", "PYTORCH_CUDA_ALLOC_CONF to simulate (default: as recorded)")
			w.add(fs)
		})
		if err != nil {
			return err
		}
		flags, err := w.flags(fs)
		if err != nil {
			return err
		}
		whatIfMode := w.given["alloc-conf"] || w.given["capacity"] || w.given["memory-fraction"]
		s, err := loadSnapshot(ctx, path)
		if err != nil {
			return err
		}
		var out report.Simulation
		out.Path = path
		if len(s.DeviceIDs()) == 0 {
			return fmt.Errorf("%s: the snapshot holds no segments and no trace (was CUDA used?)", path)
		}
		for _, dev := range s.DeviceIDs() {
			// The request stream comes from the replay under the recorded
			// settings; the flags say what to run it under.
			rec, d, err := replayResolved(ctx, s, dev, analyze.Flags{}, nil)
			if err != nil {
				return err
			}
			if d.Events == 0 {
				return fmt.Errorf("%s: device %d has no allocation trace to replay (record it with torch.cuda.memory._record_memory_history)", path, dev)
			}
			if err := rec.Config.Simulable(); err != nil {
				return fmt.Errorf("%s: device %d: %w", path, dev, err)
			}
			recStats := d.Result.Stats
			o := report.SimDevice{Device: dev, RecordedReserved: recStats.ReservedBytes.All.Peak, Requests: len(d.Result.Requests)}
			if !whatIfMode {
				ok := d.Result.Reproduced
				o.Reproduced = &ok
				if !ok {
					msg := d.Result.FirstDivergence
					o.FirstDivergence, o.Notes = &msg, d.Notes
				}
				o.AllocConf, o.MemoryFraction, o.Settings = d.Config.String(), rec.MemoryFraction, rec
				o.CapacitySource = "the recorded trace"
				o.Outcome = allocsim.OutcomeOf(recStats, -1)
			} else {
				st, err := resolve(s, dev, flags)
				if err != nil {
					return err
				}
				o.AllocConf, o.CapacityBytes, o.CapacitySource = st.Config.Source, st.CapacityBytes, st.CapacityDetail
				o.MemoryFraction, o.Settings = st.MemoryFraction, st
				r := allocsim.Simulate(d.Result.Requests, st.Config, allocsim.NewDevice(st.CapacityBytes, st.TotalBytes))
				o.Outcome = allocsim.OutcomeOf(r.Stats, r.OOMAt)
			}
			out.Devices = append(out.Devices, o)
		}
		return report.Write(env.Stdout, format, out, func(w io.Writer) error { report.SimulationText(w, &out); return nil })
	}
	return c
}

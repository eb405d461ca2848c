package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/report"
	"github.com/vramkit/vramkit/internal/snapshot"
	"github.com/vramkit/vramkit/internal/units"
)

// whatIf holds the flags shared by simulate and tune.
type whatIf struct {
	capacity string
	fraction float64
}

func (w *whatIf) add(fs *flag.FlagSet) {
	fs.StringVar(&w.capacity, "capacity", "auto", "device memory the process may use, in bytes (e.g. 139GiB), or auto "+
		"(from the trace's OOM record when it has one, else unlimited)")
	fs.Float64Var(&w.fraction, "memory-fraction", 1, "per-process memory fraction, as torch.cuda.set_per_process_memory_fraction")
}

// resolve returns the capacity in bytes (0 = unlimited) and how it was found.
func (w *whatIf) resolve(events []snapshot.TraceEvent) (int64, string, error) {
	if w.fraction <= 0 || w.fraction > 1 {
		return 0, "", usagef("--memory-fraction must be in (0, 1], not %v", w.fraction)
	}
	if w.capacity != "auto" {
		n, err := units.ParseBytes(w.capacity)
		if err != nil {
			return 0, "", usagef("--capacity: %v", err)
		}
		return n, "given", nil
	}
	var reserved int64
	for i := range events {
		e := &events[i]
		switch e.Action {
		case snapshot.ActionSegmentAlloc, snapshot.ActionSegmentMap:
			reserved += int64(e.Size)
		case snapshot.ActionSegmentFree, snapshot.ActionSegmentUnmap:
			reserved -= int64(e.Size)
		case snapshot.ActionOOM:
			return reserved + int64(e.DeviceFree()), "reserved plus free device memory at the recorded OOM", nil
		}
	}
	return 0, "no OOM in the trace to infer it from; pass --capacity", nil
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
		var conf *string
		var w whatIf
		path, format, fs, err := snapshotArgs(c, env, args, func(fs *flag.FlagSet) {
			conf = fs.String("alloc-conf", "", "PYTORCH_CUDA_ALLOC_CONF to simulate (default: as recorded)")
			w.add(fs)
		})
		if err != nil {
			return err
		}
		whatIfMode := false
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "alloc-conf", "capacity", "memory-fraction":
				whatIfMode = true
			}
		})
		var cfg allocsim.Config
		if whatIfMode {
			if cfg, err = allocsim.ParseConfig(*conf); err != nil {
				return usagef("--alloc-conf: %v", err)
			}
		}
		s, err := loadSnapshot(path)
		if err != nil {
			return err
		}
		var out report.Simulation
		out.Path = path
		if len(s.DeviceIDs()) == 0 {
			return fmt.Errorf("%s: the snapshot holds no segments and no trace (was CUDA used?)", path)
		}
		for _, dev := range s.DeviceIDs() {
			d := allocsim.ReplayDevice(s, dev)
			if d.Events == 0 {
				return fmt.Errorf("%s: device %d has no allocation trace to replay (record it with torch.cuda.memory._record_memory_history)", path, dev)
			}
			rec := d.Result.Stats
			o := report.SimDevice{Device: dev, RecordedReserved: rec.ReservedBytes.All.Peak, MemoryFraction: w.fraction,
				Requests: len(d.Result.Requests)}
			if !whatIfMode {
				ok := d.Result.Reproduced
				o.Reproduced = &ok
				if !ok {
					msg := d.Result.FirstDivergence
					o.FirstDivergence = &msg
				}
				o.AllocConf = d.Config.String()
				o.CapacitySource = "the recorded trace"
				o.Outcome = allocsim.OutcomeOf(rec, -1)
			} else {
				capBytes, src, err := w.resolve(s.Trace(dev))
				if err != nil {
					return err
				}
				cfg.MemoryFraction = w.fraction
				o.AllocConf, o.CapacityBytes, o.CapacitySource = cfg.Source, capBytes, src
				r := allocsim.Simulate(d.Result.Requests, cfg, allocsim.NewDevice(capBytes))
				o.Outcome = allocsim.OutcomeOf(r.Stats, r.OOMAt)
			}
			out.Devices = append(out.Devices, o)
		}
		return report.Write(env.Stdout, format, out, func(w io.Writer) error { report.SimulationText(w, &out); return nil })
	}
	return c
}

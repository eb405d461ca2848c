package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/analyze"
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
func replayResolved(s *snapshot.Snapshot, dev int, f analyze.Flags,
	more func(allocsim.ReplayOptions) allocsim.ReplayOptions) (analyze.Settings, allocsim.DeviceReplay, error) {
	st, err := resolve(s, dev, f)
	if err != nil {
		return st, allocsim.DeviceReplay{}, err
	}
	o := st.ReplayOptions()
	if more != nil {
		o = more(o)
	}
	d, err := allocsim.ReplayDevice(s, dev, o)
	return st, d, err
}

type simOut struct {
	Device          int     `json:"device"`
	AllocConf       string  `json:"alloc_conf"`
	CapacityBytes   int64   `json:"capacity_bytes"`
	CapacitySource  string  `json:"capacity_source"`
	MemoryFraction  float64 `json:"memory_fraction"`
	Reproduced      *bool   `json:"reproduced"`
	FirstDivergence *string `json:"first_divergence"`
	allocsim.Outcome
	RecordedReserved int64 `json:"recorded_peak_reserved_bytes"`
	Requests         int   `json:"requests"`
	// Settings are the resolved settings, each with its source.
	Settings analyze.Settings `json:"settings"`
}

func simulateCommand() *Command {
	c := &Command{
		Name:  "simulate",
		Usage: "simulate [--alloc-conf STR] [--capacity BYTES|auto] [--memory-fraction F] [--format text|json] SNAPSHOT",
		Short: "replay a trace through the allocator, as recorded or under other settings",
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
		s, err := loadSnapshot(path)
		if err != nil {
			return err
		}
		var out struct {
			Path    string   `json:"path"`
			Devices []simOut `json:"devices"`
		}
		out.Path = path
		for _, dev := range s.DeviceIDs() {
			// The request stream comes from the replay under the recorded
			// settings; the flags say what to run it under.
			rec, d, err := replayResolved(s, dev, analyze.Flags{}, nil)
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
			o := simOut{Device: dev, RecordedReserved: recStats.ReservedBytes.All.Peak, Requests: len(d.Result.Requests)}
			if !whatIfMode {
				ok := d.Result.Reproduced
				o.Reproduced = &ok
				if !ok {
					msg := d.Result.FirstDivergence
					o.FirstDivergence = &msg
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
		if format == "json" {
			return writeJSON(env.Stdout, out)
		}
		for _, o := range out.Devices {
			printSim(env.Stdout, path, &o)
		}
		return nil
	}
	return c
}

func printSim(w io.Writer, path string, o *simOut) {
	conf := o.AllocConf
	if conf == "" {
		conf = "(defaults)"
	}
	fmt.Fprintf(w, "%s — device %d, PYTORCH_CUDA_ALLOC_CONF=%s\n", path, o.Device, conf)
	if o.Reproduced != nil {
		if *o.Reproduced {
			fmt.Fprintln(w, "replay: reproduced every segment event and block address of the trace")
		} else {
			fmt.Fprintf(w, "replay: DIVERGED at %s\n", *o.FirstDivergence)
		}
	} else {
		capS := "unlimited"
		if o.CapacityBytes > 0 {
			capS = units.Bytes(o.CapacityBytes) + " (" + strconv.FormatInt(o.CapacityBytes, 10) + " B)"
		}
		fmt.Fprintf(w, "device capacity: %s — %s\n", capS, o.CapacitySource)
		if o.MemoryFraction < 1 {
			fmt.Fprintf(w, "memory fraction: %g [%s]\n", o.MemoryFraction, o.Settings.FractionSource)
		}
	}
	fmt.Fprintf(w, "settings: %s\n", o.Settings.String())
	fmt.Fprintf(w, "  peak reserved    %12s  (%d B)\n", units.Bytes(o.PeakReserved), o.PeakReserved)
	fmt.Fprintf(w, "  peak allocated   %12s  (%d B)\n", units.Bytes(o.PeakAllocated), o.PeakAllocated)
	fmt.Fprintf(w, "  cudaMalloc calls %12d  (segments allocated or mapped)\n", o.DeviceAllocs)
	fmt.Fprintf(w, "  cudaFree calls   %12d  (segments released or unmapped)\n", o.DeviceFrees)
	fmt.Fprintf(w, "  alloc retries    %12d\n", o.Retries)
	fmt.Fprintf(w, "  OOM errors       %12d\n", o.OOMs)
	if o.OOMAt != nil {
		fmt.Fprintf(w, "  first OOM at trace event %d: the run would have died there\n", *o.OOMAt)
	}
	if o.Reproduced == nil && o.RecordedReserved > 0 {
		d := o.PeakReserved - o.RecordedReserved
		fmt.Fprintf(w, "  vs recorded run: peak reserved %s (%+.1f%%)\n", signedBytes(d), 100*float64(d)/float64(o.RecordedReserved))
	}
}

func signedBytes(d int64) string {
	if d >= 0 {
		return "+" + units.Bytes(d)
	}
	return units.Bytes(d)
}

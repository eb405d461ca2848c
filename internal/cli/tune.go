package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/report"
	"github.com/vramkit/vramkit/internal/snapshot"
)

func tuneCommand() *Command {
	c := &Command{
		Name:    "tune",
		Formats: "text (default) or json, on stdout",
		Usage:   "tune [--capacity BYTES|auto] [--memory-fraction F] [--format text|json] SNAPSHOT",
		Short:   "find the PYTORCH_CUDA_ALLOC_CONF that needs the least reserved memory",
		Long: `Replays the snapshot's request stream under a grid of allocator settings (expandable
segments, max_split_size_mb, roundup_power2_divisions, and garbage collection when a memory
fraction is given), ranks those with no OOM and no cudaMalloc retry by peak reserved memory,
and prints the PYTORCH_CUDA_ALLOC_CONF line to use with its saving against the recorded run.
The request stream is the recorded one: a program whose allocations depend on timing may
differ by a few small tensors.`,
	}
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		var w whatIf
		path, format, fs, err := snapshotArgs(c, env, args, w.add)
		if err != nil {
			return err
		}
		flags, err := w.flags(fs)
		if err != nil {
			return err
		}
		// The grid runs beside the replay under the settings a snapshot
		// with the default settings and no OOM resolves to (TuneRows
		// checks the guess).
		var setup *allocsim.TuneSetup
		if st, err := analyze.Resolve(&snapshot.Snapshot{}, 0, flags); err == nil {
			t := tuneSetup(st)
			setup = &t
		}
		s, ahead, err := loadReplaying(ctx, path, allocsim.DefaultReplayOptions(), allocsim.AheadOptions{Tune: setup})
		if err != nil {
			return err
		}
		out, err := tuneOf(ctx, s, path, flags, ahead)
		if err != nil {
			return err
		}
		return report.Write(env.Stdout, format, out, func(w io.Writer) error { report.TuningText(w, &out); return nil })
	}
	return c
}

// tuneOf is the tune command's work on a decoded snapshot: each device
// replayed once, then its request stream run under every setting of the
// grid.
func tuneOf(ctx context.Context, s *snapshot.Snapshot, path string, flags analyze.Flags, ahead *allocsim.Ahead) (report.Tuning, error) {
	var out report.Tuning
	out.Path = path
	if len(s.DeviceIDs()) == 0 {
		return out, fmt.Errorf("%s: the snapshot holds no segments and no trace (was CUDA used?)", path)
	}
	for _, dev := range s.DeviceIDs() {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		rec, d, err := replayResolved(ctx, s, dev, analyze.Flags{}, func(o allocsim.ReplayOptions) allocsim.ReplayOptions {
			o.Ahead = ahead
			return o
		})
		if err != nil {
			return out, err
		}
		if d.Events == 0 {
			return out, fmt.Errorf("%s: device %d has no allocation trace to replay", path, dev)
		}
		if err := rec.Config.Simulable(); err != nil {
			return out, fmt.Errorf("%s: device %d: %w", path, dev, err)
		}
		st, err := resolve(s, dev, flags)
		if err != nil {
			return out, err
		}
		o := report.TuneDevice{Device: dev, CapacityBytes: st.CapacityBytes, CapacitySource: st.CapacityDetail, Settings: st,
			RecordedConf: d.Config.String(), RecordedReserved: d.Result.Stats.ReservedBytes.All.Peak}
		rows, ok, err := ahead.TuneRows(ctx, dev, tuneSetup(st))
		if err == nil && !ok {
			rows, err = allocsim.TuneContext(ctx, d.Result.Requests, st.CapacityBytes, st.TotalBytes, st.MemoryFraction)
		}
		if err != nil {
			return out, err
		}
		o.Rows = rows
		if o.Rows[0].Feasible {
			best := o.Rows[0]
			o.Best = &best
			o.SavingBytes = o.RecordedReserved - best.PeakReserved
		}
		out.Devices = append(out.Devices, o)
	}
	return out, nil
}

// tuneSetup is what tune runs its grid under, from resolved settings.
func tuneSetup(st analyze.Settings) allocsim.TuneSetup {
	return allocsim.TuneSetup{Capacity: st.CapacityBytes, Total: st.TotalBytes, Fraction: st.MemoryFraction}
}

package cli

import (
	"context"
	"fmt"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/units"
)

func tuneCommand() *Command {
	c := &Command{
		Name:  "tune",
		Usage: "tune [--capacity BYTES|auto] [--memory-fraction F] [--format text|json] SNAPSHOT",
		Short: "find the PYTORCH_CUDA_ALLOC_CONF that needs the least reserved memory",
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
		s, err := loadSnapshot(path)
		if err != nil {
			return err
		}
		type devOut struct {
			Device           int                `json:"device"`
			CapacityBytes    int64              `json:"capacity_bytes"`
			CapacitySource   string             `json:"capacity_source"`
			RecordedConf     string             `json:"recorded_alloc_conf"`
			RecordedReserved int64              `json:"recorded_peak_reserved_bytes"`
			Best             *allocsim.TuneRow  `json:"best"`
			SavingBytes      int64              `json:"saving_bytes"`
			Rows             []allocsim.TuneRow `json:"results"`
			Settings         analyze.Settings   `json:"settings"`
		}
		var out struct {
			Path    string   `json:"path"`
			Devices []devOut `json:"devices"`
		}
		out.Path = path
		for _, dev := range s.DeviceIDs() {
			if err := ctx.Err(); err != nil {
				return err
			}
			rec, d, err := replayResolved(s, dev, analyze.Flags{}, nil)
			if err != nil {
				return err
			}
			if d.Events == 0 {
				return fmt.Errorf("%s: device %d has no allocation trace to replay", path, dev)
			}
			if err := rec.Config.Simulable(); err != nil {
				return fmt.Errorf("%s: device %d: %w", path, dev, err)
			}
			st, err := resolve(s, dev, flags)
			if err != nil {
				return err
			}
			o := devOut{Device: dev, CapacityBytes: st.CapacityBytes, CapacitySource: st.CapacityDetail, Settings: st,
				RecordedConf: d.Config.String(), RecordedReserved: d.Result.Stats.ReservedBytes.All.Peak}
			rows, err := allocsim.Tune(d.Result.Requests, st.CapacityBytes, st.TotalBytes, st.MemoryFraction)
			if err != nil {
				return err
			}
			o.Rows = rows
			if o.Rows[0].Feasible {
				best := o.Rows[0]
				o.Best = &best
				o.SavingBytes = o.RecordedReserved - best.PeakReserved
			}
			out.Devices = append(out.Devices, o)
		}
		if format == "json" {
			return writeJSON(env.Stdout, out)
		}
		for _, o := range out.Devices {
			rc := o.RecordedConf
			if rc == "" {
				rc = "(defaults)"
			}
			capS := "unlimited"
			if o.CapacityBytes > 0 {
				capS = units.Bytes(o.CapacityBytes)
			}
			fmt.Fprintf(env.Stdout, "%s — device %d: recorded with %s, peak reserved %s; capacity %s (%s)\n",
				path, o.Device, rc, units.Bytes(o.RecordedReserved), capS, o.CapacitySource)
			fmt.Fprintf(env.Stdout, "settings: %s\n\n", o.Settings.String())
			fmt.Fprintf(env.Stdout, "  %-52s %14s %9s %8s %8s\n", "PYTORCH_CUDA_ALLOC_CONF", "peak reserved", "vs rec.", "retries", "OOM")
			for _, r := range o.Rows {
				conf := r.AllocConf
				if conf == "" {
					conf = "(defaults)"
				}
				oom := "-"
				if r.OOMAt != nil {
					oom = fmt.Sprintf("ev %d", *r.OOMAt)
				}
				fmt.Fprintf(env.Stdout, "  %-52s %14s %+8.1f%% %8d %8s\n", conf, units.Bytes(r.PeakReserved),
					100*float64(r.PeakReserved-o.RecordedReserved)/float64(max(o.RecordedReserved, 1)), r.Retries, oom)
			}
			fmt.Fprintln(env.Stdout)
			switch {
			case o.Best == nil:
				fmt.Fprintln(env.Stdout, "no setting runs this trace without an OOM or a cudaMalloc retry at this capacity")
			case o.Best.AllocConf == "" || o.SavingBytes <= 0:
				fmt.Fprintf(env.Stdout, "keep the current settings: no setting in the grid reserves less (best: %s)\n", units.Bytes(o.Best.PeakReserved))
			default:
				fmt.Fprintf(env.Stdout, "use: PYTORCH_CUDA_ALLOC_CONF=%s\n", o.Best.AllocConf)
				fmt.Fprintf(env.Stdout, "saves %s of peak reserved memory (%.1f%% of %s recorded)\n", units.Bytes(o.SavingBytes),
					100*float64(o.SavingBytes)/float64(o.RecordedReserved), units.Bytes(o.RecordedReserved))
			}
		}
		return nil
	}
	return c
}

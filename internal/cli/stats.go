package cli

import (
	"context"
	"fmt"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/report"
)

func statsCommand() *Command {
	c := &Command{
		Name:  "stats",
		Usage: "stats [--format text|json] SNAPSHOT",
		Short: "the memory_stats() and memory_summary() a snapshot's trace determines",
		Long: `Replays the snapshot's allocation trace through vramkit's copy of PyTorch's caching
allocator and prints what torch.cuda.memory_stats() and memory_summary() reported at the end
of the run. SNAPSHOT is the pickle from torch.cuda.memory._dump_snapshot(), plain or gzipped.
If the trace did not start with the process (ring buffer overflow, history enabled late),
vramkit says so and reports what the recorded segments still tell.`,
	}
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		fs := newFlagSet(c, env.Stderr)
		format := addFormat(fs, "text", "json")
		if err := parseFlags(fs, args); err != nil {
			return err
		}
		if err := checkFormat(*format, "text", "json"); err != nil {
			return err
		}
		path, err := oneArg(fs.Args(), "SNAPSHOT")
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
		}
		var out struct {
			Path    string   `json:"path"`
			Devices []devOut `json:"devices"`
		}
		out.Path = path
		for _, dev := range s.DeviceIDs() {
			d := allocsim.ReplayDevice(s, dev)
			st := d.Result.Stats
			out.Devices = append(out.Devices, devOut{
				Device: dev, TraceComplete: d.TraceComplete, Events: d.Events,
				AllocConf: d.Config.Source, Notes: d.Notes, Stats: st.Map(),
			})
		}
		if len(out.Devices) == 0 {
			return fmt.Errorf("%s: the snapshot holds no segments and no trace (was CUDA used?)", path)
		}
		if *format == "json" {
			return writeJSON(env.Stdout, out)
		}
		for _, d := range out.Devices {
			status := "complete trace: figures are exact"
			if !d.TraceComplete {
				status = "INCOMPLETE trace: see notes"
			}
			fmt.Fprintf(env.Stdout, "%s — device %d, %s, %s\n", path, d.Device, plural(d.Events, "trace event", "trace events"), status)
			for _, n := range d.Notes {
				fmt.Fprintf(env.Stdout, "note: %s\n", n)
			}
			if err := report.MemorySummary(env.Stdout, d.Stats, d.Device, false); err != nil {
				return err
			}
		}
		return nil
	}
	return c
}

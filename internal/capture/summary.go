package capture

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/vramkit/vramkit/internal/units"
)

// Summarizer adds analysis of one snapshot to the summary (the CLI fills it
// in with the snapshot reader; nil prints none).
type Summarizer func(snapshotPath string, w io.Writer) error

// WriteSummary prints the one-screen summary of a run.
func WriteSummary(w io.Writer, r *Result, summarize Summarizer) {
	b := func(n uint64) string { return units.Bytes(int64(n)) }
	status := fmt.Sprintf("exit status %d", r.ExitCode)
	if r.Signal != "" {
		status = fmt.Sprintf("killed by %s (status %d)", r.Signal, r.ExitCode)
	}
	fmt.Fprintf(w, "\nvramkit run: %s → %s after %s\n", shortCmd(r.Command), status, r.Duration.Round(100*time.Millisecond))

	switch {
	case r.NVMLError != "":
		short, _, _ := strings.Cut(r.NVMLError, ";")
		fmt.Fprintf(w, "GPU memory (NVML): not sampled: %s\n", short)
	case len(r.GPUs) == 0:
		fmt.Fprintf(w, "GPU memory (NVML): the command's processes held no GPU memory in %d samples (every %s)\n", r.Samples, r.Options.Interval)
	default:
		fmt.Fprintf(w, "GPU memory (NVML, whole process tree, %d samples every %s):\n", r.Samples, r.Options.Interval)
		for _, g := range r.GPUs {
			fmt.Fprintf(w, "  GPU %d %s: peak %s of %s (%s) at %.1f s\n", g.Index, g.Name, b(g.PeakBytes), b(g.Total),
				units.Percent(float64(g.PeakBytes), float64(g.Total)), g.PeakAtSeconds)
		}
	}

	if len(r.Ranks) == 0 {
		fmt.Fprintln(w, "PyTorch: no snapshot (the command did not initialise CUDA through PyTorch, or ran with python -I/-E which ignores PYTHONPATH)")
	}
	for _, rk := range r.Ranks {
		who := "process"
		if rk.Rank != nil {
			who = "rank " + *rk.Rank
		}
		fmt.Fprintf(w, "PyTorch %s (pid %d, torch %s, ended by %s):\n", who, rk.PID, rk.TorchVersion, rk.Reason)
		var reserved uint64
		for _, d := range rk.Devices {
			fmt.Fprintf(w, "  cuda:%d  peak allocated %s, peak reserved %s\n", d.Index, b(d.MaxAllocatedBytes), b(d.MaxReservedBytes))
			reserved += d.MaxReservedBytes
		}
		if rk.NVMLPeakBytes > 0 && reserved > 0 && rk.NVMLPeakBytes > reserved {
			fmt.Fprintf(w, "  NVML peak %s − reserved peak %s = %s outside PyTorch's allocator (CUDA context, cuBLAS/NCCL workspaces, other libraries)\n",
				b(rk.NVMLPeakBytes), b(reserved), b(rk.NVMLPeakBytes-reserved))
		}
		if o := rk.OOM; o != nil {
			fmt.Fprintf(w, "  OUT OF MEMORY on cuda:%d: asked for %s while PyTorch held %s allocated and the device had %s free\n",
				o.Device, b(o.AllocBytes), b(o.DeviceAllocatedBytes), b(o.DeviceFreeBytes))
			if o.DeviceFreeBytes >= o.AllocBytes {
				fmt.Fprintln(w, "    the device itself had room: the limit was a per-process memory fraction (torch.cuda.set_per_process_memory_fraction),")
				fmt.Fprintln(w, "    or free memory was fragmented across cached blocks; the OOM snapshot shows which")
			} else {
				fmt.Fprintln(w, "    the device was full; the OOM snapshot shows what held the memory at that moment")
			}
		}
		if rk.Exception != nil && *rk.Exception != "" {
			fmt.Fprintf(w, "  uncaught %s\n", clip(*rk.Exception, 160))
		}
		for _, e := range rk.Errors {
			fmt.Fprintf(w, "  shim error: %s\n", e)
		}
	}

	for _, g := range r.GPUs {
		if g.Trend.Leak {
			fmt.Fprintf(w, "Suspected leak: GPU %d grew steadily at %s/s over the last %s", g.Index, b(uint64(g.Trend.Rate)), g.Trend.Span.Round(time.Second))
			if g.Trend.TimeToFull > 0 {
				fmt.Fprintf(w, " (full in %s at this rate)", g.Trend.TimeToFull.Round(time.Second))
			}
			fmt.Fprintln(w)
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "Note: %s\n", n)
	}

	var names []string
	for _, f := range r.Files {
		names = append(names, fmt.Sprintf("%s (%s)", f.Name, units.Bytes(f.Size)))
	}
	fmt.Fprintf(w, "Files in %s: %s\n", r.Out, strings.Join(names, ", "))
	snaps := r.Snapshots()
	for _, s := range snaps {
		if summarize == nil {
			break
		}
		fmt.Fprintf(w, "-- %s --\n", filepath.Base(s))
		if err := summarize(s, w); err != nil {
			fmt.Fprintf(w, "  (cannot analyse: %v)\n", err)
		}
	}
	if len(snaps) > 0 {
		fmt.Fprintf(w, "Next: vramkit stats %s   (or drop it on https://pytorch.org/memory_viz)\n", snaps[0])
	}
}

func shortCmd(argv []string) string {
	return clip(strings.Join(argv, " "), 80)
}

func clip(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

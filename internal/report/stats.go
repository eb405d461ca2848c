package report

import (
	"fmt"
	"io"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/units"
)

// Stats is `vramkit stats`' result: memory_stats() per device of one
// snapshot, as the replay (or, for an incomplete trace, the dump) gives it.
type Stats struct {
	Path    string        `json:"path"`
	Devices []StatsDevice `json:"devices"`
}

// StatsDevice is one device's memory_stats().
type StatsDevice struct {
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

// StatsText prints each device's memory_summary() table, or for an
// incomplete trace what the dump and the recorded window prove.
func StatsText(w io.Writer, r *Stats) error {
	for _, d := range r.Devices {
		status := "complete trace: figures are exact"
		if !d.TraceComplete {
			status = "INCOMPLETE trace: see notes"
		}
		events := fmt.Sprintf("%d trace events", d.Events)
		if d.Events == 1 {
			events = "1 trace event"
		}
		fmt.Fprintf(w, "%s — device %d, %s, %s\n", r.Path, d.Device, events, status)
		fmt.Fprintf(w, "settings: %s\n", d.Settings.String())
		for _, n := range d.Notes {
			fmt.Fprintf(w, "note: %s\n", n)
		}
		if !d.TraceComplete {
			printCurrent(w, d.Stats)
			if win := d.Window; win != nil {
				printWindow(w, win)
			}
			continue
		}
		if err := MemorySummary(w, d.Stats, d.Device, false); err != nil {
			return err
		}
	}
	return nil
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

package tui

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/vramkit/vramkit/internal/monitor"
	"github.com/vramkit/vramkit/internal/units"
)

func bytesStr(n uint64) string { return units.Bytes(int64(n)) }

// gpuLine is the one-line summary of a GPU shared by the TUI and --once.
func gpuLine(g monitor.GPUSample) string {
	if !g.Up {
		id := g.UUID
		if id == "" {
			id = "identity unknown"
		}
		return fmt.Sprintf("GPU %d (%s) DOWN: %s", g.Index, id, g.Error)
	}
	m := g.Memory
	s := fmt.Sprintf("GPU %d %s  %s / %s used (%s)", g.Index, g.Name, bytesStr(m.Used), bytesStr(m.Total), units.Percent(float64(m.Used), float64(m.Total)))
	if m.ReservedKnown {
		s += fmt.Sprintf(", %s reserved by the driver", bytesStr(m.Reserved))
	}
	if g.Util != nil {
		s += fmt.Sprintf(", util %d%%", g.Util.GPU)
	}
	return s
}

// procRow is one process on one GPU, flattened for sorting and filtering.
type procRow struct {
	gpu   int
	total uint64
	p     monitor.ProcSample
}

func rows(s monitor.Sample) []procRow {
	var out []procRow
	for _, g := range s.GPUs {
		for _, p := range g.Procs {
			out = append(out, procRow{gpu: g.Index, total: g.Memory.Total, p: p})
		}
	}
	return out
}

func (r procRow) used() string {
	if !r.p.UsedKnown {
		return "n/a"
	}
	return bytesStr(r.p.Used)
}

func (r procRow) share() string {
	if !r.p.UsedKnown {
		return "n/a"
	}
	return units.Percent(float64(r.p.Used), float64(r.total))
}

// WriteText prints one sample for `vramkit watch --once`: each GPU, then a
// process table sorted by memory.
func WriteText(w io.Writer, s monitor.Sample) {
	for _, g := range s.GPUs {
		fmt.Fprintln(w, gpuLine(g))
		if g.ProcError != "" {
			fmt.Fprintf(w, "  processes unavailable: %s\n", g.ProcError)
		}
	}
	rs := rows(s)
	if len(rs) == 0 {
		fmt.Fprintln(w, "\nno processes hold GPU memory")
		return
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].p.Used > rs[j].p.Used })
	fmt.Fprintf(w, "\n%-4s %-8s %-10s %-11s %-6s %s\n", "GPU", "PID", "USER", "GPU MEMORY", "SHARE", "COMMAND")
	for _, r := range rs {
		fmt.Fprintf(w, "%-4d %-8d %-10s %-11s %-6s %s\n", r.gpu, r.p.PID, clip(r.p.User, 10), r.used(), r.share(), r.p.Command)
	}
}

func clip(s string, n int) string {
	if n <= 0 {
		return ""
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// sparkline draws vs scaled to their own range, so that growth of a few
// percent of a large GPU is visible; the range is at least floor so that
// noise on a flat line does not fill the whole height.
func sparkline(vs []float64, floor float64) string {
	if len(vs) == 0 {
		return ""
	}
	lo, hi := vs[0], vs[0]
	for _, v := range vs {
		lo, hi = min(lo, v), max(hi, v)
	}
	span := max(hi-lo, floor)
	tr := []rune("▁▂▃▄▅▆▇█")
	var b strings.Builder
	for _, v := range vs {
		i := 0
		if span > 0 {
			i = int((v - lo) / span * float64(len(tr)-1))
		}
		b.WriteRune(tr[max(0, min(i, len(tr)-1))])
	}
	return b.String()
}

// bar draws a used/total bar of width cells.
func bar(used, total uint64, width int) string {
	if width <= 0 {
		return ""
	}
	n := 0
	if total > 0 {
		n = int(float64(used) / float64(total) * float64(width))
	}
	n = max(0, min(n, width))
	return "[" + strings.Repeat("█", n) + strings.Repeat("░", width-n) + "]"
}

// Package report renders vramkit's results for people and programs: the
// memory_summary() table, text, JSON and (elsewhere) HTML.
package report

import (
	"fmt"
	"io"
	"strings"
)

// MemorySummary writes the table torch.cuda.memory_summary(device) prints
// for the given memory_stats() values, character for character.
func MemorySummary(w io.Writer, stats map[string]int64, device int, abbreviated bool) error {
	var lines []string
	lines = append(lines, strings.Repeat("=", 75))
	lines = append(lines, fmt.Sprintf(" %16s PyTorch CUDA memory summary, device ID %-17d ", "", device))
	lines = append(lines, strings.Repeat("-", 75))
	lines = append(lines, fmt.Sprintf("  %9s CUDA OOMs: %-12d | %6s cudaMalloc retries: %-8d  ",
		"", stats["num_ooms"], "", stats["num_alloc_retries"]))
	lines = append(lines, strings.Repeat("=", 75))
	lines = append(lines, "        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  ")
	metrics := []struct {
		key, name string
		size      bool
	}{
		{"allocated_bytes", "Allocated memory", true},
		{"active_bytes", "Active memory", true},
		{"requested_bytes", "Requested memory", true},
		{"reserved_bytes", "GPU reserved memory", true},
		{"inactive_split_bytes", "Non-releasable memory", true},
		{"allocation", "Allocations", false},
		{"active", "Active allocs", false},
		{"segment", "GPU reserved segments", false},
		{"inactive_split", "Non-releasable allocs", false},
	}
	fields := [4]string{"current", "peak", "allocated", "freed"}
	for _, m := range metrics {
		lines = append(lines, strings.Repeat("-", 75))
		subs := [][2]string{{"all", m.name}}
		if !abbreviated {
			subs = append(subs, [2]string{"large_pool", "      from large pool"}, [2]string{"small_pool", "      from small pool"})
		}
		var pref [4]int64
		for si, sub := range subs {
			var cells [4]string
			for fi, f := range fields {
				v := stats[m.key+"."+sub[0]+"."+f]
				if si == 0 {
					pref[fi] = v
				}
				if m.size {
					cells[fi] = formatSize(v, pref[fi])
				} else {
					cells[fi] = formatCount(v, pref[fi])
				}
			}
			lines = append(lines, fmt.Sprintf(" %-21s | %s | %s | %s | %s ", sub[1], cells[0], cells[1], cells[2], cells[3]))
		}
	}
	for _, m := range [][2]string{{"oversize_allocations", "Oversize allocations"}, {"oversize_segments", "Oversize GPU segments"}} {
		lines = append(lines, strings.Repeat("-", 75))
		var cells [4]string
		for fi, f := range fields {
			v := stats[m[0]+"."+f]
			cells[fi] = formatCount(v, v)
		}
		lines = append(lines, fmt.Sprintf(" %-21s | %s | %s | %s | %s ", m[1], cells[0], cells[1], cells[2], cells[3]))
	}
	lines = append(lines, strings.Repeat("=", 75))
	_, err := io.WriteString(w, "|"+strings.Join(lines, "|\n|")+"|\n")
	return err
}

// formatSize is memory_summary's _format_size: the unit is chosen from the
// reference value (the row group's "all" value in the same column).
func formatSize(sz, pref int64) string {
	prefixes := []string{"B  ", "KiB", "MiB", "GiB", "TiB", "PiB"}
	p := prefixes[0]
	ref := float64(pref)
	for _, np := range prefixes[1:] {
		if ref < 768*1024 {
			break
		}
		p = np
		sz = floorDiv(sz, 1024)
		ref /= 1024
	}
	return fmt.Sprintf("%6d %s", sz, p)
}

func formatCount(cnt, pref int64) string {
	prefixes := []string{" ", "K", "M"}
	p := prefixes[0]
	ref := float64(pref)
	for _, np := range prefixes[1:] {
		if ref < 750*1000 {
			break
		}
		p = np
		cnt = floorDiv(cnt, 1000)
		ref /= 1000
	}
	return fmt.Sprintf("%7d %s ", cnt, p)
}

// floorDiv is Python's // for the rare negative value.
func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

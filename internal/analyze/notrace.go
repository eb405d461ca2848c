package analyze

import (
	"sort"
	"strings"

	"github.com/vramkit/vramkit/internal/allocsim"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// stateOnly fills what a snapshot without a usable allocation history
// (none recorded, or one that began after the allocator did) still tells:
// the allocator's state at the dump (the segment list) and, when the run
// recorded stacks for live blocks (context "state" or more), which lines
// hold that memory. Peaks, iterations, leaks and categories need the trace.
func stateOnly(s *snapshot.Snapshot, id int, top int, out *Device) {
	out.StateOnly = true
	out.BytesDefinition = "allocated block bytes at the dump (without a trace there is no category table to match)"
	type agg struct {
		bytes  int64
		count  int
		frames []snapshot.Frame
	}
	by := map[snapshot.StackID]*agg{}
	var allocated, reserved int64
	for _, g := range s.Segments {
		if g.Device != id {
			continue
		}
		reserved += int64(g.TotalSize)
		for _, b := range g.Blocks {
			if b.State != snapshot.BlockActiveAllocated {
				continue
			}
			allocated += int64(b.Size)
			a := by[b.Stack]
			if a == nil {
				a = &agg{}
				if fr := s.Frames(b.Stack); len(fr) > 0 {
					a.frames = collapse(fr)
				}
				by[b.Stack] = a
			}
			a.bytes += int64(b.Size)
			a.count++
		}
	}
	out.PeakAllocated, out.PeakReserved = allocated, reserved
	out.NVMLEstimate = reserved + out.ContextBytes
	out.Fragmentation.ReservedMinusAllocated = reserved - allocated
	if tr := s.Trace(id); len(tr) > 0 {
		cfg, _ := allocsim.FromSettings(s.Settings)
		w := allocsim.TraceWindow(tr, s.Segments, id, cfg)
		out.Window = &w
	}
	sites := make([]Site, 0, len(by))
	for _, a := range by {
		st := Site{Bytes: a.bytes, Count: a.count, Category: "unknown", Frames: a.frames}
		if len(a.frames) == 0 {
			st.Label = "no stack recorded for these blocks"
		}
		sites = append(sites, st)
	}
	// Ties broken by count, then by the frames, so reports are
	// reproducible (the sites come out of a map).
	sort.Slice(sites, func(i, j int) bool {
		x, y := &sites[i], &sites[j]
		if x.Bytes != y.Bytes {
			return x.Bytes > y.Bytes
		}
		if x.Count != y.Count {
			return x.Count > y.Count
		}
		return framesKey(x.Frames) < framesKey(y.Frames)
	})
	if len(sites) > top {
		sites = sites[:top]
	}
	out.TopSites = sites
}

// framesKey orders sites with equal bytes and counts by their frames.
func framesKey(fr []snapshot.Frame) string {
	var b strings.Builder
	for _, f := range fr {
		b.WriteString(f.Filename)
		b.WriteByte(':')
		b.WriteString(itoa(f.Line))
		b.WriteByte(':')
		b.WriteString(f.Name)
		b.WriteByte('|')
	}
	return b.String()
}

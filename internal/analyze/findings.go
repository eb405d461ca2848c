package analyze

import (
	"context"
	"fmt"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// fragmentation measures the cache's unused memory at peak reserved and,
// when it is worth a grid of replays, what vramkit tune would save.
func (d *dev) fragmentation(resPeak int) Fragmentation {
	f := Fragmentation{ReservedMinusAllocated: d.t.resPeakBytes - d.t.level[resPeak],
		InactiveSplitPeak: d.rep.Result.Stats.InactiveSplitBytes.All.Peak,
		// The replay kept the cache's state when it first reached peak
		// reserved, the same request as resPeak.
		LargestFreeBlock: d.rep.Result.AtPeakReserved.LargestFree}
	res := d.rep.Result.Stats.ReservedBytes.All.Peak
	grid := allocsim.TuneGrid(d.fraction())
	long := d.o.TuneMaxRequests > 0 && len(d.t.reqs) > d.o.TuneMaxRequests
	if long {
		grid = allocsim.LongTraceGrid()
	}
	switch {
	case !d.o.Tune:
		f.TuneSkipped = "disabled"
	case res == 0 || float64(f.ReservedMinusAllocated) < d.o.TuneMinWaste*float64(res):
		f.TuneSkipped = fmt.Sprintf("the cache holds under %.0f%% of peak reserved unused", 100*d.o.TuneMinWaste)
	case long && d.rep.Config.Expandable:
		f.TuneSkipped = fmt.Sprintf("the trace has %d requests and was recorded with expandable segments, the one setting tried "+
			"on a trace this long; run vramkit tune for the whole grid", len(d.t.reqs))
	default:
		f.TuneSettings = len(grid)
		rows, err := allocsim.TuneSettings(context.Background(), d.t.reqs, grid, d.st.CapacityBytes, d.st.TotalBytes, d.fraction())
		if err == nil && len(rows) > 0 && rows[0].Feasible && rows[0].AllocConf != d.rep.Config.Source {
			if s := d.rep.Result.Stats.ReservedBytes.All.Peak - rows[0].PeakReserved; s > 0 {
				f.TuneConf, f.TuneSaving, f.TunePeakAllocated = rows[0].AllocConf, s, rows[0].PeakAllocated
			}
		}
		if long && f.TuneConf == "" {
			f.TuneSkipped = fmt.Sprintf("the trace has %d requests: only expandable_segments:True was replayed and it reserves no less; "+
				"run vramkit tune for the whole grid", len(d.t.reqs))
		}
	}
	return f
}

// leakSite is the site whose allocations made in iterations lo..hi
// (1-based) are never freed, holding the most bytes; nil frames and an
// empty label when there is none.
func (d *dev) leakSite(lo, hi int) ([]snapshot.Frame, string) {
	bytes := map[string]int64{}
	var best string
	var frames []snapshot.Frame
	var label string
	for k := range d.t.lives {
		l := &d.t.lives[k]
		it := d.iterOf(int(l.alloc))
		if it < lo || it > hi || l.free != never {
			continue
		}
		key, fr, lb := d.siteOf(k, "kept")
		bytes[key] += l.block
		if best == "" || bytes[key] > bytes[best] {
			best, frames, label = key, fr, lb
		}
	}
	return frames, label
}

// leaks looks for memory that every iteration leaves behind. The first
// iteration is compared too: its floor already holds the optimizer state.
// A leak needs at least three iterations (two growths) and growth in every
// one of them.
func (d *dev) leaks() []Leak {
	n := len(d.starts) - 1
	if n < 3 {
		return []Leak{}
	}
	ends := make([]int64, n)
	for it := 0; it < n; it++ {
		ends[it] = d.floorEnd(it)
	}
	for it := 1; it < n; it++ {
		if ends[it]-ends[it-1] < d.o.LeakMinBytes {
			return []Leak{}
		}
	}
	per := (ends[n-1] - ends[0]) / int64(n-1)
	frames, label := d.leakSite(2, n-1)
	if frames == nil && label == "" {
		// Nothing the middle iterations made survives: the last one's
		// survivors, when there are any, are what grew.
		frames, label = d.leakSite(2, n)
	}
	if frames == nil && label == "" {
		label = "no single site: no tensor made after the first iteration outlives the trace (what each iteration kept was freed later)"
	}
	left := d.capBytes - d.rep.Result.Stats.ReservedBytes.All.Peak
	lk := Leak{BytesPerIteration: per, Iterations: n, CapacityBytes: d.capBytes, CapacitySource: d.capSource,
		Frames: frames, Label: label}
	if per > 0 && left > 0 {
		lk.IterationsToFull = left / per
	}
	if lk.Frames == nil {
		lk.Frames = []snapshot.Frame{}
	}
	return []Leak{lk}
}

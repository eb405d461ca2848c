package html

import (
	"strconv"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/report"
	"github.com/vramkit/vramkit/internal/snapshot"
	"github.com/vramkit/vramkit/internal/units"
)

// Input is what a report is made from. Snapshot and Timeline are required;
// the rest is drawn when present.
type Input struct {
	Title    string
	Source   string
	Snapshot *snapshot.Snapshot
	Timeline *report.Timeline
	// Live are the allocations alive at peak allocated memory, for the
	// icicle chart; Sites are analyze's top allocation sites.
	Live     []report.Live
	Sites    []analyze.Site
	Markers  []report.Marker
	Notes    []string
	Stats    allocsim.Stats
	Tune     *Tune
	Analysis *Analysis
}

// maxSites bounds the sites table; the icicle chart shows the rest.
const maxSites = 50

// flameMinFrac: icicle subtrees smaller than this share of the bytes are
// folded into one "other" box (too thin to see, and they bloat the file).
const flameMinFrac = 0.0005

// Build turns an Input into the page's Data.
func Build(in Input) *Data {
	d := &Data{Title: in.Title, Source: in.Source, Notes: in.Notes, Tune: in.Tune, Analysis: in.Analysis,
		Frames: []Frame{}, Stacks: [][]int{}}
	tl := in.Timeline
	d.Device = tl.Device
	// the stacks as analyze reads them: Python frames alone where the
	// snapshot has C++ frames too
	it := newInterner(snapshot.PythonView(in.Snapshot), d)
	trace := in.Snapshot.Trace(tl.Device)
	st := in.Stats
	d.Headline = []Figure{
		{Label: "peak allocated", Value: units.Bytes(st.AllocatedBytes.All.Peak), Note: "memory held by tensors"},
		{Label: "peak reserved", Value: units.Bytes(st.ReservedBytes.All.Peak), Note: "memory the caching allocator took from CUDA"},
		{Label: "trace events", Value: itoa(int64(len(trace)))},
		{Label: "OOMs / cudaMalloc retries", Value: itoa(st.NumOOMs) + " / " + itoa(st.NumAllocRetries)},
	}
	d.Timeline = buildTimeline(it, tl, trace, in)
	d.State = buildState(it, tl, trace)
	for i, s := range in.Sites {
		if i == maxSites {
			break
		}
		row := Site{Label: s.Label, Category: s.Category, Bytes: s.Bytes, Count: s.Count, Frames: []int{}}
		for _, f := range s.Frames {
			row.Frames = append(row.Frames, it.frame(f))
		}
		d.Sites = append(d.Sites, row)
	}
	if len(in.Live) > 0 {
		d.Flame = it.flame(in.Live, flameMinFrac)
	}
	return d
}

func buildTimeline(it *interner, tl *report.Timeline, trace []snapshot.TraceEvent, in Input) *Timeline {
	n := len(tl.Buckets)
	t := &Timeline{T: make([]int64, n), AMin: make([]int64, n), AMax: make([]int64, n), RMin: make([]int64, n),
		RMax: make([]int64, n), Big: make([]int, n), EndUS: tl.EndUS - tl.StartUS,
		Peaks: map[string]int64{"allocated": tl.PeakAllocated, "reserved": tl.PeakReserved}}
	for i, b := range tl.Buckets {
		t.T[i] = b.TimeUS - tl.StartUS
		t.AMin[i], t.AMax[i], t.RMin[i], t.RMax[i] = b.AllocMin, b.AllocMax, b.ResMin, b.ResMax
		t.Big[i] = -1
		if b.Big >= 0 {
			t.Big[i] = len(t.Allocs)
			t.Allocs = append(t.Allocs, alloc(it, trace, b.Big, tl.StartUS))
		}
	}
	for _, m := range in.Markers {
		m.TimeUS -= tl.StartUS
		t.Markers = append(t.Markers, m)
	}
	if a := in.Analysis; a != nil {
		t.Categories = a.Categories
	}
	return t
}

func alloc(it *interner, trace []snapshot.TraceEvent, ev int, start int64) Alloc {
	e := &trace[ev]
	return Alloc{Event: ev, T: e.TimeUS - start, Size: int64(e.Size), Stack: it.stack(e.Stack)}
}

func buildState(it *interner, tl *report.Timeline, trace []snapshot.TraceEvent) *State {
	if tl.PeakReservedAt < 0 {
		return nil
	}
	s := &State{T: trace[tl.PeakReservedAt].TimeUS - tl.StartUS, Reserved: tl.PeakReserved, Segments: []Segment{}}
	for i, g := range tl.PeakState {
		seg := Segment{Addr: uint64(g.Addr), Size: g.Size, Small: g.Small, Expandable: g.Expandable, Stream: g.Stream}
		for j, b := range g.Blocks {
			state, ai := int64(0), int64(-1)
			switch {
			case b.Allocated:
				state = 1
				s.Allocated += b.Size
			case b.Pending:
				state = 2
			case len(g.Blocks) > 1:
				s.Inactive += b.Size
			}
			if ev := tl.PeakBlocks[i][j]; ev >= 0 {
				ai = int64(len(s.Allocs))
				s.Allocs = append(s.Allocs, alloc(it, trace, ev, tl.StartUS))
			}
			seg.Blocks = append(seg.Blocks, [4]int64{b.Addr - g.Addr, b.Size, state, ai})
		}
		s.Segments = append(s.Segments, seg)
	}
	return s
}

// itoa prints a count with thousands separators.
func itoa(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

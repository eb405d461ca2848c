package report

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// Live is one allocation alive at some point of a trace.
type Live struct {
	Event int // trace index of its alloc event
	Size  int64
	Stack snapshot.StackID
}

// LiveAt lists the allocations alive just after trace event at (inclusive),
// in allocation order: every alloc not yet followed by a free_requested of
// its address. Sizes are the requested bytes, what the program asked for.
func LiveAt(trace []snapshot.TraceEvent, at int) []Live {
	at = min(at, len(trace)-1)
	live := make(map[uint64]int, 1024) // address -> trace index
	for i := 0; i <= at; i++ {
		e := &trace[i]
		switch e.Action {
		case snapshot.ActionAlloc:
			live[e.Addr] = i
		case snapshot.ActionFreeRequested:
			delete(live, e.Addr)
		}
	}
	out := make([]Live, 0, len(live))
	for _, i := range live {
		out = append(out, Live{Event: i, Size: int64(trace[i].Size), Stack: trace[i].Stack})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Event < out[j].Event })
	return out
}

// ResolveAt turns an --at value into a trace index: "peak" (peakAt, where
// allocated memory peaked), "end", or a duration since the trace's first
// event such as "1.5s" (the last event at or before it).
func ResolveAt(spec string, trace []snapshot.TraceEvent, peakAt int) (int, error) {
	if len(trace) == 0 {
		return 0, fmt.Errorf("the snapshot has no allocation trace")
	}
	switch spec {
	case "peak":
		if peakAt < 0 {
			return len(trace) - 1, nil
		}
		return peakAt, nil
	case "end", "":
		return len(trace) - 1, nil
	}
	d, err := time.ParseDuration(spec)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("--at must be peak, end or a time since the first event such as 1.5s, not %q", spec)
	}
	t := trace[0].TimeUS + d.Microseconds()
	i := sort.Search(len(trace), func(i int) bool { return trace[i].TimeUS > t })
	return max(i-1, 0), nil
}

// Site is an allocation site: the innermost frame of the allocations'
// stacks, where PyTorch asked for the memory.
type Site struct {
	Frame snapshot.Frame
	// User is the innermost frame outside PyTorch and site-packages: the
	// line of the user's program responsible, when there is one.
	User   snapshot.Frame
	Bytes  int64
	Count  int
	Stacks []snapshot.StackID // distinct stacks, largest first
}

// noFrame names allocations recorded without a stack.
var noFrame = snapshot.Frame{Name: "(no stack recorded)"}

// TopSites groups allocations by site, largest first.
func TopSites(s *snapshot.Snapshot, live []Live) []Site {
	type acc struct {
		site    Site
		byStack map[snapshot.StackID]int64
	}
	idx := map[snapshot.Frame]*acc{}
	var order []*acc
	for _, l := range live {
		fr := s.Frames(l.Stack)
		f := noFrame
		if len(fr) > 0 {
			f = fr[0]
		}
		a := idx[f]
		if a == nil {
			a = &acc{site: Site{Frame: f, User: UserFrame(fr)}, byStack: map[snapshot.StackID]int64{}}
			idx[f] = a
			order = append(order, a)
		}
		a.site.Bytes += l.Size
		a.site.Count++
		a.byStack[l.Stack] += l.Size
	}
	out := make([]Site, len(order))
	for i, a := range order {
		for st := range a.byStack {
			a.site.Stacks = append(a.site.Stacks, st)
		}
		sort.Slice(a.site.Stacks, func(x, y int) bool {
			bx, by := a.byStack[a.site.Stacks[x]], a.byStack[a.site.Stacks[y]]
			return bx > by || bx == by && a.site.Stacks[x] < a.site.Stacks[y]
		})
		out[i] = a.site
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Bytes != b.Bytes {
			return a.Bytes > b.Bytes
		}
		return a.Count > b.Count
	})
	return out
}

// UserFrame returns the innermost frame of fr that belongs to the user's
// program rather than to Python's libraries, or the zero Frame.
func UserFrame(fr []snapshot.Frame) snapshot.Frame {
	for _, f := range fr {
		if f.Filename == "" || strings.HasPrefix(f.Filename, "<") || strings.Contains(f.Filename, "site-packages/") ||
			strings.Contains(f.Filename, "dist-packages/") || strings.Contains(f.Filename, "/lib/python") {
			continue
		}
		return f
	}
	return snapshot.Frame{}
}

// FormatFrame prints a frame as "name (file:line)".
func FormatFrame(f snapshot.Frame) string {
	if f.Filename == "" {
		return f.Name
	}
	return fmt.Sprintf("%s (%s:%d)", f.Name, shortPath(f.Filename), f.Line)
}

// shortPath keeps the part of a path a reader recognises: what follows
// site-packages/, or the last two elements.
func shortPath(p string) string {
	if i := strings.LastIndex(p, "site-packages/"); i >= 0 {
		return p[i+len("site-packages/"):]
	}
	parts := strings.Split(p, "/")
	if len(parts) > 2 {
		return strings.Join(parts[len(parts)-2:], "/")
	}
	return p
}

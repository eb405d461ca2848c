package report

import (
	"fmt"
	"sort"
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
	if last := trace[len(trace)-1].TimeUS; t > last {
		span := time.Duration(last-trace[0].TimeUS) * time.Microsecond
		return 0, fmt.Errorf("--at %s is past the end of the trace, which spans %s", spec, span.Round(time.Millisecond))
	}
	i := sort.Search(len(trace), func(i int) bool { return trace[i].TimeUS > t })
	return max(i-1, 0), nil
}

// noFrame names allocations recorded without a stack.
var noFrame = snapshot.Frame{Name: "(no stack recorded)"}

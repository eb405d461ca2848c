package allocsim

import "github.com/vramkit/vramkit/internal/snapshot"

// Window is what a trace that does not start with the allocator (history
// enabled late, or a ring buffer that dropped its oldest entries) still
// proves about the stretch it covers. Reserved memory is exact: every
// segment event carries its size, and the segment list fixes the end.
// Allocated memory is exact at the end and reconstructed backwards from
// there; a block's size is taken from the segment list when it is still
// live, else from its rounded request, so blocks that took a whole cached
// block (up to 1 MiB larger in the large pool, a whole segment in a
// no_split pool) make it a lower bound — within 1% on real training traces.
type Window struct {
	Events          int   `json:"events"`
	StartUS         int64 `json:"start_us"`
	EndUS           int64 `json:"end_us"`
	ReservedStart   int64 `json:"reserved_start_bytes"`
	ReservedPeak    int64 `json:"reserved_peak_bytes"`
	ReservedPeakUS  int64 `json:"reserved_peak_us"`
	ReservedEnd     int64 `json:"reserved_end_bytes"`
	AllocatedStart  int64 `json:"allocated_start_bytes"`
	AllocatedPeak   int64 `json:"allocated_peak_bytes"`
	AllocatedPeakUS int64 `json:"allocated_peak_us"`
	AllocatedEnd    int64 `json:"allocated_end_bytes"`
}

// TraceWindow reconstructs allocated and reserved memory over the events
// of an incomplete trace, anchored at the state the snapshot's segments
// record for device dev.
func TraceWindow(trace []snapshot.TraceEvent, segs []snapshot.Segment, dev int, cfg Config) Window {
	w := Window{Events: len(trace)}
	live := map[uint64]int64{} // block address -> size, for blocks allocated at the end
	for _, g := range segs {
		if g.Device != dev {
			continue
		}
		w.ReservedEnd += int64(g.TotalSize)
		for _, b := range g.Blocks {
			if b.State == snapshot.BlockActiveAllocated {
				w.AllocatedEnd += int64(b.Size)
				live[b.Address] = int64(b.Size)
			}
		}
	}
	if len(trace) == 0 {
		w.ReservedStart, w.ReservedPeak = w.ReservedEnd, w.ReservedEnd
		w.AllocatedStart, w.AllocatedPeak = w.AllocatedEnd, w.AllocatedEnd
		return w
	}
	w.StartUS, w.EndUS = trace[0].TimeUS, trace[len(trace)-1].TimeUS
	// Size of each allocation event's block: the recorded block if it is
	// still the one at that address at the end, else the rounded request.
	// A free uses the size of the allocation it undoes when that is in the
	// window, so the pair cancels exactly.
	dAlloc := make([]int64, len(trace))
	dRes := make([]int64, len(trace))
	lastAlloc := map[uint64]int{} // address -> index of its latest alloc so far
	for i := range trace {
		e := &trace[i]
		switch e.Action {
		case snapshot.ActionAlloc:
			dAlloc[i] = cfg.RoundSize(int64(e.Size))
			lastAlloc[e.Addr] = i
		case snapshot.ActionFreeRequested:
			if j, ok := lastAlloc[e.Addr]; ok {
				dAlloc[i] = -dAlloc[j]
				delete(lastAlloc, e.Addr)
			} else {
				dAlloc[i] = -cfg.RoundSize(int64(e.Size))
			}
		case snapshot.ActionSegmentAlloc, snapshot.ActionSegmentMap:
			dRes[i] = int64(e.Size)
		case snapshot.ActionSegmentFree, snapshot.ActionSegmentUnmap:
			dRes[i] = -int64(e.Size)
		}
	}
	for addr, j := range lastAlloc { // allocated in the window and never freed
		if size, ok := live[addr]; ok {
			dAlloc[j] = size
		}
	}
	var sumA, sumR int64
	for i := range trace {
		sumA += dAlloc[i]
		sumR += dRes[i]
	}
	w.AllocatedStart, w.ReservedStart = w.AllocatedEnd-sumA, w.ReservedEnd-sumR
	a, r := w.AllocatedStart, w.ReservedStart
	w.AllocatedPeak, w.ReservedPeak = a, r
	w.AllocatedPeakUS, w.ReservedPeakUS = w.StartUS, w.StartUS
	for i := range trace {
		a += dAlloc[i]
		r += dRes[i]
		if a > w.AllocatedPeak {
			w.AllocatedPeak, w.AllocatedPeakUS = a, trace[i].TimeUS
		}
		if r > w.ReservedPeak {
			w.ReservedPeak, w.ReservedPeakUS = r, trace[i].TimeUS
		}
	}
	return w
}

// FromStart reports whether the window begins with an empty allocator, as
// a trace recorded from the process's first allocation does.
func (w Window) FromStart() bool { return w.ReservedStart == 0 && w.AllocatedStart == 0 }

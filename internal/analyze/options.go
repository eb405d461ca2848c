package analyze

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// Options tune the analysis. The zero value is not useful; start from
// DefaultOptions.
type Options struct {
	// Top is how many allocation sites to list at the peak and at an OOM.
	Top int `json:"top"`
	// CapacityBytes is the GPU's memory (totalGlobalMem). The replay takes
	// a memory fraction of it, and "iterations until the GPU is full"
	// counts against it; 0 takes the usable memory from an OOM record in
	// the trace, else assumes an H200 (allocsim.H200Total) and says so.
	CapacityBytes int64 `json:"capacity_bytes"`
	// MemoryFraction is the torch.cuda.set_per_process_memory_fraction the
	// run used; 0 means none. Snapshots do not record it, yet it caps
	// reserved memory and switches on garbage_collection_threshold, so
	// the replay needs it to reproduce such a run.
	MemoryFraction float64 `json:"memory_fraction"`
	// ValleyProminence is how far, as a fraction of peak allocated, the
	// curve must climb on both sides of a valley for the valley to count
	// as a possible iteration boundary (traces without frames).
	ValleyProminence float64 `json:"valley_prominence"`
	// FloorTolerance is how much higher than the later floor, as a
	// fraction of peak allocated (plus 1 MiB), a valley may be and still
	// be an iteration boundary.
	FloorTolerance float64 `json:"floor_tolerance"`
	// MinIterationShare: without frames, an iteration shorter (in
	// requests) than this share of the median one is merged into the one
	// before it.
	MinIterationShare float64 `json:"min_iteration_share"`
	// LeakMinBytes is the smallest per-iteration growth reported as a leak.
	LeakMinBytes int64 `json:"leak_min_bytes"`
	// TuneMinWaste is the share of peak reserved memory that must sit
	// unused in the cache before analyze runs vramkit tune's grid (each
	// grid entry is a full replay, so it is skipped when little can be won).
	TuneMinWaste float64 `json:"tune_min_waste"`
	// Tune enables the allocator-settings search of the fragmentation
	// section.
	Tune bool `json:"tune"`
	// TuneMaxRequests skips the search on traces with more requests than
	// this: the grid is a dozen full replays, which would dwarf the rest of
	// the analysis; vramkit tune runs it on demand.
	TuneMaxRequests int `json:"tune_max_requests"`
	// Batch is the run's batch size, when known (vramkit analyze --batch):
	// a first-step OOM's explanation then gives per-sample costs and batch
	// sizes; without it, shares of the batch.
	Batch int `json:"batch"`
	// CurveAt lists trace indices, ascending, at which to report the live
	// bytes per category (Device.CategoryCurve), for plots over time.
	CurveAt []int `json:"-"`
}

// DefaultOptions returns the settings vramkit analyze uses.
func DefaultOptions() Options {
	return Options{Top: 8, ValleyProminence: 0.02, FloorTolerance: 0.001, MinIterationShare: 0.5, LeakMinBytes: 1 << 20,
		TuneMinWaste: 0.10, Tune: true, TuneMaxRequests: 200_000}
}

// fraction is the memory fraction in allocsim's terms: 1 for none.
func (d *dev) fraction() float64 {
	if f := d.o.MemoryFraction; f > 0 && f < 1 {
		return f
	}
	return 1
}

// capacity is the memory the process may use and where that figure comes
// from. A recorded OOM measures it (reserved plus the device's free
// memory at that moment); otherwise it is the GPU's memory, given or
// assumed, times the memory fraction, or less the CUDA context (assumed
// too) when there is no fraction, since the context lives on the device.
func (d *dev) capacity() (int64, string) {
	f := d.fraction()
	total, src, hint := d.o.CapacityBytes, "the --capacity given", ""
	if total <= 0 {
		if usable, ok := oomUsable(d.trace); ok {
			if f < 1 {
				usable = min(usable, int64(f*float64(allocsim.H200Total)))
			}
			return usable, "measured: reserved plus free device memory at the recorded OOM"
		}
		total, src, hint = allocsim.H200Total, "assumed: an H200's "+bytesStr(allocsim.H200Total), "; pass --capacity for another GPU"
	}
	if f < 1 {
		return int64(f * float64(total)), fmt.Sprintf("%s × memory fraction %g%s", src, f, hint)
	}
	return total - ContextBytes, fmt.Sprintf("%s less a %s CUDA context (assumed)%s", src, bytesStr(ContextBytes), hint)
}

// oomUsable is reserved plus free device memory at the trace's first OOM.
func oomUsable(trace []snapshot.TraceEvent) (int64, bool) {
	var res int64
	for i := range trace {
		e := &trace[i]
		if e.Action == snapshot.ActionOOM {
			return res + int64(e.DeviceFree()), true
		}
		res += reservedDelta(e)
	}
	return 0, false
}

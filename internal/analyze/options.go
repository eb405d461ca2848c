package analyze

import "github.com/vramkit/vramkit/internal/allocsim"

// Options tune the analysis. The zero value is not useful; start from
// DefaultOptions.
type Options struct {
	// Top is how many allocation sites to list at the peak and at an OOM.
	Top int `json:"top"`
	// CapacityBytes is the GPU's memory (totalGlobalMem). The replay takes
	// a memory fraction of it, and "iterations until the GPU is full"
	// counts against it; 0 takes the usable memory from an OOM record in
	// the trace, else assumes DefaultGPU and says so (see Resolve).
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
	// TuneMaxRequests narrows the search on traces with more requests than
	// this to expandable_segments:True alone: the grid is a dozen full
	// replays, which would dwarf the rest of the analysis; vramkit tune
	// runs it on demand.
	TuneMaxRequests int `json:"tune_max_requests"`
	// Batch is the run's batch size, when known (vramkit analyze --batch):
	// a first-step OOM's explanation then gives per-sample costs and batch
	// sizes; without it, shares of the batch.
	Batch int `json:"batch"`
	// CurveAt lists trace indices, ascending, at which to report the live
	// bytes per category (Device.CategoryCurve), for plots over time.
	CurveAt []int `json:"-"`
	// MakeRequests, when set, makes the replay's request slice (see
	// allocsim.ReplayOptions.MakeRequests).
	MakeRequests func(n int) []allocsim.Request `json:"-"`
	// Ahead is the first device's replay run while the snapshot decoded
	// (see allocsim.Ahead), or nil.
	Ahead *allocsim.Ahead `json:"-"`
	// Timeline, when set, is the timeline built beside that replay (see
	// TimelineAhead), or nil.
	Timeline *TimelineAhead `json:"-"`
	// AdviseHugePages, when set, is handed each of the analysis'
	// per-request and per-allocation slices right after it is made, before
	// it is written (hundreds of megabytes on a large trace): the CLI
	// passes hugepage.AdviseAny so the kernel backs them with huge pages.
	// This package never touches the kernel itself.
	AdviseHugePages func(slice any) `json:"-"`
}

// DefaultOptions returns the settings vramkit analyze uses.
func DefaultOptions() Options {
	return Options{Top: 8, ValleyProminence: 0.02, FloorTolerance: 0.001, MinIterationShare: 0.5, LeakMinBytes: 1 << 20,
		TuneMinWaste: 0.10, Tune: true, TuneMaxRequests: 200_000}
}

// fraction is the memory fraction in force (1 for none).
func (d *dev) fraction() float64 { return d.st.MemoryFraction }

// Flags are the settings flags these options carry, for Resolve.
func (o Options) Flags() Flags {
	f := Flags{TotalBytes: o.CapacityBytes}
	if o.MemoryFraction > 0 && o.MemoryFraction < 1 { // 1 is none, the flag's default
		f.MemoryFraction = o.MemoryFraction
	}
	return f
}

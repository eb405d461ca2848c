package allocsim

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"sync"
)

// TuneGrid lists the PYTORCH_CUDA_ALLOC_CONF settings vramkit tune tries.
// GC thresholds only act under a memory fraction, so they join the grid
// only when one is given.
func TuneGrid(fraction float64) []string {
	g := []string{"", "expandable_segments:True"}
	for _, mb := range []int{20, 64, 128, 256, 512} {
		g = append(g, fmt.Sprintf("max_split_size_mb:%d", mb))
	}
	for _, d := range []int{2, 4, 8, 16} {
		g = append(g, fmt.Sprintf("roundup_power2_divisions:%d", d))
	}
	g = append(g, "roundup_power2_divisions:[256:1,>:4]", "expandable_segments:True,roundup_power2_divisions:4")
	if fraction < 1 {
		for _, mb := range []int{128, 512} {
			g = append(g, fmt.Sprintf("max_split_size_mb:%d,garbage_collection_threshold:0.8", mb),
				fmt.Sprintf("max_split_size_mb:%d,garbage_collection_threshold:0.6", mb))
		}
	}
	return g
}

// LongTraceGrid is the settings analyze and report replay on a trace too
// long for TuneGrid's dozen replays: expandable segments alone, the one
// setting that ends size churn (a growing cache, varying sequence
// lengths), at the cost of one more replay.
func LongTraceGrid() []string { return []string{"expandable_segments:True"} }

// Outcome is what a run of a request stream comes to, in the figures
// simulate and tune print (JSON names as in their contracts).
type Outcome struct {
	PeakReserved  int64 `json:"peak_reserved_bytes"`
	PeakAllocated int64 `json:"peak_allocated_bytes"`
	Retries       int64 `json:"num_alloc_retries"`
	OOMs          int64 `json:"num_ooms"`
	OOMAt         *int  `json:"oom_at_event"`
	DeviceAllocs  int64 `json:"num_device_alloc"`
	DeviceFrees   int64 `json:"num_device_free"`
}

// OutcomeOf reads an Outcome from final stats and the trace index of the
// first OOM (-1 for none).
func OutcomeOf(st Stats, oomAt int) Outcome {
	o := Outcome{PeakReserved: st.ReservedBytes.All.Peak, PeakAllocated: st.AllocatedBytes.All.Peak,
		Retries: st.NumAllocRetries, OOMs: st.NumOOMs, DeviceAllocs: st.NumDeviceAlloc, DeviceFrees: st.NumDeviceFree}
	if oomAt >= 0 {
		o.OOMAt = &oomAt
	}
	return o
}

// TuneRow is one setting's outcome on a request stream.
type TuneRow struct {
	AllocConf string `json:"alloc_conf"`
	Outcome
	// Feasible: the setting ran the stream with no OOM and no cudaMalloc
	// retry (a retry frees the whole cache and stalls the step).
	Feasible bool `json:"feasible"`
}

// Tune replays reqs under every setting of TuneGrid(fraction) on a device
// of capacity bytes (0 = unlimited) and total memory total (what the
// fraction multiplies) and returns the rows ranked: feasible
// first, then by peak reserved memory, then by fewer cudaMalloc/cudaFree
// calls.
//
// The settings are independent runs over the one read-only request
// stream, so they run side by side, one per available CPU: on a large
// trace this is most of the time tune, analyze and report take.
func Tune(reqs []Request, capacity, total int64, fraction float64) ([]TuneRow, error) {
	return TuneContext(context.Background(), reqs, capacity, total, fraction)
}

// TuneContext is Tune that stops starting new settings once ctx is done and
// then returns ctx's error: each setting is a full replay, so a stop waits
// for at most the runs already under way.
func TuneContext(ctx context.Context, reqs []Request, capacity, total int64, fraction float64) ([]TuneRow, error) {
	return TuneSettings(ctx, reqs, TuneGrid(fraction), capacity, total, fraction)
}

// TuneSettings is TuneContext over the given settings instead of
// TuneGrid's: analyze replays a trace too long for the whole grid under
// the one setting that most often saves most.
func TuneSettings(ctx context.Context, reqs []Request, grid []string, capacity, total int64, fraction float64) ([]TuneRow, error) {
	cfgs, err := parseGrid(grid, fraction)
	if err != nil {
		return nil, err
	}
	rows := make([]TuneRow, len(grid))
	ids := denseIDs(reqs)
	run := func(i int, live *blockTable) {
		rows[i] = tuneRow(grid[i], simulate(ctx, reqs, live, cfgs[i], NewDevice(capacity, total)))
	}
	workers := min(runtime.GOMAXPROCS(0), len(grid))
	if len(reqs) < 1<<14 {
		workers = 1 // a short stream: starting goroutines costs more than it saves
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			live := newBlockTable(ids) // one per worker, reused by its runs
			for i := range next {
				if ctx.Err() == nil {
					run(i, &live)
				}
			}
		}()
	}
	for i := range grid {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rankRows(rows)
	return rows, nil
}

// parseGrid parses the settings of grid, each under the fraction.
func parseGrid(grid []string, fraction float64) ([]Config, error) {
	cfgs := make([]Config, len(grid))
	for i, conf := range grid {
		cfg, err := ParseConfig(conf)
		if err != nil {
			return nil, fmt.Errorf("allocsim: tune grid entry %q: %w", conf, err)
		}
		cfg.MemoryFraction = fraction
		cfgs[i] = cfg
	}
	return cfgs, nil
}

// tuneRow is setting conf's row from its run r.
func tuneRow(conf string, r SimResult) TuneRow {
	row := TuneRow{AllocConf: conf, Outcome: OutcomeOf(r.Stats, r.OOMAt)}
	row.Feasible = row.OOMs == 0 && row.Retries == 0
	return row
}

// rankRows sorts rows: feasible first, then by peak reserved memory, then
// by fewer cudaMalloc/cudaFree calls.
func rankRows(rows []TuneRow) {
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.Feasible != b.Feasible {
			return a.Feasible
		}
		if a.PeakReserved != b.PeakReserved {
			return a.PeakReserved < b.PeakReserved
		}
		return a.DeviceAllocs+a.DeviceFrees < b.DeviceAllocs+b.DeviceFrees
	})
}

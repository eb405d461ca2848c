package allocsim

import (
	"testing"
)

// Tune runs the grid side by side; each row must be what one Simulate of
// that setting alone gives, and the recorded run's own setting (defaults)
// must reproduce the peak the exact replay of PyTorch's trace found.
func TestTuneParallelMatchesSequential(t *testing.T) {
	s := load(t, "h200/gpt2-dyn-pad-batch-default.pickle.gz")
	d := mustReplay(t, s, DefaultReplayOptions())
	if !d.TraceComplete {
		t.Fatal(d.Notes)
	}
	reqs := d.Result.Requests
	if len(reqs) < 1<<14 {
		t.Fatalf("%d requests: too few to run the grid in parallel", len(reqs))
	}
	rows, err := Tune(reqs, 0, h200Total, 1)
	if err != nil {
		t.Fatal(err)
	}
	grid := TuneGrid(1)
	if len(rows) != len(grid) {
		t.Fatalf("%d rows for a grid of %d", len(rows), len(grid))
	}
	byConf := map[string]TuneRow{}
	for _, r := range rows {
		byConf[r.AllocConf] = r
	}
	for _, conf := range grid {
		cfg, err := ParseConfig(conf)
		if err != nil {
			t.Fatal(err)
		}
		want := OutcomeOf(Simulate(reqs, cfg, NewDevice(0, h200Total)).Stats, -1)
		got, ok := byConf[conf]
		if !ok {
			t.Fatalf("no row for %q", conf)
		}
		if got.PeakReserved != want.PeakReserved || got.PeakAllocated != want.PeakAllocated ||
			got.DeviceAllocs != want.DeviceAllocs || got.DeviceFrees != want.DeviceFrees {
			t.Errorf("%q: parallel %+v, alone %+v", conf, got.Outcome, want)
		}
	}
	if got, want := byConf[""].PeakReserved, d.Result.Stats.ReservedBytes.All.Peak; got != want {
		t.Errorf("defaults row peak reserved %d, exact replay of the trace %d", got, want)
	}
	for i := 1; i < len(rows); i++ {
		a, b := rows[i-1], rows[i]
		if a.Feasible == b.Feasible && a.PeakReserved > b.PeakReserved {
			t.Errorf("rows %d and %d out of order: %d > %d", i-1, i, a.PeakReserved, b.PeakReserved)
		}
	}
}

// Simulate keeps live blocks by request ID and runs the allocator without
// its address map; under every tune setting it must end with exactly the
// counters of the same stream told through the public, address-based
// calls (Malloc, RecordStream, Free, CompleteEvents, EmptyCache).
func TestSimulateByIDMatchesAddressCalls(t *testing.T) {
	s := load(t, "h200/gpt2-dyn-pad-batch-default.pickle.gz")
	d := mustReplay(t, s, DefaultReplayOptions())
	reqs := d.Result.Requests
	for _, conf := range TuneGrid(0.5) {
		cfg, err := ParseConfig(conf)
		if err != nil {
			t.Fatal(err)
		}
		cfg.MemoryFraction = 0.5
		got := Simulate(reqs, cfg, NewDevice(0, h200Total))
		want, oomAt := simulateByAddress(reqs, cfg, NewDevice(0, h200Total))
		if got.Stats != want || got.OOMAt != oomAt {
			t.Errorf("%q: by ID OOM at %d, %+v\nby address OOM at %d, %+v", conf, got.OOMAt, got.Stats, oomAt, want)
		}
	}
}

// simulateByAddress is the reference for Simulate: the same stream through
// the address-based API, as Simulate ran before it kept blocks by ID.
func simulateByAddress(reqs []Request, cfg Config, dev Device) (Stats, int) {
	a := New(cfg, dev)
	ptrs := map[int32]int64{}
	for _, r := range reqs {
		switch r.Kind {
		case ReqAlloc:
			if r.Size == 0 {
				continue
			}
			a.SetPool(PoolID(r.Pool))
			p, err := a.Malloc(r.Size, r.Stream)
			if err != nil {
				return a.Stats(), int(r.Event)
			}
			ptrs[r.ID] = p
		case ReqFree:
			p, ok := ptrs[r.ID]
			if !ok || a.BlockSize(p) == 0 {
				continue
			}
			if r.Deferred {
				_ = a.RecordStream(p, -1)
			}
			_ = a.Free(p)
			if !r.Deferred {
				delete(ptrs, r.ID)
			}
		case ReqComplete:
			if p, ok := ptrs[r.ID]; ok {
				a.CompleteEvents(p)
				delete(ptrs, r.ID)
			}
		case ReqEmptyCache:
			a.EmptyCache()
		}
	}
	return a.Stats(), -1
}

// Frees of nothing live (a second free, a free after its completion, an
// unknown ID) change nothing, and a deferred free returns its block only
// at its completion: the same story told through the address-based API.
func TestSimulateIgnoresFreesOfNothing(t *testing.T) {
	reqs := []Request{
		{Kind: ReqAlloc, ID: 0, Size: 3 << 20},
		{Kind: ReqAlloc, ID: 1, Size: 5 << 20},
		{Kind: ReqFree, ID: 0, Deferred: true},
		{Kind: ReqFree, ID: 0},
		{Kind: ReqAlloc, ID: 2, Size: 3 << 20},
		{Kind: ReqComplete, ID: 0},
		{Kind: ReqFree, ID: 0},
		{Kind: ReqFree, ID: 7},
		{Kind: ReqFree, ID: 1},
		{Kind: ReqFree, ID: 1},
		{Kind: ReqAlloc, ID: 3, Size: 3 << 20},
	}
	got := Simulate(reqs, DefaultConfig(), NewDevice(0, h200Total))

	a := New(DefaultConfig(), NewDevice(0, h200Total))
	p0, _ := a.Malloc(3<<20, 0)
	p1, _ := a.Malloc(5<<20, 0)
	_ = a.RecordStream(p0, -1)
	_ = a.Free(p0)
	_, _ = a.Malloc(3<<20, 0) // p0's block still waits: a new one
	a.CompleteEvents(p0)
	_ = a.Free(p1)
	_, _ = a.Malloc(3<<20, 0)
	if want := a.Stats(); got.Stats != want {
		t.Errorf("Simulate ends with\n%+v\nthe address-based calls with\n%+v", got.Stats, want)
	}
	if got.Stats.AllocatedBytes.All.Current != 2*(3<<20) {
		t.Errorf("allocated %d at the end, want two 3 MiB blocks", got.Stats.AllocatedBytes.All.Current)
	}
}

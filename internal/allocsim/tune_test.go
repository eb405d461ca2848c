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

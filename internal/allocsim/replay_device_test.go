package allocsim

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// TestReplayDeviceOnePass checks what one replay fills besides the
// counters against the counters themselves and the recorded run: the
// timeline's extremes are the stats' peaks (PyTorch's own figures for
// these fixtures), the segments kept at peak reserved add up to it, and
// the OOM records are the trace's.
func TestReplayDeviceOnePass(t *testing.T) {
	rows := measured(t)
	for _, name := range []string{"bert-base-s128-b16-fp32", "oom-vitl16-b96-fp32", "gpt2-dyn-pad-batch-default"} {
		s := load(t, "h200/"+name+".pickle.gz")
		d := mustReplay(t, s, ReplayOptions{TotalMemory: h200Total, TimelineBuckets: 300, KeepPeakSegments: true})
		if !d.TraceComplete {
			t.Fatalf("%s: %v", name, d.Notes)
		}
		if n := len(d.Timeline); n == 0 || n > 300 {
			t.Errorf("%s: %d buckets, want 1..300", name, n)
		}
		var resMax, allocMax int64
		for _, b := range d.Timeline {
			resMax, allocMax = max(resMax, b.ResMax), max(allocMax, b.AllocMax)
		}
		row := rows[name]
		if allocMax != row.MaxAllocated || d.PeakAllocated != row.MaxAllocated {
			t.Errorf("%s: timeline peak allocated %d / %d, PyTorch %d", name, allocMax, d.PeakAllocated, row.MaxAllocated)
		}
		if resMax != row.MaxReserved || d.PeakReserved != row.MaxReserved {
			t.Errorf("%s: timeline peak reserved %d / %d, PyTorch %d", name, resMax, d.PeakReserved, row.MaxReserved)
		}
		var held int64
		for _, g := range d.PeakSegments {
			held += g.Size
		}
		if held != d.PeakReserved {
			t.Errorf("%s: segments at peak hold %d, peak reserved %d", name, held, d.PeakReserved)
		}
		tr := s.Trace(0)
		var ooms int
		for i := range tr {
			if tr[i].Action == snapshot.ActionOOM {
				ooms++
			}
		}
		if len(d.OOMs) != ooms || int64(ooms) != d.Result.Stats.NumOOMs {
			t.Errorf("%s: %d OOM records, trace has %d, stats %d", name, len(d.OOMs), ooms, d.Result.Stats.NumOOMs)
		}
		for _, o := range d.OOMs {
			if e := tr[o.Event]; int64(e.Size) != o.Size || int64(e.DeviceFree()) != o.DeviceFree {
				t.Errorf("%s: OOM record %+v does not match trace event %+v", name, o, e)
			}
		}
	}
}

// TestReplayDeviceNeedsTotal: a fraction multiplies the device's total,
// which allocsim no longer assumes.
func TestReplayDeviceNeedsTotal(t *testing.T) {
	s := load(t, "probes/gc-fraction.pickle.gz")
	if _, err := ReplayDevice(s, 0, ReplayOptions{MemoryFraction: 0.02}); !errors.Is(err, ErrNoTotal) {
		t.Fatalf("err = %v, want ErrNoTotal", err)
	}
}

// TestCudaMallocAsyncNotSimulated: the async backend bypasses the caching
// allocator, so a replay must say so rather than simulate the native one.
func TestCudaMallocAsyncNotSimulated(t *testing.T) {
	c, err := ParseConfig("backend:cudaMallocAsync")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Simulable(); err == nil || !strings.Contains(err.Error(), "cudaMallocAsync") {
		t.Fatalf("Simulable() = %v", err)
	}
	s := load(t, "h200/bert-base-s128-b16-fp32.pickle.gz")
	s.Settings.AllocConf = "backend:cudaMallocAsync"
	s.Settings.Present = false
	d := mustReplay(t, s, DefaultReplayOptions())
	if d.TraceComplete || !strings.Contains(strings.Join(d.Notes, " "), "cudaMallocAsync") {
		t.Errorf("complete=%v notes=%v", d.TraceComplete, d.Notes)
	}
}

// TestUnparsedConfReplaysWithDict: a recorded PYTORCH_CUDA_ALLOC_CONF that
// does not parse (here a key this PyTorch does not know, as a newer one
// may add) must not silently turn into the default allocator: the settings
// dict the snapshot carries holds the values in force, so the probes
// recorded with expandable segments and with max_split_size_mb:64 still
// replay to the recorded state, and the note says what was used. Without the dict the defaults are used, and said.
func TestUnparsedConfReplaysWithDict(t *testing.T) {
	for _, name := range []string{"probes/expandable-churn.pickle.gz", "probes/split64-oom.pickle.gz"} {
		s := load(t, name)
		want := mustReplay(t, s, DefaultReplayOptions())
		if !want.TraceComplete || want.Result.DivergedAt >= 0 {
			t.Fatalf("%s: the recorded settings do not replay (%+v)", name, want.Result)
		}
		s.Settings.AllocConf += ",a_future_key:1"
		cfg, err := FromSettings(s.Settings)
		if err == nil || !strings.Contains(err.Error(), "a_future_key") {
			t.Fatalf("%s: FromSettings error %v, want one naming the unknown key", name, err)
		}
		if cfg.Expandable != s.Settings.Expandable || cfg.GCThreshold != s.Settings.GCThreshold {
			t.Errorf("%s: config %+v, want the dict's values", name, cfg)
		}
		got := mustReplay(t, s, DefaultReplayOptions())
		if got.Result.DivergedAt >= 0 || !reflect.DeepEqual(got.Result.Stats, want.Result.Stats) || got.StateMismatch != "" {
			t.Errorf("%s: with the conf unparsed: diverged at %d, peak reserved %d (recorded settings: %d), mismatch %q",
				name, got.Result.DivergedAt, got.Result.Stats.ReservedBytes, want.Result.Stats.ReservedBytes, got.StateMismatch)
		}
		if n := strings.Join(got.Notes, " "); !strings.Contains(n, "a_future_key") || !strings.Contains(n, "settings dict") {
			t.Errorf("%s: notes %q, want the unparsed conf and the dict named", name, n)
		}
	}
	s := load(t, "probes/gc-fraction.pickle.gz")
	s.Settings.AllocConf, s.Settings.Present = "a_future_key:1", false
	if cfg, err := FromSettings(s.Settings); err == nil || cfg.GCThreshold != DefaultConfig().GCThreshold {
		t.Errorf("no dict: config %+v, error %v: want the defaults and the error", cfg, err)
	}
	if n := strings.Join(mustReplay(t, s, DefaultReplayOptions()).Notes, " "); !strings.Contains(n, "default settings") {
		t.Errorf("no dict: notes %q, want the defaults named", n)
	}
}

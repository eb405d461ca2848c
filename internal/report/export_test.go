package report

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// fixtures are the repository's snapshots, one per workload family.
var fixtures = []string{
	"h200/bert-base-s128-b16-fp32.pickle.gz",
	"h200/gpt2-dyn-pad-batch-default.pickle.gz",
	"h200/oom-vitl16-b96-fp32.pickle.gz",
	"h200/resnet50-b16x4-fp32-accum.pickle.gz",
	"probes/expandable-churn.pickle.gz",
}

var loaded sync.Map // name -> *snapshot.Snapshot: each fixture is decoded once

func load(t testing.TB, name string) *snapshot.Snapshot {
	t.Helper()
	if s, ok := loaded.Load(name); ok {
		return s.(*snapshot.Snapshot)
	}
	s, err := snapshot.LoadFile(filepath.Join("..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	loaded.Store(name, s)
	return s
}

// timeline replays device 0 of s once, keeping a timeline of n buckets.
func timeline(t *testing.T, s *snapshot.Snapshot, n int) (*Timeline, allocsim.DeviceReplay) {
	t.Helper()
	d, err := allocsim.ReplayDevice(s, 0, TimelineOptions(allocsim.ReplayOptions{}, n))
	if err != nil {
		t.Fatal(err)
	}
	return NewTimeline(s, &d), d
}

// TestTimelinePeaks: however few buckets the timeline keeps, its maxima
// are memory_stats()' peaks, and the state at peak reserved adds up.
func TestTimelinePeaks(t *testing.T) {
	for _, f := range fixtures {
		s := load(t, f)
		for _, n := range []int{7, 1 << 20} {
			tl, d := timeline(t, s, n)
			want := d.Result.Stats
			if !d.Result.Reproduced {
				t.Fatalf("%s: %s", f, d.Result.FirstDivergence)
			}
			var amax, rmax int64
			for _, b := range tl.Buckets {
				amax, rmax = max(amax, b.AllocMax), max(rmax, b.ResMax)
			}
			if amax != want.AllocatedBytes.All.Peak || tl.PeakAllocated != amax || rmax != want.ReservedBytes.All.Peak {
				t.Errorf("%s/%d buckets: peaks %d/%d allocated, %d reserved; memory_stats says %d, %d",
					f, n, amax, tl.PeakAllocated, rmax, want.AllocatedBytes.All.Peak, want.ReservedBytes.All.Peak)
			}
			if len(tl.Buckets) > n {
				t.Errorf("%s: %d buckets, asked for at most %d", f, len(tl.Buckets), n)
			}
			var sum int64
			for _, g := range tl.PeakState {
				sum += g.Size
			}
			if sum != tl.PeakReserved {
				t.Errorf("%s: segments at peak hold %d bytes, peak reserved is %d", f, sum, tl.PeakReserved)
			}
		}
	}
}

// TestPerfetto: the trace-event JSON parses and its allocated counter
// peaks where memory_stats() says.
func TestPerfetto(t *testing.T) {
	for _, f := range fixtures {
		s := load(t, f)
		tl, d := timeline(t, s, 500)
		var buf bytes.Buffer
		if err := WritePerfetto(&buf, tl, []CounterSeries{{Name: "activations", Values: []int64{1, 2}}},
			append(OOMMarkers(s.Trace(0)), Marker{TimeUS: tl.StartUS, Kind: "leak", Label: "a \"quoted\" finding"})); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			TraceEvents []struct {
				Name string         `json:"name"`
				Ph   string         `json:"ph"`
				Ts   int64          `json:"ts"`
				Args map[string]any `json:"args"`
			} `json:"traceEvents"`
		}
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		peak := map[string]float64{}
		ooms := 0
		for _, e := range doc.TraceEvents {
			if e.Ph == "C" {
				peak[e.Name] = max(peak[e.Name], e.Args["bytes"].(float64))
			}
			if e.Ph == "i" && e.Name == "oom" {
				ooms++
			}
		}
		st := d.Result.Stats
		if int64(peak["allocated"]) != st.AllocatedBytes.All.Peak || int64(peak["reserved"]) != st.ReservedBytes.All.Peak {
			t.Errorf("%s: counters peak at %v; memory_stats says %d allocated, %d reserved", f, peak,
				st.AllocatedBytes.All.Peak, st.ReservedBytes.All.Peak)
		}
		if int64(ooms) != st.NumOOMs {
			t.Errorf("%s: %d OOM instants, %d OOMs", f, ooms, st.NumOOMs)
		}
	}
}

// TestPprof: the profile parses back, its inuse_space at peak is the live
// requested bytes, and its heaviest line is the top allocation site.
func TestPprof(t *testing.T) {
	for _, f := range fixtures {
		s := load(t, f)
		trace := s.Trace(0)
		tl, _ := timeline(t, s, 1)
		var buf bytes.Buffer
		if err := WritePprof(&buf, s, trace, tl.PeakAllocatedAt); err != nil {
			t.Fatal(err)
		}
		p, err := profile.Parse(&buf)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		live := LiveAt(trace, tl.PeakAllocatedAt)
		var want, got, alloc, allocWant int64
		for _, l := range live {
			want += l.Size
		}
		for i := range trace {
			if trace[i].Action == snapshot.ActionAlloc {
				allocWant += int64(trace[i].Size)
			}
		}
		byLine := map[string]int64{}
		for _, sm := range p.Sample {
			got += sm.Value[0]
			alloc += sm.Value[2]
			ln := sm.Location[0].Line[0]
			byLine[ln.Function.Filename+":"+ln.Function.SystemName+":"+itoa(ln.Line)] += sm.Value[0]
		}
		if got != want || alloc != allocWant {
			t.Errorf("%s: inuse_space %d, alloc_space %d; want %d, %d", f, got, alloc, want, allocWant)
		}
		// analyze's top site, innermost frame first, is pprof's heaviest
		// line (equal bytes may order either way).
		o := analyze.DefaultOptions()
		o.Tune = false
		rep, err := analyze.Analyze(s, o)
		if err != nil {
			t.Fatal(err)
		}
		keys := make([]string, 0, len(byLine))
		for k := range byLine {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return byLine[keys[i]] > byLine[keys[j]] })
		site := rep.Devices[0].TopSites[0]
		if len(site.Frames) == 0 {
			continue // no frames: pprof has one "(no stack recorded)" line
		}
		top := site.Frames[0]
		if k := top.Filename + ":" + top.Name + ":" + itoa(int64(top.Line)); byLine[k] != byLine[keys[0]] {
			t.Errorf("%s: heaviest pprof line %s, analyze's top site %s", f, keys[0], k)
		}
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestResolveAt(t *testing.T) {
	tr := []snapshot.TraceEvent{{TimeUS: 100}, {TimeUS: 200}, {TimeUS: 1_000_100}}
	for _, c := range []struct {
		spec string
		want int
		bad  bool
	}{{"peak", 1, false}, {"end", 2, false}, {"0s", 0, false}, {"150us", 1, false}, {"1s", 2, false},
		{"1000001us", 0, true}, {"-1s", 0, true}, {"soon", 0, true}} {
		got, err := ResolveAt(c.spec, tr, 1)
		if (err != nil) != c.bad || !c.bad && got != c.want {
			t.Errorf("ResolveAt(%q) = %d, %v; want %d (error %v)", c.spec, got, err, c.want, c.bad)
		}
	}
	if _, err := ResolveAt("end", nil, -1); err == nil {
		t.Error("empty trace accepted")
	}
}

func TestQualifiedName(t *testing.T) {
	for in, want := range map[snapshot.Frame]string{
		{Name: "forward", Filename: "/x/lib/python3.12/site-packages/torch/nn/modules/linear.py"}: "torch.nn.modules.linear.forward",
		{Name: "step", Filename: "/home/u/train.py"}:                                              "train.step",
		{Name: "backward", Filename: "/x/site-packages/torch/autograd/__init__.py"}:               "torch.autograd.backward",
		{Name: "<lambda>", Filename: "<string>"}:                                                  "<lambda>",
	} {
		if got := QualifiedName(in); got != want {
			t.Errorf("QualifiedName(%v) = %q, want %q", in, got, want)
		}
	}
}

package monitor

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vramkit/vramkit/internal/nvml"
)

const gib = 1 << 30

func testLib() *nvml.Fake {
	return nvml.NewFake("570.1",
		nvml.FakeGPU{
			Info:   nvml.DeviceInfo{UUID: "GPU-a", Name: "Fake A"},
			Memory: nvml.Memory{Total: 80 * gib, Used: 30 * gib, Free: 49 * gib, Reserved: gib, ReservedKnown: true},
			Util:   nvml.Utilization{GPU: 90},
			Procs:  []nvml.Process{{PID: 100, Used: 20 * gib, UsedKnown: true}, {PID: 999, Used: 9 * gib, UsedKnown: true}},
		},
		nvml.FakeGPU{Info: nvml.DeviceInfo{UUID: "GPU-b"}, Err: nvml.ErrGPULost},
	)
}

var testProcs = StaticProcs{100: {PPID: 1, User: "alice", Name: "python3", Command: "python3 train.py"}}

func clockAt(t *time.Time) func() time.Time { return func() time.Time { return *t } }

func TestSampler(t *testing.T) {
	now := time.Unix(1000, 0)
	s := NewSampler(testLib(), testProcs, clockAt(&now))
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got := s.Sample()
	if !got.Time.Equal(now) || got.Driver != "570.1" || len(got.GPUs) != 2 {
		t.Fatalf("sample header = %v %q %d GPUs", got.Time, got.Driver, len(got.GPUs))
	}
	a := got.GPUs[0]
	if !a.Up || a.Memory.Used != 30*gib || a.Util == nil || a.Util.GPU != 90 || a.UUID != "GPU-a" {
		t.Errorf("GPU 0 = %+v", a)
	}
	if len(a.Procs) != 2 {
		t.Fatalf("GPU 0 processes = %+v", a.Procs)
	}
	if p := a.Procs[0]; !p.Visible || p.User != "alice" || p.Used != 20*gib {
		t.Errorf("visible process = %+v", p)
	}
	if p := a.Procs[1]; p.Visible || p.Name != "?" || !strings.Contains(p.Command, "namespace") {
		t.Errorf("invisible process = %+v", p)
	}
	b := got.GPUs[1]
	if b.Up || !strings.Contains(b.Error, "lost") || b.Index != 1 {
		t.Errorf("lost GPU = %+v", b)
	}
}

func TestSamplerScrambledProcesses(t *testing.T) {
	lib := testLib()
	lib.Update(func(g []nvml.FakeGPU) {
		g[0].Procs = append(g[0].Procs, nvml.Process{PID: 0, Used: 1 << 50, UsedKnown: true})
	})
	now := time.Unix(0, 0)
	s := NewSampler(lib, testProcs, clockAt(&now))
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	g := s.Sample().GPUs[0]
	if !g.Up || len(g.Procs) != 0 || !strings.Contains(g.ProcError, "sanity") {
		t.Errorf("scrambled list: up=%v procs=%v err=%q", g.Up, g.Procs, g.ProcError)
	}
}

func TestSamplerStartErrors(t *testing.T) {
	lib := testLib()
	lib.SetInitError(nvml.ErrNoDriver)
	if err := NewSampler(lib, nil, time.Now).Start(); !errors.Is(err, nvml.ErrNoDriver) {
		t.Errorf("Start = %v, want ErrNoDriver", err)
	}
	if err := NewSampler(nvml.NewFake("1"), nil, time.Now).Start(); !errors.Is(err, ErrNoGPUs) {
		t.Errorf("Start with no GPUs = %v, want ErrNoGPUs", err)
	}
}

type manualTicker struct{ c chan time.Time }

func (m manualTicker) C() <-chan time.Time { return m.c }
func (m manualTicker) Stop()               {}

func TestRunTicks(t *testing.T) {
	now := time.Unix(0, 0)
	s := NewSampler(testLib(), nil, clockAt(&now))
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	tk := manualTicker{make(chan time.Time)}
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan Sample, 10)
	done := make(chan struct{})
	go func() { s.Run(ctx, tk, func(x Sample) { got <- x }); close(done) }()
	<-got // the immediate first sample
	tk.c <- time.Time{}
	<-got
	tk.c <- time.Time{}
	<-got
	cancel()
	<-done
	if len(got) != 0 {
		t.Errorf("%d extra samples after two ticks", len(got))
	}
}

func TestHistoryRing(t *testing.T) {
	h := NewHistory(3)
	for i := 0; i < 5; i++ {
		h.Add(Sample{Time: time.Unix(int64(i), 0), GPUs: []GPUSample{{Up: true, Memory: nvml.Memory{Used: uint64(i)}}}})
	}
	if h.Len() != 3 {
		t.Fatalf("Len = %d", h.Len())
	}
	pts := h.GPUSeries(0, time.Time{})
	for i, want := range []float64{2, 3, 4} {
		if pts[i].V != want {
			t.Errorf("series[%d] = %v, want %v", i, pts[i].V, want)
		}
	}
	if last, _ := h.Last(); last.Time.Unix() != 4 {
		t.Errorf("Last = %v", last.Time)
	}
}

func TestProcSeriesShowsExit(t *testing.T) {
	h := NewHistory(10)
	with := func(ts int64, procs ...ProcSample) {
		h.Add(Sample{Time: time.Unix(ts, 0), GPUs: []GPUSample{{Up: true, Procs: procs}}})
	}
	p := func(used uint64) ProcSample { return ProcSample{ProcInfo: ProcInfo{PID: 7}, Used: used} }
	with(0)
	with(1, p(5))
	with(2, p(6))
	with(3)
	pts := h.ProcSeries(0, 7, time.Time{})
	var vs []float64
	for _, x := range pts {
		vs = append(vs, x.V)
	}
	if len(vs) != 3 || vs[0] != 5 || vs[1] != 6 || vs[2] != 0 {
		t.Errorf("series = %v, want [5 6 0]", vs)
	}
}

func TestParseStat(t *testing.T) {
	name, ppid, start, err := parseStat([]byte("42 (pt_main (thread)) S 7 42 42 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 12345 0 0"))
	if err != nil || name != "pt_main (thread)" || ppid != 7 || start != 12345 {
		t.Errorf("parseStat = %q %d %d %v", name, ppid, start, err)
	}
	if _, _, _, err := parseStat([]byte("garbage")); err == nil {
		t.Error("parseStat accepted garbage")
	}
}

func TestProcFSSelf(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	p := NewProcFS("/proc")
	info, ok := p.Lookup(uint32(os.Getpid()))
	if !ok || info.PPID != uint32(os.Getppid()) || info.User == "" || info.Command == "" {
		t.Fatalf("Lookup(self) = %+v, %v", info, ok)
	}
	if !InTree(p, uint32(os.Getppid()), uint32(os.Getpid())) {
		t.Error("we are not in our parent's tree")
	}
	if InTree(p, uint32(os.Getpid()), uint32(os.Getppid())) {
		t.Error("our parent is in our tree")
	}
}

func TestGPUSeriesSince(t *testing.T) {
	h := NewHistory(100)
	for i := 0; i < 50; i++ {
		h.Add(Sample{Time: time.Unix(int64(i), 0), GPUs: []GPUSample{{Up: i != 45, Memory: nvml.Memory{Used: uint64(i)}}}})
	}
	pts := h.GPUSeries(0, time.Unix(40, 0))
	if len(pts) != 9 || pts[0].V != 40 || pts[8].V != 49 {
		t.Errorf("since 40 s: %d points from %v to %v, want 9 (GPU down at 45)", len(pts), pts[0].V, pts[len(pts)-1].V)
	}
}

// A GPU that is lost after Start keeps the identity it had, so its series
// keep their labels.
func TestGPULostAfterStart(t *testing.T) {
	lib := testLib()
	lib.Update(func(g []nvml.FakeGPU) { g[1].Err = nil })
	s := NewSampler(lib, nil, time.Now)
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	lib.Update(func(g []nvml.FakeGPU) { g[1].Err = nvml.ErrGPULost })
	g := s.Sample().GPUs[1]
	if g.Up || g.UUID != "GPU-b" {
		t.Errorf("lost GPU = up %v uuid %q, want down with uuid GPU-b", g.Up, g.UUID)
	}
}

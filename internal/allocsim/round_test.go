package allocsim

import (
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/vramkit/vramkit/internal/snapshot"
)

func TestRoundSize(t *testing.T) {
	def := DefaultConfig()
	div4, _ := ParseConfig("roundup_power2_divisions:4")
	list, _ := ParseConfig("roundup_power2_divisions:[256:1,>:4]")
	for _, tc := range []struct {
		cfg  Config
		in   int64
		want int64
	}{
		{def, 1, 512}, {def, 511, 512}, {def, 512, 512}, {def, 513, 1024},
		{def, 1048577, 1049088}, {def, 10485761, 10486272},
		{div4, 3000, 3072}, {div4, 1200, 1536}, // allocator.md §2.3: below 2048 stays 512-rounded
		{div4, 5 << 20, 5 << 20}, {div4, 5<<20 + 1, 6 << 20}, {div4, 1 << 30, 1 << 30},
		{div4, 1<<30 + 1, 1<<30 + 1<<28},
		{list, 300 << 20, 300 << 20}, {list, 600<<20 + 1, 640 << 20},
	} {
		if got := tc.cfg.RoundSize(tc.in); got != tc.want {
			t.Errorf("%s: RoundSize(%d) = %d, want %d", tc.cfg.Source, tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct{ in, want int64 }{
		{512, 2 << 20}, {1 << 20, 2 << 20}, {1<<20 + 512, 20 << 20}, {10<<20 - 512, 20 << 20},
		{10 << 20, 10 << 20}, {10<<20 + 512, 12 << 20}, {25 << 20, 26 << 20},
	} {
		if got := def.AllocationSize(tc.in); got != tc.want {
			t.Errorf("AllocationSize(%d) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestParseConfig(t *testing.T) {
	c, err := ParseConfig(" expandable_segments:True, max_split_size_mb:128,roundup_power2_divisions:[256:1,>:4] ")
	if err != nil {
		t.Fatal(err)
	}
	if !c.Expandable || c.MaxSplitSize != 128<<20 || c.RoundupDivisions[8] != 1 || c.RoundupDivisions[9] != 4 || c.RoundupDivisions[0] != 1 {
		t.Errorf("parsed %+v", c)
	}
	if c2, err := ParseConfig(c.String()); err != nil || c2.MaxSplitSize != c.MaxSplitSize || c2.RoundupDivisions != c.RoundupDivisions || !c2.Expandable {
		t.Errorf("String() %q does not round-trip: %v", c.String(), err)
	}
	// the minimum of max_split_size_mb follows large_segment_size_mb set before it
	if _, err := ParseConfig("large_segment_size_mb:64,max_split_size_mb:32"); err == nil {
		t.Error("max_split_size_mb below large_segment_size_mb accepted")
	}
	for _, bad := range []string{"roundup_power2_divisions:[256:1", "expandable_segments", "max_split_size_mb:x",
		"garbage_collection_threshold:0", "per_process_memory_fraction:2", "large_segment_size_mb:10"} {
		if _, err := ParseConfig(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// The benchmarks report rates per second of wall time and per second of
// CPU time (user+system of the whole process, GC included): on a machine
// shared with other work the second is the one that says what one core
// does. The target is 10 million trace events per CPU second.

// BenchmarkReplay measures the replay rate in trace events per second on a
// real trace, keeping the request stream (what tune and analyze replay).
func BenchmarkReplay(b *testing.B) {
	benchReplay(b, DefaultReplayOptions())
}

// BenchmarkReplayStats is the replay behind `vramkit stats` (no request
// stream kept).
func BenchmarkReplayStats(b *testing.B) {
	benchReplay(b, ReplayOptions{})
}

// BenchmarkReplayTimeline is the replay behind `vramkit report`: the
// request stream, a 2000-bucket timeline and the segments at peak
// reserved, in the one pass.
func BenchmarkReplayTimeline(b *testing.B) {
	o := DefaultReplayOptions()
	o.TimelineBuckets, o.KeepPeakSegments = 2000, true
	benchReplay(b, o)
}

func benchReplay(b *testing.B, o ReplayOptions) {
	s := load(b, "h200/gpt2-dyn-pad-batch-default.pickle.gz")
	ev := s.Devices[0].Events
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if r := mustReplay(b, s, o); !r.TraceComplete {
			b.Fatal(r.Notes)
		}
	}
	reportRates(b, float64(len(ev)*b.N), cpuTime()-cpu0, "events")
}

// BenchmarkSimulate measures what-if runs in requests per second.
func BenchmarkSimulate(b *testing.B) {
	s := load(b, "h200/gpt2-dyn-pad-batch-default.pickle.gz")
	cfg, _ := FromSettings(s.Settings)
	reqs := mustReplay(b, s, DefaultReplayOptions()).Result.Requests
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		Simulate(reqs, cfg, NewDevice(0, h200Total))
	}
	reportRates(b, float64(len(reqs)*b.N), cpuTime()-cpu0, "requests")
}

func reportRates(b *testing.B, n float64, cpu time.Duration, what string) {
	b.ReportMetric(n/b.Elapsed().Seconds(), what+"/s")
	if cpu > 0 {
		b.ReportMetric(n/cpu.Seconds(), what+"/cpu-s")
	}
}

// cpuTime is the process's user+system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

var _ = snapshot.ActionAlloc

// BenchmarkReplayFile is BenchmarkReplayStats on the snapshot named by
// $VRAMKIT_REPLAY_FILE (skipped when unset): bench/load's generated
// file, a trace of millions of events, replays with the free sets and the
// address table at the sizes the issue-17 benchmark meets.
func BenchmarkReplayFile(b *testing.B) {
	path := os.Getenv("VRAMKIT_REPLAY_FILE")
	if path == "" {
		b.Skip("VRAMKIT_REPLAY_FILE is not set")
	}
	s, err := snapshot.LoadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	n := len(s.Devices[0].Events)
	// The replay runs on this goroutine, locked to its thread: the
	// thread's CPU time is the replay's own (GC assists included, the
	// collector's workers and the load's leftovers not).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	runtime.GC()
	if os.Getenv("VRAMKIT_REPLAY_GC") != "" {
		// The collector marking most of the time, as while a parallel
		// load allocates: write barriers on.
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			for {
				select {
				case <-stop:
					return
				default:
					runtime.GC()
				}
			}
		}()
	}
	b.ResetTimer()
	cpu0 := threadCPUTime()
	for i := 0; i < b.N; i++ {
		if r := mustReplay(b, s, ReplayOptions{}); !r.TraceComplete {
			b.Fatal(r.Notes)
		}
	}
	cpu := threadCPUTime() - cpu0
	reportRates(b, float64(n*b.N), cpu, "events")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(n*b.N), "cpu-ns/event")
}

// threadCPUTime is the calling thread's CPU time so far.
func threadCPUTime() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3 // CLOCK_THREAD_CPUTIME_ID
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}

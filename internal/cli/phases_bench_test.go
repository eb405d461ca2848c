package cli

import (
	"context"
	"io"
	"os"
	"runtime/debug"
	"syscall"
	"testing"
	"time"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/hugepage"
	"github.com/vramkit/vramkit/internal/report"
	"github.com/vramkit/vramkit/internal/report/html"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// BenchmarkPhases times what stats, analyze, report and tune do after the
// snapshot is decoded, on the snapshot named by $VRAMKIT_BENCH_SNAPSHOT
// (bench/load.sh -keep writes a 1 GiB one), decoded once for all four:
//
//	VRAMKIT_BENCH_SNAPSHOT=/tmp/vramkit-bench-load.pickle \
//	    go test -run - -bench Phases -benchtime 1x ./internal/cli
//
// Each reports its CPU seconds per run (user+system of the process, GC
// included) beside the wall time, since on a shared machine the CPU time is
// the steadier figure. The collector runs at the CLI's GOGC (10), and the
// heap goes back to the kernel before each run, so that a run faults its
// memory in afresh as the command does. Without the variable it is
// skipped.
func BenchmarkPhases(b *testing.B) {
	path := os.Getenv("VRAMKIT_BENCH_SNAPSHOT")
	if path == "" {
		b.Skip("set VRAMKIT_BENCH_SNAPSHOT to a snapshot file")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	ctx := context.Background()
	s, err := loadSnapshot(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	phases := []struct {
		name string
		run  func() error
	}{
		{"stats", func() error {
			out, err := statsOf(ctx, s, path, analyze.Flags{}, nil)
			if err != nil {
				return err
			}
			return report.Write(io.Discard, "json", out, nil)
		}},
		{"analyze", func() error {
			o := analyze.DefaultOptions()
			o.MakeRequests, o.AdviseHugePages = hugeRequests, hugepage.AdviseAny
			rep, err := analyze.AnalyzeContext(ctx, s, o)
			if err != nil {
				return err
			}
			files := []report.AnalysisFile{{Path: path, Devices: rep.Devices}}
			return report.Write(io.Discard, "json", struct {
				Files []report.AnalysisFile `json:"files"`
			}{files}, nil)
		}},
		{"report", func() error {
			d := -1
			for _, id := range s.DeviceIDs() {
				if len(s.Trace(id)) > 0 {
					d = id
					break
				}
			}
			page, err := reportOf(ctx, s, d, path, "auto", analyze.Flags{}, reportAhead{})
			if err != nil {
				return err
			}
			return html.Render(io.Discard, page)
		}},
		{"tune", func() error {
			out, err := tuneOf(ctx, s, path, analyze.Flags{}, nil)
			if err != nil {
				return err
			}
			return report.Write(io.Discard, "json", out, nil)
		}},
	}
	for _, p := range phases {
		b.Run(p.name, func(b *testing.B) {
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				debug.FreeOSMemory()
				cpu0 := cpuTime()
				b.StartTimer()
				if err := p.run(); err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - cpu0
			}
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
		})
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

// BenchmarkStatsAhead times stats on $VRAMKIT_BENCH_SNAPSHOT whole (load
// included), with the replay after the load ("after") and beside it
// ("ahead"): wall and CPU seconds of the load, and the tail — the wall time
// from the load's end to the output, which is what the replay adds to the
// critical path when it no longer runs alone.
func BenchmarkStatsAhead(b *testing.B) {
	path := os.Getenv("VRAMKIT_BENCH_SNAPSHOT")
	if path == "" {
		b.Skip("set VRAMKIT_BENCH_SNAPSHOT to a snapshot file")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	ctx := context.Background()
	for _, mode := range []string{"after", "ahead"} {
		b.Run(mode, func(b *testing.B) {
			var loadWall, tail, loadCPU, cpu time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				debug.FreeOSMemory()
				cpu0 := cpuTime()
				b.StartTimer()
				t0 := time.Now()
				var s *snapshot.Snapshot
				var ahead *allocsim.Ahead
				var err error
				if mode == "ahead" {
					s, ahead, err = loadReplaying(ctx, path, allocsim.ReplayOptions{}, allocsim.AheadOptions{})
				} else {
					s, err = loadSnapshot(ctx, path)
				}
				if err != nil {
					b.Fatal(err)
				}
				t1, cpu1 := time.Now(), cpuTime()
				out, err := statsOf(ctx, s, path, analyze.Flags{}, ahead)
				if err == nil {
					err = report.Write(io.Discard, "json", out, nil)
				}
				if err != nil {
					b.Fatal(err)
				}
				loadWall += t1.Sub(t0)
				tail += time.Since(t1)
				loadCPU += cpu1 - cpu0
				cpu += cpuTime() - cpu0
			}
			n := float64(b.N)
			b.ReportMetric(loadWall.Seconds()/n, "load-s/op")
			b.ReportMetric(tail.Seconds()/n, "tail-s/op")
			b.ReportMetric(loadCPU.Seconds()/n, "load-cpu-s/op")
			b.ReportMetric(cpu.Seconds()/n, "cpu-s/op")
		})
	}
}

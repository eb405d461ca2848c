package monitor

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/vramkit/vramkit/internal/nvml"
)

// benchLib is an 8-GPU machine with four processes per GPU, like a busy
// DGX H200.
func benchLib(pids []uint32) *nvml.Fake {
	var gpus []nvml.FakeGPU
	for i := 0; i < 8; i++ {
		g := nvml.FakeGPU{Info: nvml.DeviceInfo{UUID: fmt.Sprintf("GPU-%d", i), Name: "NVIDIA H200"},
			Memory: nvml.Memory{Total: 140 * gib, Used: 70 * gib, Free: 69 * gib, Reserved: gib, ReservedKnown: true}}
		for j := 0; j < 4; j++ {
			g.Procs = append(g.Procs, nvml.Process{PID: pids[(i*4+j)%len(pids)], Used: gib, UsedKnown: true})
		}
		gpus = append(gpus, g)
	}
	return nvml.NewFake("570", gpus...)
}

func benchSampler(b *testing.B, procs Procs) (*Sampler, *History) {
	now := time.Unix(0, 0)
	s := NewSampler(benchLib(livePIDs(b)), procs, func() time.Time { now = now.Add(100 * time.Millisecond); return now })
	if err := s.Start(); err != nil {
		b.Fatal(err)
	}
	h := NewHistory(6000) // ten minutes at 10 Hz
	for i := 0; i < 6000; i++ {
		h.Add(s.Sample())
	}
	return s, h
}

// livePIDs returns up to 32 PIDs that exist, so the procfs variant reads
// real, distinct processes.
func livePIDs(b *testing.B) []uint32 {
	pids := []uint32{uint32(os.Getpid())}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if n, err := strconv.ParseUint(e.Name(), 10, 32); err == nil && len(pids) < 32 {
			pids = append(pids, uint32(n))
		}
	}
	return pids
}

// BenchmarkSample is one 10 Hz tick with the fake on an 8-GPU, 32-process
// machine: read every GPU, look up every process, add to a full history.
// It reports the share of one core that sampling at 10 Hz costs.
func BenchmarkSample(b *testing.B) {
	for _, tc := range []struct {
		name  string
		procs Procs
	}{
		{"static-procs", StaticProcs{uint32(os.Getpid()): {User: "u", Name: "python3"}}},
		{"procfs", NewProcFS("/proc")},
		{"procfs-worst", worstProcFS()},
	} {
		b.Run(tc.name, func(b *testing.B) {
			s, h := benchSampler(b, tc.procs)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				h.Add(s.Sample())
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)*10/1e9*100, "%core@10Hz")
		})
	}
}

// worstProcFS re-reads /proc/PID/stat on every lookup. The benchmark loop
// runs far faster than 10 Hz, so with the normal one-second recheck it
// would see almost only cache hits; real 10 Hz sampling costs between the
// two variants.
func worstProcFS() *ProcFS {
	p := NewProcFS("/proc")
	p.recheck = 0
	return p
}

// BenchmarkTrends judges all eight GPUs over the default five-minute window
// (3000 points each at 10 Hz). Consumers do this once a second, so it
// reports the share of one core at 1 Hz.
func BenchmarkTrends(b *testing.B) {
	s, h := benchSampler(b, nil)
	opt := DefaultTrendOptions()
	last, _ := h.Last()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for g := range last.GPUs {
			Analyze(h.GPUSeries(g, last.Time.Add(-opt.Window)), last.GPUs[g].Memory.Free, opt)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)*1/1e9*100, "%core@1Hz")
	_ = s
}

// Package monitor turns NVML readings into samples: one Sample per tick
// with every GPU's memory and the processes holding it, kept in a
// ring-buffer History from which per-GPU and per-process series and trends
// (steady growth = suspected leak, with its rate and the time until the GPU
// is full) are derived. Time comes from an injected clock and ticker.
package monitor

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/vramkit/vramkit/internal/nvml"
)

// Sample is one reading of every GPU.
type Sample struct {
	Time   time.Time   `json:"time"`
	Driver string      `json:"driver_version,omitempty"`
	GPUs   []GPUSample `json:"gpus"`
}

// GPUSample is one GPU at one instant. When Up is false Error says why and
// the numbers are zero.
type GPUSample struct {
	nvml.DeviceInfo
	Up        bool              `json:"up"`
	Error     string            `json:"error,omitempty"`
	Memory    nvml.Memory       `json:"memory"`
	Util      *nvml.Utilization `json:"utilization,omitempty"`
	Procs     []ProcSample      `json:"processes"`
	ProcError string            `json:"process_error,omitempty"`
}

// ProcSample is one process's memory on one GPU. Visible is false when the
// PID is not in our process table (another PID namespace).
type ProcSample struct {
	ProcInfo
	Used      uint64 `json:"used_bytes"`
	UsedKnown bool   `json:"used_known"`
	Visible   bool   `json:"visible"`
}

// Sampler reads NVML. It is safe for concurrent use (the exporter samples
// on every scrape, possibly concurrently).
type Sampler struct {
	lib   nvml.Lib
	procs Procs
	now   func() time.Time

	mu      sync.Mutex
	started bool
	driver  string
	devices []nvml.DeviceInfo
}

// NewSampler returns a sampler over lib. procs may be nil (no process
// names); now is the clock (time.Now outside tests).
func NewSampler(lib nvml.Lib, procs Procs, now func() time.Time) *Sampler {
	return &Sampler{lib: lib, procs: procs, now: now}
}

// Start initialises NVML and finds the devices. Its error is the one to
// show a user: no driver, no cgo, no GPUs. Once it has succeeded, further
// calls do nothing; after a failure they try again.
func (s *Sampler) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return nil
	}
	if err := s.lib.Init(); err != nil {
		return err
	}
	n, err := s.lib.DeviceCount()
	if err != nil {
		s.lib.Shutdown()
		return err
	}
	if n == 0 {
		s.lib.Shutdown()
		return ErrNoGPUs
	}
	s.driver, _ = s.lib.DriverVersion()
	s.devices = make([]nvml.DeviceInfo, n)
	for i := range s.devices {
		s.devices[i] = s.info(i)
	}
	s.started = true
	return nil
}

// ErrNoGPUs means NVML works but lists no device.
var ErrNoGPUs = errors.New("NVML found no GPUs")

// info asks for a device's identity; a device that cannot answer keeps its
// index and is retried on the next sample.
func (s *Sampler) info(i int) nvml.DeviceInfo {
	d, err := s.lib.DeviceInfo(i)
	if err != nil {
		return nvml.DeviceInfo{Index: i}
	}
	d.Index = i
	return d
}

// Close shuts NVML down.
func (s *Sampler) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.started {
		return nil
	}
	s.started = false
	return s.lib.Shutdown()
}

// Devices returns the devices found by Start.
func (s *Sampler) Devices() []nvml.DeviceInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]nvml.DeviceInfo(nil), s.devices...)
}

// Sample reads every GPU once. A failing GPU is reported in its GPUSample,
// never as a failed sample.
func (s *Sampler) Sample() Sample {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := Sample{Time: s.now(), Driver: s.driver, GPUs: make([]GPUSample, len(s.devices))}
	seen := map[uint32]procLookup{} // a process on several GPUs is looked up once
	for i := range s.devices {
		if s.devices[i].UUID == "" {
			s.devices[i] = s.info(i)
		}
		out.GPUs[i] = s.gpu(i, seen)
	}
	return out
}

type procLookup struct {
	info ProcInfo
	ok   bool
}

func (s *Sampler) gpu(i int, seen map[uint32]procLookup) GPUSample {
	g := GPUSample{DeviceInfo: s.devices[i], Procs: []ProcSample{}}
	mem, err := s.lib.Memory(i)
	if err != nil {
		g.Error = err.Error()
		return g
	}
	g.Up, g.Memory = true, mem
	if u, err := s.lib.Utilization(i); err == nil {
		g.Util = &u
	}
	ps, err := s.lib.Processes(i)
	if err != nil {
		g.ProcError = err.Error()
		return g
	}
	for _, p := range ps {
		ps := ProcSample{ProcInfo: ProcInfo{PID: p.PID}, Used: p.Used, UsedKnown: p.UsedKnown}
		if s.procs != nil {
			l, ok := seen[p.PID]
			if !ok {
				l.info, l.ok = s.procs.Lookup(p.PID)
				seen[p.PID] = l
			}
			ps.ProcInfo, ps.Visible = l.info, l.ok
		}
		if !ps.Visible {
			ps.Name, ps.Command = "?", "? (pid not visible here: another PID namespace?)"
		}
		g.Procs = append(g.Procs, ps)
	}
	return g
}

// Ticker is the part of time.Ticker the loop uses, so tests can tick by hand.
type Ticker interface {
	C() <-chan time.Time
	Stop()
}

type realTicker struct{ t *time.Ticker }

func (r realTicker) C() <-chan time.Time { return r.t.C }
func (r realTicker) Stop()               { r.t.Stop() }

// NewTicker returns a real ticker with period d.
func NewTicker(d time.Duration) Ticker { return realTicker{time.NewTicker(d)} }

// Run samples once at once and then on every tick until ctx is done,
// handing each sample to fn on this goroutine. It stops the ticker.
func (s *Sampler) Run(ctx context.Context, t Ticker, fn func(Sample)) {
	defer t.Stop()
	fn(s.Sample())
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C():
			fn(s.Sample())
		}
	}
}

// String is a one-line description for logs.
func (g GPUSample) String() string {
	if !g.Up {
		return fmt.Sprintf("gpu %d: down: %s", g.Index, g.Error)
	}
	return fmt.Sprintf("gpu %d: %d/%d bytes, %d processes", g.Index, g.Memory.Used, g.Memory.Total, len(g.Procs))
}

// Package exporter serves vramkit's GPU memory readings to Prometheus.
//
// Metrics follow the Prometheus naming rules: one "vramkit_" prefix, base
// units (bytes, ratios 0–1, seconds), snake_case labels. Unlike
// dcgm-exporter and nvitop-exporter, which export MiB, every memory metric
// here is in bytes. Readings are taken synchronously on each scrape (NVML
// answers in microseconds), so there is no cache and no timestamps.
// A GPU that fails is a vramkit_gpu_up 0 series and a log line, never a
// failed scrape.
package exporter

import (
	"log/slog"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/vramkit/vramkit/internal/monitor"
)

// Options configure the collector.
type Options struct {
	// ProcessMetrics exports per-process memory. Each GPU process is a
	// series with a pid label; turn this off on fleets where processes
	// churn fast enough to strain the Prometheus server.
	ProcessMetrics bool `json:"process_metrics"`
}

// DefaultOptions exports everything.
func DefaultOptions() Options { return Options{ProcessMetrics: true} }

const ns = "vramkit"

var (
	gpuLabels  = []string{"gpu", "uuid"}
	descUp     = prometheus.NewDesc(ns+"_nvml_up", "1 if NVML initialised and listed the GPUs on this scrape, else 0.", nil, nil)
	descBuild  = prometheus.NewDesc(ns+"_build_info", "vramkit build information; always 1.", []string{"version", "goversion"}, nil)
	descScrape = prometheus.NewDesc(ns+"_scrape_duration_seconds", "Time this scrape spent reading NVML and /proc.", nil, nil)
	descInfo   = prometheus.NewDesc(ns+"_gpu_info", "GPU identity; always 1.", []string{"gpu", "uuid", "name", "driver_version"}, nil)
	descGPUUp  = prometheus.NewDesc(ns+"_gpu_up", "1 if the GPU answered NVML's memory query on this scrape, else 0.", gpuLabels, nil)
	descTotal  = prometheus.NewDesc(ns+"_gpu_memory_total_bytes", "Total GPU memory (frame buffer).", gpuLabels, nil)
	descUsed   = prometheus.NewDesc(ns+"_gpu_memory_used_bytes", "GPU memory in use by processes and contexts (excludes the driver reserve when it is reported separately).", gpuLabels, nil)
	descFree   = prometheus.NewDesc(ns+"_gpu_memory_free_bytes", "GPU memory free for allocation.", gpuLabels, nil)
	descRes    = prometheus.NewDesc(ns+"_gpu_memory_reserved_bytes", "GPU memory the driver and firmware reserve for themselves (NVML v2 memory query; absent when unsupported).", gpuLabels, nil)
	descUtil   = prometheus.NewDesc(ns+"_gpu_utilization_ratio", "Fraction of NVML's last sample period in which a kernel ran on the GPU (0-1).", gpuLabels, nil)
	descProc   = prometheus.NewDesc(ns+"_process_gpu_memory_used_bytes", "GPU memory used by one process as NVML reports it (CUDA context + caching allocator reserve, not just live tensors).", []string{"gpu", "uuid", "pid", "command", "user"}, nil)
)

// Sampler is what the collector needs from monitor.Sampler.
type Sampler interface {
	Start() error
	Sample() monitor.Sample
}

// Collector is a prometheus.Collector over a Sampler.
type Collector struct {
	s      Sampler
	opt    Options
	log    *slog.Logger
	now    func() time.Time
	ver    string
	mu     sync.Mutex
	ready  bool
	failed string // last Start error, logged once per change
}

// NewCollector returns a collector. The sampler need not be started: the
// collector starts it on the first scrape and retries on later ones, so a
// DaemonSet pod that comes up before the driver recovers by itself.
func NewCollector(s Sampler, opt Options, version string, log *slog.Logger, now func() time.Time) *Collector {
	return &Collector{s: s, opt: opt, log: log, now: now, ver: version}
}

// Describe implements prometheus.Collector.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descUp, descBuild, descScrape, descInfo, descGPUUp, descTotal, descUsed, descFree, descRes, descUtil, descProc} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	start := c.now()
	ch <- prometheus.MustNewConstMetric(descBuild, prometheus.GaugeValue, 1, c.ver, runtime.Version())
	if !c.start() {
		ch <- prometheus.MustNewConstMetric(descUp, prometheus.GaugeValue, 0)
		ch <- prometheus.MustNewConstMetric(descScrape, prometheus.GaugeValue, c.now().Sub(start).Seconds())
		return
	}
	ch <- prometheus.MustNewConstMetric(descUp, prometheus.GaugeValue, 1)
	s := c.s.Sample()
	for _, g := range s.GPUs {
		c.gpu(ch, s.Driver, g)
	}
	ch <- prometheus.MustNewConstMetric(descScrape, prometheus.GaugeValue, c.now().Sub(start).Seconds())
}

func (c *Collector) start() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ready {
		return true
	}
	if err := c.s.Start(); err != nil {
		if err.Error() != c.failed {
			c.log.Error("NVML unavailable; serving vramkit_nvml_up 0 and retrying on each scrape", "err", err)
			c.failed = err.Error()
		}
		return false
	}
	c.log.Info("NVML ready")
	c.ready, c.failed = true, ""
	return true
}

func (c *Collector) gpu(ch chan<- prometheus.Metric, driver string, g monitor.GPUSample) {
	idx := strconv.Itoa(g.Index)
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	if g.UUID != "" {
		gauge(descInfo, 1, idx, g.UUID, g.Name, driver)
	}
	if !g.Up {
		c.log.Warn("GPU did not answer", "gpu", g.Index, "uuid", g.UUID, "err", g.Error)
		gauge(descGPUUp, 0, idx, g.UUID)
		return
	}
	gauge(descGPUUp, 1, idx, g.UUID)
	m := g.Memory
	gauge(descTotal, float64(m.Total), idx, g.UUID)
	gauge(descUsed, float64(m.Used), idx, g.UUID)
	gauge(descFree, float64(m.Free), idx, g.UUID)
	if m.ReservedKnown {
		gauge(descRes, float64(m.Reserved), idx, g.UUID)
	}
	if g.Util != nil {
		gauge(descUtil, float64(g.Util.GPU)/100, idx, g.UUID)
	}
	if !c.opt.ProcessMetrics {
		return
	}
	if g.ProcError != "" {
		c.log.Warn("GPU process list unavailable", "gpu", g.Index, "err", g.ProcError)
		return
	}
	for _, p := range g.Procs {
		if !p.UsedKnown {
			continue // Windows WDDM and some MIG setups: NVML does not know
		}
		gauge(descProc, float64(p.Used), idx, g.UUID, strconv.FormatUint(uint64(p.PID), 10), p.Name, p.User)
	}
}

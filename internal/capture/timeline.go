package capture

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/vramkit/vramkit/internal/monitor"
	"github.com/vramkit/vramkit/internal/nvml"
)

// Timeline file names in the output directory.
const (
	TimelineCSV  = "nvml-timeline.csv"
	TimelineJSON = "nvml-timeline.json"
)

// Timeline is the JSON form of the NVML samples of one run.
type Timeline struct {
	Command         []string          `json:"command"`
	Start           time.Time         `json:"start"`
	IntervalSeconds float64           `json:"interval_seconds"`
	GPUs            []nvml.DeviceInfo `json:"gpus"`
	Samples         []TimelineSample  `json:"samples"`
}

// TimelineSample is one sample: seconds since the command started, and per
// GPU the whole device's usage and the command tree's share.
type TimelineSample struct {
	T    float64       `json:"t"`
	GPUs []TimelineGPU `json:"gpus"`
}

// TimelineGPU is one GPU in one sample. Processes lists only the command's
// process tree; TreeUsed is their sum.
type TimelineGPU struct {
	Index     int               `json:"index"`
	Up        bool              `json:"up"`
	Used      uint64            `json:"used_bytes"`
	Total     uint64            `json:"total_bytes"`
	TreeUsed  uint64            `json:"tree_used_bytes"`
	Processes []TimelineProcess `json:"processes,omitempty"`
}

// TimelineProcess is one process of the tree on one GPU.
type TimelineProcess struct {
	PID  uint32 `json:"pid"`
	Name string `json:"name"`
	Used uint64 `json:"used_bytes"`
}

// recorder streams samples to CSV as they come (so a killed vramkit leaves
// data behind) and keeps them for the JSON file, peaks and trends. Only
// the sampling goroutine calls add; finish runs after it has stopped.
type recorder struct {
	dir string
	f   *os.File
	buf *bufio.Writer
	w   *csv.Writer
	tl  Timeline
}

func newRecorder(dir string, argv []string, interval time.Duration) (*recorder, error) {
	f, err := os.Create(filepath.Join(dir, TimelineCSV))
	if err != nil {
		return nil, fmt.Errorf("capture: timeline: %w", err)
	}
	buf := bufio.NewWriter(f)
	w := csv.NewWriter(buf)
	w.Write([]string{"elapsed_s", "gpu", "uuid", "pid", "command", "process_used_bytes", "gpu_used_bytes", "gpu_total_bytes"})
	return &recorder{dir: dir, f: f, buf: buf, w: w, tl: Timeline{Command: argv, IntervalSeconds: interval.Seconds(), GPUs: []nvml.DeviceInfo{}}}, nil
}

func (r *recorder) devices(d []nvml.DeviceInfo) { r.tl.GPUs = d }

// add records sample x taken after start; inTree says whether a PID
// belongs to the command.
func (r *recorder) add(start time.Time, x monitor.Sample, inTree func(uint32) bool) {
	if r.tl.Start.IsZero() {
		r.tl.Start = start
	}
	ts := TimelineSample{T: x.Time.Sub(start).Seconds(), GPUs: make([]TimelineGPU, 0, len(x.GPUs))}
	el := strconv.FormatFloat(ts.T, 'f', 3, 64)
	for _, g := range x.GPUs {
		tg := TimelineGPU{Index: g.Index, Up: g.Up, Used: g.Memory.Used, Total: g.Memory.Total}
		for _, p := range g.Procs {
			if !inTree(p.PID) {
				continue
			}
			tg.TreeUsed += p.Used
			tg.Processes = append(tg.Processes, TimelineProcess{PID: p.PID, Name: p.Name, Used: p.Used})
			r.w.Write([]string{el, strconv.Itoa(g.Index), g.UUID, strconv.FormatUint(uint64(p.PID), 10), p.Name,
				strconv.FormatUint(p.Used, 10), strconv.FormatUint(g.Memory.Used, 10), strconv.FormatUint(g.Memory.Total, 10)})
		}
		ts.GPUs = append(ts.GPUs, tg)
	}
	r.tl.Samples = append(r.tl.Samples, ts)
	r.w.Flush()
	r.buf.Flush()
}

func (r *recorder) close() { r.f.Close() }

// finish writes the JSON timeline and fills the result's per-GPU peaks,
// per-PID peaks and trends.
func (r *recorder) finish(res *Result) error {
	r.w.Flush()
	if err := r.buf.Flush(); err != nil {
		return fmt.Errorf("capture: timeline: %w", err)
	}
	res.Samples = len(r.tl.Samples)
	res.pidPeak = map[uint32]uint64{}
	peaks := map[int]*GPUPeak{}
	series := map[int][]monitor.Point{}
	for _, s := range r.tl.Samples {
		perPID := map[uint32]uint64{}
		for _, g := range s.GPUs {
			if !g.Up {
				continue
			}
			t := r.tl.Start.Add(time.Duration(s.T * float64(time.Second)))
			series[g.Index] = append(series[g.Index], monitor.Point{T: t, V: float64(g.TreeUsed)})
			p := peaks[g.Index]
			if p == nil {
				p = &GPUPeak{Index: g.Index, Total: g.Total}
				if g.Index < len(r.tl.GPUs) {
					p.UUID, p.Name = r.tl.GPUs[g.Index].UUID, r.tl.GPUs[g.Index].Name
				}
				peaks[g.Index] = p
			}
			if g.TreeUsed > p.PeakBytes {
				p.PeakBytes, p.PeakAtSeconds = g.TreeUsed, s.T
			}
			for _, pr := range g.Processes {
				perPID[pr.PID] += pr.Used
			}
		}
		for pid, v := range perPID {
			res.pidPeak[pid] = max(res.pidPeak[pid], v)
		}
	}
	for i := 0; i < len(r.tl.GPUs) || i < len(peaks); i++ {
		p := peaks[i]
		if p == nil || p.PeakBytes == 0 {
			continue // the command never used this GPU
		}
		last := r.tl.Samples[len(r.tl.Samples)-1].GPUs
		headroom := uint64(0)
		if i < len(last) && last[i].Total > last[i].Used {
			headroom = last[i].Total - last[i].Used
		}
		p.Trend = monitor.Analyze(series[i], headroom, monitor.DefaultTrendOptions())
		res.GPUs = append(res.GPUs, *p)
	}
	b, err := json.Marshal(r.tl)
	if err != nil {
		return fmt.Errorf("capture: timeline: %w", err)
	}
	if err := os.WriteFile(filepath.Join(r.dir, TimelineJSON), b, 0o644); err != nil {
		return fmt.Errorf("capture: timeline: %w", err)
	}
	return nil
}

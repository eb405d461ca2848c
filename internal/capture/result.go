package capture

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/vramkit/vramkit/internal/monitor"
)

// Result is what a run produced.
type Result struct {
	Command   []string      `json:"command"`
	Options   Options       `json:"options"`
	Out       string        `json:"out"`
	ExitCode  int           `json:"exit_code"`
	Signal    string        `json:"signal,omitempty"`
	Duration  time.Duration `json:"duration_ns"`
	NVMLError string        `json:"nvml_error,omitempty"`
	Samples   int           `json:"samples"`
	// GPUs lists the GPUs on which the command's process tree held memory.
	GPUs []GPUPeak `json:"gpus"`
	// Ranks are the shim's reports, one per process that used CUDA through
	// PyTorch (one per rank under torchrun).
	Ranks []ShimReport `json:"ranks"`
	Files []File       `json:"files"`
	// Notes are things the user should know (a process killed before it
	// could dump, an unreadable sidecar).
	Notes []string `json:"notes,omitempty"`

	pidPeak map[uint32]uint64
}

// GPUPeak is the process tree's NVML peak on one GPU.
type GPUPeak struct {
	Index         int           `json:"index"`
	UUID          string        `json:"uuid"`
	Name          string        `json:"name"`
	Total         uint64        `json:"total_bytes"`
	PeakBytes     uint64        `json:"peak_bytes"`
	PeakAtSeconds float64       `json:"peak_at_seconds"`
	Trend         monitor.Trend `json:"trend"`
}

// ShimReport is one process's sidecar JSON, written by _vramkit_shim.py.
type ShimReport struct {
	File         string                  `json:"file"`
	PID          uint32                  `json:"pid"`
	Rank         *string                 `json:"rank"`
	LocalRank    *string                 `json:"local_rank"`
	WorldSize    *string                 `json:"world_size"`
	Argv         []string                `json:"argv"`
	TorchVersion string                  `json:"torch_version"`
	Reason       string                  `json:"reason"` // exit, oom, sigterm, sigint
	Exception    *string                 `json:"exception"`
	OOM          *OOMInfo                `json:"oom"`
	Devices      []DeviceStats           `json:"devices"`
	Snapshots    map[string]SnapshotFile `json:"snapshots"`
	Context      string                  `json:"context"`
	Stacks       string                  `json:"stacks"`
	MaxEntries   int                     `json:"max_entries"`
	Errors       []string                `json:"errors"`
	// NVMLPeakBytes is this PID's NVML peak summed over GPUs (from the
	// timeline; 0 without NVML).
	NVMLPeakBytes uint64 `json:"nvml_peak_bytes"`
}

// OOMInfo is what PyTorch's OOM observer was told.
type OOMInfo struct {
	Device               int     `json:"device"`
	AllocBytes           uint64  `json:"alloc_bytes"`
	DeviceAllocatedBytes uint64  `json:"device_allocated_bytes"`
	DeviceFreeBytes      uint64  `json:"device_free_bytes"`
	Time                 float64 `json:"time"`
}

// DeviceStats are torch.cuda.memory_stats peaks for one CUDA device.
type DeviceStats struct {
	Index             int    `json:"index"`
	MaxAllocatedBytes uint64 `json:"max_allocated_bytes"`
	MaxReservedBytes  uint64 `json:"max_reserved_bytes"`
	AllocatedBytes    uint64 `json:"allocated_bytes"`
	ReservedBytes     uint64 `json:"reserved_bytes"`
	NumOOMs           int    `json:"num_ooms"`
	NumAllocRetries   int    `json:"num_alloc_retries"`
}

// SnapshotFile is one snapshot a process wrote ("exit" or "oom").
type SnapshotFile struct {
	File    string  `json:"file"`
	Seconds float64 `json:"seconds"`
}

// File is one file in the output directory.
type File struct {
	Name string `json:"name"`
	Size int64  `json:"size_bytes"`
}

// Snapshots returns the paths of the snapshots written, exit snapshots
// first, in rank order.
func (r *Result) Snapshots() []string {
	var exit, oom []string
	for _, rk := range r.Ranks {
		if s, ok := rk.Snapshots["exit"]; ok {
			exit = append(exit, filepath.Join(r.Out, s.File))
		}
		if s, ok := rk.Snapshots["oom"]; ok {
			oom = append(oom, filepath.Join(r.Out, s.File))
		}
	}
	return append(exit, oom...)
}

// collect reads the shim's sidecars and lists the output directory. A
// zero-byte snapshot is a name a process claimed but never filled (it was
// killed with SIGKILL or crashed hard); it is removed and noted.
func (r *Result) collect() {
	side, _ := filepath.Glob(filepath.Join(r.Out, "snapshot*.json"))
	for _, p := range side {
		b, err := os.ReadFile(p)
		if err != nil {
			r.Notes = append(r.Notes, "cannot read "+filepath.Base(p)+": "+err.Error())
			continue
		}
		var sr ShimReport
		if err := json.Unmarshal(b, &sr); err != nil {
			r.Notes = append(r.Notes, "cannot parse "+filepath.Base(p)+": "+err.Error())
			continue
		}
		sr.File = filepath.Base(p)
		sr.NVMLPeakBytes = r.pidPeak[sr.PID]
		r.Ranks = append(r.Ranks, sr)
	}
	sort.SliceStable(r.Ranks, func(i, j int) bool { return rankKey(r.Ranks[i]) < rankKey(r.Ranks[j]) })
	pickles, _ := filepath.Glob(filepath.Join(r.Out, "snapshot*.pickle"))
	for _, p := range pickles {
		if fi, err := os.Stat(p); err == nil && fi.Size() == 0 {
			os.Remove(p)
			r.Notes = append(r.Notes, "a process claimed "+filepath.Base(p)+" but died before writing it (SIGKILL? the snapshot at OOM, if any, is separate)")
		}
	}
	ents, _ := os.ReadDir(r.Out)
	for _, e := range ents {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".tmp") {
			continue
		}
		if fi, err := e.Info(); err == nil {
			r.Files = append(r.Files, File{Name: e.Name(), Size: fi.Size()})
		}
	}
}

func rankKey(s ShimReport) string {
	if s.Rank != nil {
		return strings.Repeat("0", max(0, 8-len(*s.Rank))) + *s.Rank
	}
	return s.File
}

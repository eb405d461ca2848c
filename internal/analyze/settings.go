package analyze

import (
	"errors"
	"fmt"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/gpu"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// The run settings of a snapshot — allocator configuration, memory
// fraction, the device's total memory and the memory the process may use —
// are resolved here, by Resolve, for every command (analyze, report, stats,
// simulate, tune). It lives in analyze rather than allocsim because it
// reads the GPU table (package gpu), which the simulator of PyTorch's
// allocator has no business knowing; allocsim takes the resolved values.

// Source says where a resolved setting came from.
type Source string

// The sources of a setting, in the order Resolve prefers them.
const (
	FromFlag     Source = "flag"      // given on the command line
	FromSnapshot Source = "snapshot"  // recorded in the snapshot (its settings, or an OOM record)
	FromGPUTable Source = "gpu table" // the GPU table's entry (package gpu)
	FromDefault  Source = "default"   // PyTorch's default
)

// DefaultGPU is the GPU assumed when none is named: the H200 the shared
// fixtures were measured on. The one documented default of capacity is
// its total memory less its CUDA context, unless an OOM record measures it.
const DefaultGPU = "h200"

// Flags are the settings a user may give; zero values mean "not given".
type Flags struct {
	// AllocConf is a PYTORCH_CUDA_ALLOC_CONF to use instead of the recorded
	// one (AllocConfSet distinguishes "" given from not given).
	AllocConf    string `json:"alloc_conf,omitempty"`
	AllocConfSet bool   `json:"-"`
	// MemoryFraction is torch.cuda.set_per_process_memory_fraction's value.
	MemoryFraction float64 `json:"memory_fraction,omitempty"`
	// TotalBytes is the device's total memory (analyze's --capacity).
	TotalBytes int64 `json:"total_memory_bytes,omitempty"`
	// CapacityBytes is the memory the process may use (simulate's and
	// tune's --capacity).
	CapacityBytes int64 `json:"capacity_bytes,omitempty"`
	// GPU names the GPU table entry; "" means DefaultGPU.
	GPU string `json:"gpu,omitempty"`
}

// Settings are a device's resolved run settings, each with its source.
type Settings struct {
	Config          allocsim.Config `json:"-"`
	AllocConf       string          `json:"alloc_conf"`
	AllocConfSource Source          `json:"alloc_conf_source"`
	MemoryFraction  float64         `json:"memory_fraction"`
	FractionSource  Source          `json:"memory_fraction_source"`
	GPU             string          `json:"gpu"`
	TotalBytes      int64           `json:"total_memory_bytes"`
	TotalSource     Source          `json:"total_memory_source"`
	ContextBytes    int64           `json:"cuda_context_bytes"`
	// CapacityBytes is the device memory the process may use, before any
	// memory fraction; CapacityDetail says how it was found, in words.
	CapacityBytes  int64  `json:"capacity_bytes"`
	CapacitySource Source `json:"capacity_source"`
	CapacityDetail string `json:"capacity_detail"`
}

// ErrConflict is returned when two flags set the memory fraction to
// different values.
var ErrConflict = errors.New("conflicting settings")

// Resolve works out device dev's run settings from the flags, the
// snapshot (its recorded PYTORCH_CUDA_ALLOC_CONF and settings, the first
// OOM record of the trace) and the GPU table, preferring them in that
// order; what none of them gives is PyTorch's default (no fraction) or
// DefaultGPU's figures.
func Resolve(s *snapshot.Snapshot, dev int, f Flags) (Settings, error) {
	var st Settings
	g, err := gpu.Lookup(DefaultGPU)
	if f.GPU != "" {
		g, err = gpu.Lookup(f.GPU)
	}
	if err != nil {
		return st, err
	}
	st.GPU, st.ContextBytes = g.Name, g.ContextBytes

	// a recorded string that does not parse gives the dict's values over
	// the defaults; the replay's note says so (allocsim.FromSettings)
	cfg, _ := allocsim.FromSettings(s.Settings)
	st.AllocConfSource = FromSnapshot
	if s.Settings.AllocConf == "" && !s.Settings.Present {
		st.AllocConfSource = FromDefault
	}
	if f.AllocConfSet {
		var cerr error
		if cfg, cerr = allocsim.ParseConfig(f.AllocConf); cerr != nil {
			return st, fmt.Errorf("alloc conf %q: %w", f.AllocConf, cerr)
		}
		st.AllocConfSource = FromFlag
	}
	if err := cfg.Simulable(); err != nil && f.AllocConfSet {
		return st, err
	}

	st.AllocConf = cfg.String() // the fraction, when set by a flag, is reported on its own
	st.MemoryFraction, st.FractionSource = 1, FromDefault
	if cfg.MemoryFraction < 1 {
		st.MemoryFraction, st.FractionSource = cfg.MemoryFraction, st.AllocConfSource
	}
	if fr := f.MemoryFraction; fr > 0 {
		if fr > 1 {
			return st, fmt.Errorf("memory fraction must be in (0, 1], not %v", fr)
		}
		if st.FractionSource == FromFlag && fr != st.MemoryFraction {
			return st, fmt.Errorf("%w: memory fraction %v, but the alloc conf sets per_process_memory_fraction:%v",
				ErrConflict, fr, st.MemoryFraction)
		}
		st.MemoryFraction, st.FractionSource = fr, FromFlag
	}
	cfg.MemoryFraction = st.MemoryFraction
	st.Config = cfg

	st.TotalBytes, st.TotalSource = g.MemoryBytes, FromGPUTable
	if f.TotalBytes > 0 {
		st.TotalBytes, st.TotalSource = f.TotalBytes, FromFlag
	}
	st.resolveCapacity(s.Trace(dev), f, g)
	return st, nil
}

// resolveCapacity: a recorded OOM measures what the process may use
// (reserved plus the device's free memory at that moment); otherwise it is
// the device's total less the CUDA context, which lives on the device.
func (st *Settings) resolveCapacity(trace []snapshot.TraceEvent, f Flags, g gpu.GPU) {
	switch usable, ok := oomUsable(trace); {
	case f.CapacityBytes > 0:
		st.CapacityBytes, st.CapacitySource, st.CapacityDetail = f.CapacityBytes, FromFlag, "the --capacity given"
	case f.TotalBytes <= 0 && ok:
		st.CapacityBytes, st.CapacitySource = usable, FromSnapshot
		st.CapacityDetail = "measured: reserved plus free device memory at the recorded OOM"
	case f.TotalBytes > 0:
		st.CapacityBytes, st.CapacitySource = st.TotalBytes-st.ContextBytes, FromFlag
		st.CapacityDetail = fmt.Sprintf("the --capacity given less a %s CUDA context (assumed)", bytesStr(st.ContextBytes))
	default:
		st.CapacityBytes, st.CapacitySource = st.TotalBytes-st.ContextBytes, FromGPUTable
		st.CapacityDetail = fmt.Sprintf("assumed: an %s's %s less a %s CUDA context; pass --capacity for another GPU",
			gpuTitle(g.Name), bytesStr(st.TotalBytes), bytesStr(st.ContextBytes))
	}
}

// Usable is the memory the process may use under the memory fraction.
func (st *Settings) Usable() int64 {
	if st.MemoryFraction < 1 {
		return min(st.CapacityBytes, int64(st.MemoryFraction*float64(st.TotalBytes)))
	}
	return st.CapacityBytes
}

// UsableDetail says how Usable was found, in words.
func (st *Settings) UsableDetail() string {
	if st.MemoryFraction >= 1 || st.CapacitySource == FromSnapshot {
		return st.CapacityDetail
	}
	src := "the --capacity given"
	if st.TotalSource != FromFlag {
		src = fmt.Sprintf("assumed: an %s's %s", gpuTitle(st.GPU), bytesStr(st.TotalBytes))
	}
	hint := ""
	if st.TotalSource != FromFlag {
		hint = "; pass --capacity for another GPU"
	}
	return fmt.Sprintf("%s × memory fraction %g%s", src, st.MemoryFraction, hint)
}

// ReplayOptions are the options of the one replay these settings ask for.
func (st *Settings) ReplayOptions() allocsim.ReplayOptions {
	o := allocsim.DefaultReplayOptions()
	o.MemoryFraction, o.TotalMemory = st.MemoryFraction, st.TotalBytes
	return o
}

// String is the settings in one line, each value with its source.
func (st *Settings) String() string {
	conf := st.AllocConf
	if conf == "" {
		conf = "(defaults)"
	}
	return fmt.Sprintf("PYTORCH_CUDA_ALLOC_CONF=%s [%s], memory fraction %g [%s], total memory %s [%s: %s], capacity %s [%s]",
		conf, st.AllocConfSource, st.MemoryFraction, st.FractionSource, bytesStr(st.TotalBytes), st.TotalSource, st.GPU,
		bytesStr(st.CapacityBytes), st.CapacitySource)
}

func gpuTitle(name string) string {
	if name == DefaultGPU {
		return "H200"
	}
	return name
}

// oomUsable is reserved plus free device memory at the trace's first OOM.
func oomUsable(trace []snapshot.TraceEvent) (int64, bool) {
	var res int64
	for i := range trace {
		e := &trace[i]
		if e.Action == snapshot.ActionOOM {
			return res + int64(e.DeviceFree()), true
		}
		res += reservedDelta(e)
	}
	return 0, false
}

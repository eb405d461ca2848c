package report

import (
	"fmt"
	"io"
	"strconv"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/units"
)

// Simulation is `vramkit simulate`'s result for one snapshot.
type Simulation struct {
	Path    string      `json:"path"`
	Devices []SimDevice `json:"devices"`
}

// SimDevice is one device's replay under the recorded or the given
// allocator settings.
type SimDevice struct {
	Device          int     `json:"device"`
	AllocConf       string  `json:"alloc_conf"`
	CapacityBytes   int64   `json:"capacity_bytes"`
	CapacitySource  string  `json:"capacity_source"`
	MemoryFraction  float64 `json:"memory_fraction"`
	Reproduced      *bool   `json:"reproduced"`
	FirstDivergence *string `json:"first_divergence"`
	// Notes say why a replay under the recorded settings could not follow
	// the trace (private pools, a memory fraction the snapshot does not
	// record) and what to pass; empty when it did.
	Notes []string `json:"notes,omitempty"`
	allocsim.Outcome
	RecordedReserved int64 `json:"recorded_peak_reserved_bytes"`
	Requests         int   `json:"requests"`
	// Settings are the resolved settings, each with its source.
	Settings analyze.Settings `json:"settings"`
}

// SimulationText prints each device's replay: whether it reproduced the
// trace, or what the settings asked about predict.
func SimulationText(w io.Writer, r *Simulation) {
	for _, o := range r.Devices {
		simDeviceText(w, r.Path, &o)
	}
}

func simDeviceText(w io.Writer, path string, o *SimDevice) {
	conf := o.AllocConf
	if conf == "" {
		conf = "(defaults)"
	}
	fmt.Fprintf(w, "%s — device %d, PYTORCH_CUDA_ALLOC_CONF=%s\n", path, o.Device, conf)
	if o.Reproduced != nil {
		if *o.Reproduced {
			fmt.Fprintln(w, "replay: reproduced every segment event and block address of the trace")
		} else {
			fmt.Fprintf(w, "replay: DIVERGED at %s\n", *o.FirstDivergence)
			for _, n := range o.Notes {
				fmt.Fprintf(w, "note: %s\n", n)
			}
			fmt.Fprintln(w, "the figures below are the simulator's own past that event, not the run's (vramkit stats reports what the trace itself proves)")
		}
	} else {
		capS := "unlimited"
		if o.CapacityBytes > 0 {
			capS = units.Bytes(o.CapacityBytes) + " (" + strconv.FormatInt(o.CapacityBytes, 10) + " B)"
		}
		fmt.Fprintf(w, "device capacity: %s — %s\n", capS, o.CapacitySource)
		if o.MemoryFraction < 1 {
			fmt.Fprintf(w, "memory fraction: %g [%s]\n", o.MemoryFraction, o.Settings.FractionSource)
		}
	}
	fmt.Fprintf(w, "settings: %s\n", o.Settings.String())
	fmt.Fprintf(w, "  peak reserved    %12s  (%d B)\n", units.Bytes(o.PeakReserved), o.PeakReserved)
	fmt.Fprintf(w, "  peak allocated   %12s  (%d B)\n", units.Bytes(o.PeakAllocated), o.PeakAllocated)
	fmt.Fprintf(w, "  cudaMalloc calls %12d  (segments allocated or mapped)\n", o.DeviceAllocs)
	fmt.Fprintf(w, "  cudaFree calls   %12d  (segments released or unmapped)\n", o.DeviceFrees)
	fmt.Fprintf(w, "  alloc retries    %12d\n", o.Retries)
	fmt.Fprintf(w, "  OOM errors       %12d\n", o.OOMs)
	if o.OOMAt != nil {
		fmt.Fprintf(w, "  first OOM at trace event %d: the run would have died there\n", *o.OOMAt)
	}
	if o.Reproduced == nil && o.RecordedReserved > 0 {
		d := o.PeakReserved - o.RecordedReserved
		fmt.Fprintf(w, "  vs recorded run: peak reserved %s (%+.1f%%)\n", signedBytes(d), 100*float64(d)/float64(o.RecordedReserved))
	}
}

func signedBytes(d int64) string {
	if d >= 0 {
		return "+" + units.Bytes(d)
	}
	return units.Bytes(d)
}

package report

import (
	"fmt"
	"io"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/units"
)

// Tuning is `vramkit tune`'s result for one snapshot.
type Tuning struct {
	Path    string       `json:"path"`
	Devices []TuneDevice `json:"devices"`
}

// TuneDevice is tune's grid for one device, ranked, with the best setting
// and its saving against the recorded run.
type TuneDevice struct {
	Device           int                `json:"device"`
	CapacityBytes    int64              `json:"capacity_bytes"`
	CapacitySource   string             `json:"capacity_source"`
	RecordedConf     string             `json:"recorded_alloc_conf"`
	RecordedReserved int64              `json:"recorded_peak_reserved_bytes"`
	Best             *allocsim.TuneRow  `json:"best"`
	SavingBytes      int64              `json:"saving_bytes"`
	Rows             []allocsim.TuneRow `json:"results"`
	Settings         analyze.Settings   `json:"settings"`
}

// TuningText prints tune's table and the line to use.
func TuningText(w io.Writer, r *Tuning) {
	for _, o := range r.Devices {
		rc := o.RecordedConf
		if rc == "" {
			rc = "(defaults)"
		}
		capS := "unlimited"
		if o.CapacityBytes > 0 {
			capS = units.Bytes(o.CapacityBytes)
		}
		fmt.Fprintf(w, "%s — device %d: recorded with %s, peak reserved %s; capacity %s (%s)\n",
			r.Path, o.Device, rc, units.Bytes(o.RecordedReserved), capS, o.CapacitySource)
		fmt.Fprintf(w, "settings: %s\n\n", o.Settings.String())
		fmt.Fprintf(w, "  %-52s %14s %9s %8s %8s\n", "PYTORCH_CUDA_ALLOC_CONF", "peak reserved", "vs rec.", "retries", "OOM")
		for _, row := range o.Rows {
			conf := row.AllocConf
			if conf == "" {
				conf = "(defaults)"
			}
			oom := "-"
			if row.OOMAt != nil {
				oom = fmt.Sprintf("ev %d", *row.OOMAt)
			}
			fmt.Fprintf(w, "  %-52s %14s %+8.1f%% %8d %8s\n", conf, units.Bytes(row.PeakReserved),
				100*float64(row.PeakReserved-o.RecordedReserved)/float64(max(o.RecordedReserved, 1)), row.Retries, oom)
		}
		fmt.Fprintln(w)
		switch {
		case o.Best == nil:
			fmt.Fprintln(w, "no setting runs this trace without an OOM or a cudaMalloc retry at this capacity")
		case o.Best.AllocConf == "" || o.SavingBytes <= 0:
			fmt.Fprintf(w, "keep the current settings: no setting in the grid reserves less (best: %s)\n", units.Bytes(o.Best.PeakReserved))
		default:
			fmt.Fprintf(w, "use: PYTORCH_CUDA_ALLOC_CONF=%s\n", o.Best.AllocConf)
			fmt.Fprintf(w, "saves %s of peak reserved memory (%.1f%% of %s recorded)\n", units.Bytes(o.SavingBytes),
				100*float64(o.SavingBytes)/float64(o.RecordedReserved), units.Bytes(o.RecordedReserved))
		}
	}
}

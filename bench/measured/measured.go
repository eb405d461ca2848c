// Package measured compares vramkit's memory and step-time predictions with
// ground-truth H200 measurements (measured.jsonl, timing.jsonl rows as
// shared/fixtures/README.md describes them). It serves the memmodel tests
// and bench/accuracy; the production packages do not import it.
package measured

import (
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// MeasuredRow is one line of a ground-truth measured.jsonl (see
// shared/fixtures/README.md): the workload spec in capture.py's terms and
// torch.cuda.max_memory_allocated/reserved.
type MeasuredRow struct {
	Name         string  `json:"name"`
	Model        string  `json:"model"`
	B            int     `json:"b"`
	Seq          int     `json:"seq"`
	Accum        int     `json:"accum"`
	Prec         string  `json:"prec"`
	Ckpt         string  `json:"ckpt"`
	Opt          string  `json:"opt"`
	AllocConf    string  `json:"alloc_conf"`
	Mode         *string `json:"mode"`
	Iters        int     `json:"iters"`
	Status       string  `json:"status"`
	MaxAllocated int64   `json:"max_allocated"`
	MaxReserved  int64   `json:"max_reserved"`
	// IterS is the wall time of each training step (timing.jsonl), the
	// first of which includes warm-up.
	IterS []float64 `json:"iter_s"`
	// Lengths are the sample lengths in the order the capture fed them,
	// for dynamic-padding rows (not in measured.jsonl; see LengthsKey).
	Lengths []int `json:"lengths,omitempty"`
}

// LengthsKey names a dynamic-padding workload's length schedule by what
// generated it: model, batch, seq and padding mode.
func (m MeasuredRow) LengthsKey() string {
	mode := ""
	if m.Mode != nil {
		mode = *m.Mode
	}
	return fmt.Sprintf("%s/b%d/s%d/%s", m.Model, m.B, m.Seq, mode)
}

// ReadMeasured parses measured.jsonl.
func ReadMeasured(r io.Reader) ([]MeasuredRow, error) {
	return DecodeJSONL[MeasuredRow](r, "measured.jsonl")
}

// Training reports whether the row is a completed training run (not
// eval, a leak, or an OOM).
func (m MeasuredRow) Training() bool {
	if m.Status != "ok" {
		return false
	}
	if m.Mode == nil {
		return true
	}
	switch *m.Mode {
	case "zero-keep", "pad-max", "pad-batch", "bucket":
		return true
	}
	return false
}

// VarLen reports whether the batches changed shape from step to step;
// the plan is made at the longest length, which sets peak allocated, but
// the fragmentation of changing shapes is not modelled.
func (m MeasuredRow) VarLen() bool {
	return m.Mode != nil && (*m.Mode == "pad-batch" || *m.Mode == "bucket")
}

// Spec translates the row into a plan spec.
func (m MeasuredRow) Spec() memmodel.Spec {
	s := memmodel.DefaultSpec()
	model := m.Model
	s.Model = &model
	s.Batch, s.Seq, s.Accum = m.B, m.Seq, max(m.Accum, 1)
	s.Precision = planPrecision(m.Prec)
	s.Checkpoint = m.Ckpt
	s.Optimizer = PlanOptimizer(m.Opt)
	s.AllocConf = m.AllocConf
	s.KeepGrads = m.Mode != nil && *m.Mode == "zero-keep"
	if len(m.Lengths) > 0 {
		// the lengths are in fed order, batches already formed
		s.Lengths, s.Padding = m.Lengths, "longest"
		if *m.Mode == "pad-max" {
			s.Padding = "max"
		}
	}
	return s
}

// Comparison is a prediction next to a measurement.
type Comparison struct {
	Name      string  `json:"name"`
	PredAlloc int64   `json:"predicted_allocated_bytes"`
	MeasAlloc int64   `json:"measured_allocated_bytes"`
	PredResv  int64   `json:"predicted_reserved_bytes"`
	MeasResv  int64   `json:"measured_reserved_bytes"`
	ErrAlloc  float64 `json:"allocated_error"` // signed, (pred-meas)/meas
	ErrResv   float64 `json:"reserved_error"`
	VarLen    bool    `json:"varlen"`
	// InBands says whether both measurements fall inside the predicted
	// uncertainty bands.
	InBands bool `json:"in_bands"`
}

// Compare predicts every training row.
func Compare(rows []MeasuredRow) ([]Comparison, error) {
	var out []Comparison
	for _, m := range rows {
		if !m.Training() {
			continue
		}
		opts := memmodel.DefaultOptions()
		opts.Steps = max(3, min(m.Iters, 3))
		r, err := memmodel.Estimate(m.Spec(), opts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.Name, err)
		}
		out = append(out, Comparison{Name: m.Name, PredAlloc: r.PeakAllocated, MeasAlloc: m.MaxAllocated,
			PredResv: r.PeakReserved, MeasResv: m.MaxReserved,
			ErrAlloc: Rel(r.PeakAllocated, m.MaxAllocated), ErrResv: Rel(r.PeakReserved, m.MaxReserved), VarLen: m.VarLen(),
			InBands: InBand(m.MaxAllocated, r.AllocatedBand) && InBand(m.MaxReserved, r.ReservedBand)})
	}
	return out, nil
}

// InBand reports whether v lies inside band b.
func InBand(v int64, b memmodel.Band) bool { return v >= b.Low && v <= b.High }

// Rel is the signed relative error of a prediction, (pred-meas)/meas.
func Rel(pred, meas int64) float64 { return float64(pred-meas) / float64(meas) }

// ErrorStats summarises signed relative errors.
type ErrorStats struct {
	N         int     `json:"n"`
	MedianAbs float64 `json:"median_abs"`
	MaxAbs    float64 `json:"max_abs"`
	UnderRate float64 `json:"under_rate"`
}

// Summarize computes median and maximum |error| and the under-estimate rate.
func Summarize(errs []float64) ErrorStats {
	if len(errs) == 0 {
		return ErrorStats{}
	}
	abs := make([]float64, len(errs))
	under := 0
	for i, e := range errs {
		abs[i] = math.Abs(e)
		if e < 0 {
			under++
		}
	}
	sort.Float64s(abs)
	med := abs[len(abs)/2]
	if len(abs)%2 == 0 {
		med = (abs[len(abs)/2-1] + abs[len(abs)/2]) / 2
	}
	return ErrorStats{N: len(errs), MedianAbs: med, MaxAbs: abs[len(abs)-1], UnderRate: float64(under) / float64(len(errs))}
}

// planPrecision is plan's name for a capture's prec: the capture scripts
// run fp16 and bf16 under autocast, and bf16w casts the weights to bf16.
func planPrecision(prec string) string {
	switch prec {
	case "fp16":
		return "fp16-amp"
	case "bf16":
		return "bf16-amp"
	case "bf16w":
		return "bf16"
	}
	return prec
}

// PlanOptimizer maps a capture script's optimizer name to plan's: the
// scripts' "sgd" is torch.optim.SGD with momentum 0.9 (gt_work.py's
// make_opt, capture_fixture's train loop), "sgd0" the one without, and an
// empty name the scripts' default, AdamW. Every reader of capture rows
// maps through here, so a row means the same optimizer in every table.
func PlanOptimizer(opt string) string {
	switch opt {
	case "sgd":
		return "sgd-momentum"
	case "sgd0":
		return "sgd"
	case "adamw8bit": // gt_work.py: bitsandbytes.optim.AdamW8bit
		return "adamw-8bit"
	case "":
		return "adamw"
	}
	return opt
}

package memmodel

import (
	"fmt"
	"math"

	"github.com/vramkit/vramkit/internal/units"
)

// The model replays what a training step allocates through the caching
// allocator, and its peak reserved is close (a median |error| of a few
// tenths of a percent on held-out captures), but it is low more often
// than high: a real program also makes allocations the model does not
// trace (a 2 MiB small-pool segment, a 20 MiB segment of something created
// around the step, a library's workspace), each a few MiB to a few tens of
// MiB. A planner that is low is wrong in the dangerous direction, so the
// headline peak reserved carries an allowance for them, measured rather
// than guessed: bench/bands derives it from the held-out captures as the
// smallest allowance of the form Bytes + Ratio × model figure whose
// under-estimate rate, each capture left out of the derivation in turn,
// is at most the stated target; the bands are then computed on the
// calibrated figure. Peak allocated is not shifted: the allocations it
// counts are the model's.

// Reserved is a plan's peak reserved: the model's figure plus the
// measured allowance for allocations it does not trace (see Allowance).
// Training and generate results embed it, so both print and decide alike.
type Reserved struct {
	// PeakReserved is the figure every decision is made on: ModelReserved
	// plus ReservedAllowance, which ReservedAllowanceBasis explains.
	PeakReserved           int64  `json:"peak_reserved_bytes"`
	ModelReserved          int64  `json:"model_peak_reserved_bytes"`
	ReservedAllowance      int64  `json:"reserved_allowance_bytes"`
	ReservedAllowanceBasis string `json:"reserved_allowance_basis,omitempty"`
}

// Allowance is the amount added to the model's peak reserved for
// allocations it does not trace, and what it was measured to do.
type Allowance struct {
	// Bytes and Ratio define the allowance on a model figure m:
	// Bytes + Ratio×m.
	Bytes int64   `json:"bytes"`
	Ratio float64 `json:"ratio"`
	// Rows is how many held-out captures it was derived from.
	Rows int `json:"rows"`
	// Target is the largest leave-one-out share of under-estimates the
	// derivation accepts.
	Target float64 `json:"target"`
	// UnderBefore is the share of the rows the model alone was low on;
	// UnderAfter with the allowance; UnderLOO with the allowance derived
	// without each row in turn (what a new capture can expect).
	UnderBefore float64 `json:"under_before"`
	UnderAfter  float64 `json:"under_after"`
	UnderLOO    float64 `json:"under_loo"`
	// MedianAbsBefore and MedianAbsAfter are the median |error| of the
	// rows without and with the allowance.
	MedianAbsBefore float64 `json:"median_abs_err_before"`
	MedianAbsAfter  float64 `json:"median_abs_err_after"`
}

// Of is the allowance on a model figure of m bytes (0 for none).
func (a Allowance) Of(m int64) int64 {
	if m <= 0 || (a.Bytes == 0 && a.Ratio == 0) {
		return 0
	}
	return a.Bytes + int64(math.Ceil(a.Ratio*float64(m)))
}

// Basis says what the allowance is and what it was measured to do (the
// share of under-estimates with it is UnderLOO: each capture left out of
// the derivation in turn), for the line plan prints under peak reserved.
func (a Allowance) Basis() string {
	return fmt.Sprintf("%s + %.2f%%: without it the model was low on %.0f%% of %d held-out captures, with it %.0f%%",
		units.Bytes(a.Bytes), 100*a.Ratio, 100*a.UnderBefore, a.Rows, 100*a.UnderLOO)
}

// Apply moves the peak reserved from the model's figure to the calibrated
// one with allowance a and returns what it added (0 for none), which the
// caller adds to whatever else is built on peak reserved.
func (rv *Reserved) Apply(a Allowance) int64 {
	rv.ModelReserved = rv.PeakReserved
	add := a.Of(rv.PeakReserved)
	if add > 0 {
		rv.ReservedAllowance, rv.ReservedAllowanceBasis = add, a.Basis()
		rv.PeakReserved += add
	}
	return add
}

// applyAllowance moves r's peak reserved, and everything built on it
// (process memory, steady-state process memory, the breakdown at the
// peak), from the model's figure to the calibrated one.
func applyAllowance(a Allowance, r *Result) {
	add := r.Reserved.Apply(a)
	if add == 0 {
		return
	}
	r.Process += add
	r.SteadyProcess += add
	if r.Breakdown != nil {
		r.Breakdown["untraced_allowance"] = add
	}
}

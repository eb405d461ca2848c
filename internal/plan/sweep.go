package plan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/vramkit/vramkit/internal/memmodel"
	"github.com/vramkit/vramkit/internal/units"
)

// SweepOptions is a parsed --sweep: a key (batch or seq) and its range.
type SweepOptions struct {
	Key    string  `json:"key"`
	Lo     int     `json:"lo"`
	Hi     int     `json:"hi"`
	Margin float64 `json:"margin"`
}

// ParseSweep parses "batch=1..512" or "seq=128..4096".
func ParseSweep(s string) (SweepOptions, error) {
	k, r, ok := strings.Cut(s, "=")
	if !ok || (k != "batch" && k != "seq") {
		return SweepOptions{}, fmt.Errorf("want batch=LO..HI or seq=LO..HI, got %q", s)
	}
	a, b, ok := strings.Cut(r, "..")
	lo, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || lo < 1 || hi < lo {
		return SweepOptions{}, fmt.Errorf("range %q: want LO..HI with 1 <= LO <= HI", r)
	}
	return SweepOptions{Key: k, Lo: lo, Hi: hi}, nil
}

// SweepPoint is the prediction at one value of the swept key.
type SweepPoint struct {
	Value     int     `json:"value"`
	Allocated int64   `json:"peak_allocated_bytes"`
	Reserved  int64   `json:"peak_reserved_bytes"`
	Process   int64   `json:"process_bytes"`
	ProcessHi int64   `json:"process_high_bytes"`
	StepTime  float64 `json:"step_time_s"`
	Fits      bool    `json:"fits"`
	// Verdict is Fits with its reason, judged on ProcessHi.
	Verdict memmodel.Verdict `json:"verdict"`
}

// SweepResult is a memory curve and the largest value that fits.
type SweepResult struct {
	Key    string `json:"key"`
	GPU    string `json:"gpu"`
	Budget int64  `json:"budget_bytes"`
	// Confidence is the probability the band tops the points are judged
	// on hold.
	Confidence float64      `json:"confidence"`
	Points     []SweepPoint `json:"points"`
	Largest    int          `json:"largest_fitting"` // 0 when none fits
	// AtRangeTop: Largest is the range's HI, so larger values may fit
	// too; the sweep did not try them.
	AtRangeTop bool `json:"largest_is_range_top,omitempty"`
	// Bound says what ended the sweep at Largest when memory did not:
	// the spec refused the next value (a model's positions).
	Bound string `json:"bound,omitempty"`
	// LargestVerdict is the decision at Largest.
	LargestVerdict memmodel.Verdict `json:"largest_verdict"`
	// AllowanceBasis says what the points' peak reserved adds to the
	// model's figure for untraced allocations (memmodel.Allowance).
	AllowanceBasis string `json:"reserved_allowance_basis,omitempty"`
	// HostScale is the spec's host_scale the step times were priced with
	// (0: the median lent host's).
	HostScale float64 `json:"host_scale,omitempty"`
}

// Sweep predicts memory at powers of two across the range, then bisects
// for the largest value whose band top (at memmodel's confidence) fits
// the budget.
func Sweep(ctx context.Context, base memmodel.Spec, o SweepOptions) (*SweepResult, error) {
	res := &SweepResult{Key: o.Key, HostScale: base.HostScale}
	at := func(v int) (SweepPoint, error) {
		s := base
		if o.Key == "batch" {
			s.Batch = v
		} else {
			s.Seq = v
		}
		r, err := memmodel.Estimate(s, memmodel.DefaultOptions())
		if err != nil {
			return SweepPoint{}, err
		}
		res.GPU = r.GPU
		res.Budget, _ = memmodel.Budget(r.Capacity, o.Margin)
		res.Confidence, res.AllowanceBasis = r.Confidence, r.ReservedAllowanceBasis
		vd := memmodel.DecideWithin(r.SteadyProcess, r.ProcessHigh, r.Capacity, o.Margin, r.Confidence)
		return SweepPoint{Value: v, Allocated: r.PeakAllocated, Reserved: r.PeakReserved, Process: r.SteadyProcess,
			ProcessHi: r.ProcessHigh, StepTime: r.StepTime, Fits: vd.Fits, Verdict: vd}, nil
	}
	var vals []int
	// doubling from Lo; a value past Hi/2 ends it before the next
	// doubling could wrap, and a Lo below 1 would never grow
	for v := o.Lo; v >= 1 && v < o.Hi; v *= 2 {
		vals = append(vals, v)
		if v > o.Hi/2 {
			break
		}
	}
	vals = append(vals, o.Hi)
	lastFit, firstMiss := 0, 0
	var lastVerdict memmodel.Verdict
	// refused is the spec's refusal of a value past a fitting one (seq
	// past gpt2's positions): the curve ends there instead of failing
	var refused error
	for _, v := range vals {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p, err := at(v)
		if errors.Is(err, memmodel.ErrSpec) && lastFit > 0 {
			firstMiss, refused = v, fmt.Errorf("at %d: %s", v, strings.TrimPrefix(err.Error(), memmodel.ErrSpec.Error()+": "))
			break
		}
		if err != nil {
			return nil, err
		}
		res.Points = append(res.Points, p)
		if p.Fits {
			lastFit, lastVerdict = v, p.Verdict
		} else if firstMiss == 0 {
			firstMiss = v
			break
		}
	}
	for firstMiss > 0 && firstMiss-lastFit > 1 && lastFit > 0 {
		mid := (lastFit + firstMiss) / 2
		p, err := at(mid)
		if errors.Is(err, memmodel.ErrSpec) && refused != nil {
			firstMiss, refused = mid, fmt.Errorf("at %d: %s", mid, strings.TrimPrefix(err.Error(), memmodel.ErrSpec.Error()+": "))
			continue
		}
		if err != nil {
			return nil, err
		}
		if p.Fits {
			lastFit, lastVerdict = mid, p.Verdict
		} else {
			firstMiss, refused = mid, nil
		}
	}
	if refused != nil {
		res.Bound = refused.Error()
	}
	res.Largest, res.LargestVerdict = lastFit, lastVerdict
	res.AtRangeTop = lastFit > 0 && lastFit == o.Hi
	return res, nil
}

// WriteSweepText renders the curve for people.
func WriteSweepText(w io.Writer, r *SweepResult) {
	pct := fmt.Sprintf("%.0f%%", 100*r.Confidence)
	fmt.Fprintf(w, "%-8s %12s %12s %12s %12s %10s  fits in %s with %s confidence\n", r.Key, "allocated", "reserved", "process",
		"at most", "step", units.Bytes(r.Budget), pct)
	for _, p := range r.Points {
		mark := "yes"
		if !p.Fits {
			mark = "no"
		}
		// the top printed apart from the budget in the header when the
		// two round alike, as the verdict prints them
		hi, _ := units.BytesPair(p.ProcessHi, r.Budget)
		fmt.Fprintf(w, "%-8d %12s %12s %12s %12s %8.3f s  %s\n", p.Value, units.Bytes(p.Allocated), units.Bytes(p.Reserved),
			units.Bytes(p.Process), hi, p.StepTime, mark)
	}
	if r.AllowanceBasis != "" {
		fmt.Fprintf(w, "reserved includes an allowance for untraced allocations (%s)\n", r.AllowanceBasis)
	}
	if r.HostScale != 0 {
		fmt.Fprintf(w, "step times price the host x%.3g (host_scale)\n", r.HostScale)
	}
	if r.Largest == 0 {
		fmt.Fprintf(w, "nothing in the range fits on %s with %s confidence\n", r.GPU, pct)
		return
	}
	if r.Bound != "" {
		fmt.Fprintf(w, "largest %s planned on %s: %d — memory does not bound it (%s); %s\n", r.Key, r.GPU, r.Largest, r.Bound, r.LargestVerdict.Text)
		return
	}
	if r.AtRangeTop {
		// the whole range fits: HI is where the sweep stopped, not
		// where the GPU runs out
		fmt.Fprintf(w, "every %s in the range fits on %s, up to %d — %s; sweep higher to find the largest\n", r.Key, r.GPU, r.Largest, r.LargestVerdict.Text)
		return
	}
	fmt.Fprintf(w, "largest %s that fits on %s: %d — %s\n", r.Key, r.GPU, r.Largest, r.LargestVerdict.Text)
}

package infer

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/vramkit/vramkit/internal/memmodel"
	"github.com/vramkit/vramkit/internal/units"
)

// FitOptions tunes Fit.
type FitOptions struct {
	// Maximize is "batch" (the largest batch for the prompt and output
	// lengths) or "seq" (the longest prompt for the batch and output).
	Maximize string `json:"maximize"`
	// Margin is the fraction of GPU memory kept free beyond the top of
	// the band, which already holds the stated confidence.
	Margin float64 `json:"margin"`
}

// DefaultFitOptions maximises the batch with no margin beyond the band's
// top, as training's --fit does (plan --margin defaults to 0).
func DefaultFitOptions() FitOptions { return FitOptions{Maximize: "batch"} }

// FitResult is the outcome of Fit.
type FitResult struct {
	Maximize string  `json:"maximize"`
	Value    int     `json:"value"`
	Margin   float64 `json:"margin"`
	Budget   int64   `json:"budget_bytes"`
	// Best is the prediction at Value; Next at the smallest value that
	// does not fit (nil when the search hit its upper limit). When
	// nothing fits, Value is 0, Best nil and Next the prediction at 1.
	Best   *Result `json:"best"`
	Next   *Result `json:"next,omitempty"`
	Probes int     `json:"probes"`
	// Verdict is the decision at Value: the top of its process band
	// against the budget.
	Verdict memmodel.Verdict `json:"verdict"`
	// Bound says why the search stopped at Value when memory did not
	// stop it (Next is nil then): the model's positions, or the search's
	// own limit. "" when the next value does not fit.
	Bound string `json:"bound,omitempty"`
}

// ErrNothingFits is returned when even the smallest value does not fit.
var ErrNothingFits = errors.New("nothing fits")

// fitLimit bounds the search: vramkit does not plan batches or prompts
// beyond it.
const fitLimit = 1 << 20

// Fit finds the largest batch or prompt length whose predicted process
// memory (peak reserved plus CUDA context) stays within the GPU's memory
// less the margin, and whose replay does not run out of memory. Reserved
// memory is not strictly monotone in either (segment sizes round), so the
// answer is the bisection's boundary: Value fits and Value+1 does not.
func Fit(ctx context.Context, spec memmodel.Spec, opts FitOptions) (*FitResult, error) {
	if opts.Margin < 0 || opts.Margin >= 1 {
		return nil, specErr("margin", "must be in [0, 1), got %g", opts.Margin)
	}
	if _, err := resolve(spec); err != nil {
		return nil, err
	}
	set := func(s *memmodel.Spec, v int) {}
	switch opts.Maximize {
	case "", "batch":
		opts.Maximize = "batch"
		set = func(s *memmodel.Spec, v int) { s.Batch = v }
	case "seq":
		set = func(s *memmodel.Spec, v int) { s.Seq = v }
	default:
		return nil, specErr("maximize", "want batch|seq, got %q", opts.Maximize)
	}
	res := &FitResult{Maximize: opts.Maximize, Margin: opts.Margin}
	probe := func(v int) (*Result, bool, error) {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		s := spec
		set(&s, v)
		r, err := Estimate(s)
		if err != nil {
			return nil, false, err
		}
		res.Probes++
		res.Budget, _ = memmodel.Budget(r.Capacity, opts.Margin)
		// the same decision as the single estimate's, on the band's top,
		// against the budget the margin leaves
		vd := memmodel.DecideWithin(r.Process, r.ProcessBand.High, r.Capacity, opts.Margin, r.Confidence)
		// and the prediction carries that decision, not its own against
		// the whole GPU: one output, one verdict per configuration
		r.Verdict, r.Fits, r.Headroom = vd, vd.Fits, vd.Headroom
		return r, vd.Fits, nil
	}
	best, ok, err := probe(1)
	if err != nil {
		return nil, err
	}
	if !ok {
		// the prediction at 1 is the answer's evidence: a JSON reader
		// gets it as a training --fit's gets its search (Value 0, Next)
		res.Next, res.Verdict = best, best.Verdict
		return res, fmt.Errorf("%w: at %s 1 the process needs %s, at most %s at %.0f%% confidence; the budget is %s%s", ErrNothingFits,
			opts.Maximize, units.Bytes(best.Process), units.Bytes(best.ProcessBand.High), 100*best.Confidence, units.Bytes(res.Budget),
			smallerWeights(spec, opts.Margin))
	}
	lo, hi := 1, 0 // lo fits; hi (when set) does not
	var next *Result
	var refused error // the spec refused at hi: a bound other than memory
	for v := 2; v <= fitLimit; v *= 2 {
		r, ok, err := probe(v)
		if errors.Is(err, ErrSpec) {
			hi, refused = v, err // e.g. past GPT-2's positions: bisect below it
			break
		}
		if err != nil {
			return nil, err
		}
		if !ok {
			hi, next = v, r
			break
		}
		lo, best = v, r
	}
	for hi > 0 && hi-lo > 1 {
		mid := lo + (hi-lo)/2
		r, ok, err := probe(mid)
		if errors.Is(err, ErrSpec) {
			hi, refused, next = mid, err, nil
			continue
		}
		if err != nil {
			return nil, err
		}
		if ok {
			lo, best = mid, r
		} else {
			hi, next = mid, r
		}
	}
	res.Value, res.Best, res.Next = lo, best, next
	res.Verdict = best.Verdict
	switch {
	case next != nil:
	case refused != nil:
		// gpt2's longest prompt that fits was its positions' end, at a
		// gigabyte of 140: said, not called the largest that fits
		res.Bound = fmt.Sprintf("at %d: %s", hi, strings.TrimPrefix(refused.Error(), ErrSpec.Error()+": "))
	case hi == 0:
		res.Bound = fmt.Sprintf("the search stops at %d", fitLimit)
	}
	return res, nil
}

// smallerWeights says, when even one sequence does not fit, which
// weight-only quantisation would let one fit ("" when none does, or the
// weights are already quantised): the weights are what one sequence
// cannot go below.
func smallerWeights(spec memmodel.Spec, margin float64) string {
	c, err := resolve(spec)
	if err != nil || c.q != quantNone {
		return ""
	}
	for _, p := range []string{"int8", "int4"} {
		s := spec
		s.Precision, s.Batch = p, 1
		r, err := Estimate(s)
		if err != nil {
			continue
		}
		if vd := memmodel.DecideWithin(r.Process, r.ProcessBand.High, r.Capacity, margin, r.Confidence); vd.Fits {
			return fmt.Sprintf(" (with %s weights one sequence fits: %s, at most %s)", p, units.Bytes(r.Process), units.Bytes(r.ProcessBand.High))
		}
	}
	return " (not even with int4 weights)"
}

// CalibrateHost solves for the host_scale at which spec's planned decode
// step (one new token for every sequence) is measured seconds
// (memmodel.SolveHostScale): dev108's TinyLlama 32 x p128, 25.0 ms a step
// on a lent H100 against a host priced at 14.6 ms, is a host x1.71.
func CalibrateHost(ctx context.Context, spec memmodel.Spec, measured float64) (*memmodel.HostCalibration, error) {
	if spec.HostScale != 0 {
		return nil, memmodel.ErrHostScaleGiven
	}
	return memmodel.SolveHostScale(measured, "decode step", false, func(f float64) (memmodel.PricedStep, error) {
		if err := ctx.Err(); err != nil {
			return memmodel.PricedStep{}, err
		}
		s := spec
		s.HostScale = f
		r, err := Estimate(s)
		if err != nil {
			return memmodel.PricedStep{}, err
		}
		return memmodel.PricedStep{Step: r.DecodeStep, Host: r.DecodeHost, GPU: r.DecodeGPU, Model: r.Model, GPUName: r.GPU}, nil
	})
}

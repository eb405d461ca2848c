package infer

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// ServeFitResult answers how many GPUs one vLLM instance needs for its KV
// cache to hold Concurrency sequences of Context tokens at once: the
// fewest tensor-parallel degrees, trying 1, 2, 4, 8 and 16 from the
// spec's own, whose cache holds them at the band's low end.
type ServeFitResult struct {
	Concurrency int `json:"concurrency"`
	Context     int `json:"context_tokens"`
	// Need is Concurrency × Context tokens (with sliding-window layers
	// the cache holds the sequences in fewer; the decision is made on
	// each plan's concurrency).
	Need int64 `json:"tokens_needed"`
	// Best is the first plan that holds them; nil when none does.
	Best *ServeResult `json:"best"`
	// Tried lists every degree planned, in order; Refused the degrees
	// vLLM would refuse for this model (heads not split evenly), why.
	Tried   []*ServeResult `json:"tried"`
	Refused []string       `json:"refused,omitempty"`
}

// serveDegrees are the tensor-parallel degrees ServeFit tries.
var serveDegrees = []int{1, 2, 4, 8, 16}

// ServeFit plans spec at each tensor-parallel degree from its own up and
// stops at the first whose KV cache holds concurrency sequences of the
// context at the band's low end (the decision is made on the side that
// cannot leave users short).
func ServeFit(spec memmodel.Spec, concurrency int) (*ServeFitResult, error) {
	if concurrency < 1 {
		return nil, specErr("concurrency", "must be at least 1, got %d", concurrency)
	}
	from := max(spec.Parallel.TP, 1)
	res := &ServeFitResult{Concurrency: concurrency}
	for _, tp := range serveDegrees {
		if tp < from {
			continue
		}
		s := spec
		// a pipeline-parallel degree given is kept: tp × pp GPUs
		s.Parallel.TP, s.Parallel.GPUs = tp, tp*max(spec.Parallel.PP, 1)
		r, err := Serve(s)
		if IsSpecError(err) && tp > 1 {
			res.Refused = append(res.Refused, fmt.Sprintf("tp %d: %v", tp, err))
			continue
		}
		if err != nil {
			return nil, err
		}
		res.Context = r.Context
		res.Need = int64(concurrency) * int64(r.Context)
		res.Tried = append(res.Tried, r)
		if r.ConcurrencyLow >= float64(concurrency) {
			res.Best = r
			return res, nil
		}
	}
	last := res.Tried[len(res.Tried)-1]
	return res, fmt.Errorf("%w: at tp %d the KV cache holds %.2f sequences of %d tokens at most (%.2f at the band's low end), %d are needed",
		ErrNothingFits, last.TP, last.ConcurrencyHigh, res.Context, last.ConcurrencyLow, concurrency)
}

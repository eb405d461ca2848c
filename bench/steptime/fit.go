package main

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// fitHost searches the host costs that minimise the mean |log error| of
// the step times plus that of the technique ratios, by coordinate descent
// in multiplicative steps from the defaults. Small, a dispatcher call from
// Python, is not fitted: the calibration measured it (enqueue_s); nor is
// Param, the Python loops of zero_grad and GradScaler.unscale_ over the
// parameters: with the optimizer's own host time calibrated, nothing in a
// step-time row separates them from the rest, and a fit used them to
// absorb unrelated misses (a 29 µs "per parameter" that cost BERT fp16
// +59%). The search starts from start (-host). It is how
// memmodel.CalibrationHostCosts was chosen (on the development timings of
// the calibration machine), and how a user could fit their own host.
func fitHost(files []string, start memmodel.HostCosts) error {
	ws, err := read(files, false)
	if err != nil {
		return err
	}
	loss := func(h memmodel.HostCosts) (float64, error) {
		ev, err := measured.EvalStepTimeWith(ws, h)
		if err != nil {
			return 0, err
		}
		var l float64
		for _, r := range ev.Rows {
			l += math.Abs(math.Log1p(r.Err)) / float64(len(ev.Rows))
		}
		for _, p := range ev.Pairs {
			l += math.Abs(math.Log1p(p.Err())) / float64(len(ev.Pairs))
		}
		return l, nil
	}
	h := start
	fields := []struct {
		name string
		p    *float64
	}{{"op", &h.Op}, {"cast", &h.Cast}, {"bwd", &h.Bwd}, {"hook", &h.Hook}, {"step", &h.Step}}
	best, err := loss(h)
	if err != nil {
		return err
	}
	for _, step := range []float64{1.5, 1.2, 1.05} {
		for improved := true; improved; {
			improved = false
			for _, f := range fields {
				for _, m := range []float64{step, 1 / step} {
					old := *f.p
					*f.p = old * m
					l, err := loss(h)
					if err != nil {
						return err
					}
					if l < best-1e-6 {
						best, improved = l, true
					} else {
						*f.p = old
					}
				}
			}
		}
	}
	fmt.Printf("loss %.4f\n", best)
	for _, f := range fields {
		fmt.Printf("%-6s %.2f µs\n", f.name, *f.p*1e6)
	}
	enc, err := json.Marshal(h)
	if err != nil {
		return err
	}
	fmt.Printf("-host '%s'\n", enc)
	return nil
}

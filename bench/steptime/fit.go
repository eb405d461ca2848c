package main

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

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
//
// With phases (-fit-phases) the loss also holds the walk's host split to
// the measured one (phaseLoss) and Param is fitted too: the optimizer
// phase is what separates it (dev67, dev68). The costs named in keep stay
// at start's values (-fit-keep); those named in add (small, node) are
// fitted too (-fit-add). With within (-fit-within) a row's log error is
// scored less the median of its file's (rowLogErrs): each file is a host
// of its own speed, and the fit moves the costs' prices relative to each
// other, not the host's overall speed.
func fitHost(files []string, start memmodel.HostCosts, phases, within bool, keep, add []string) error {
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
		for _, e := range rowLogErrs(ev.Rows, within) {
			l += math.Abs(e) / float64(len(ev.Rows))
		}
		for _, p := range ev.Pairs {
			l += math.Abs(math.Log1p(p.Err())) / float64(len(ev.Pairs))
		}
		if phases {
			pl, err := phaseLoss(ws, h)
			if err != nil {
				return 0, err
			}
			l += pl
		}
		return l, nil
	}
	h := start
	type field struct {
		name string
		p    *float64
	}
	fields := []field{{"op", &h.Op}, {"cast", &h.Cast}, {"bwd", &h.Bwd}, {"hook", &h.Hook}, {"step", &h.Step}}
	if phases {
		fields = append(fields, field{"param", &h.Param})
	}
	for _, f := range []field{{"small", &h.Small}, {"node", &h.Node}, {"block", &h.Block}} {
		if slices.Contains(add, f.name) {
			fields = append(fields, f)
		}
	}
	fields = slices.DeleteFunc(fields, func(f field) bool {
		return slices.Contains(keep, f.name)
	})
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

// rowLogErrs is each row's log error (log of predicted over measured),
// less the median of its file's when within: rows of one file share their
// source and their capture set's name prefix (StepRow.Source alone is the
// file's folder and name, "timing/results.jsonl" in many sets).
func rowLogErrs(rows []measured.StepRow, within bool) []float64 {
	out := make([]float64, len(rows))
	for i, r := range rows {
		out[i] = math.Log1p(r.Err)
	}
	if !within {
		return out
	}
	bySource := map[string][]float64{}
	for i, r := range rows {
		bySource[fileKey(r)] = append(bySource[fileKey(r)], out[i])
	}
	med := map[string]float64{}
	for src, es := range bySource {
		med[src] = measured.Median(es)
	}
	for i, r := range rows {
		out[i] -= med[fileKey(r)]
	}
	return out
}

// fileKey names the file row r came from (see rowLogErrs).
func fileKey(r measured.StepRow) string {
	return strings.TrimSuffix(r.Name, measured.ConfigName(r.Name)) + r.Source
}

// phaseLoss is the mean, over the rows of ws with a measured host split
// (forward, backward, optimizer: gt_work's phase_s), of the summed |log|
// ratios of each phase's share of the host time measured and walked.
// Shares, not times: the host's speed differs by machine, its split
// should not.
func phaseLoss(ws []measured.Timed, h memmodel.HostCosts) (float64, error) {
	var l float64
	n := 0
	for _, w := range ws {
		m := w.PhaseS
		if m[0] <= 0 || m[1] <= 0 || m[2] <= 0 {
			continue
		}
		r, err := estimate(w.Spec, h)
		if err != nil {
			return 0, err
		}
		p := r.StepDetail.PhaseS
		ms, ps := m[0]+m[1]+m[2], p[0]+p[1]+p[2]
		if p[0] <= 0 || p[1] <= 0 || p[2] <= 0 {
			continue
		}
		for i := range m {
			l += math.Abs(math.Log((m[i] / ms) / (p[i] / ps)))
		}
		n++
	}
	if n == 0 {
		return 0, nil
	}
	return l / float64(n), nil
}

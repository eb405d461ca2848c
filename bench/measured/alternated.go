package measured

import (
	"fmt"
	"slices"
)

// Alternated timing (gt_alternate.py, session 56) runs several
// configurations of one model step by step in turn, in one process, so
// that the host's speed, which moves a host-bound step by up to 1.5x
// between processes and drifts within one, moves them alike.

// PairedRatio is a's step over b's, round by round, when both are
// configurations of one alternated process with as many timed rounds: the
// median of the rounds' ratios. Within a process the host can drift by
// a fifth between its first and last rounds (late101's EfficientNet-B0),
// so two medians of all steps can fall in different regimes; the steps
// of one round cannot. ok is false for rows not alternated together.
func PairedRatio(a, b Timed) (r float64, ok bool) {
	if !together(a, b) {
		return 0, false
	}
	return roundRatio(a.Rounds, b.Rounds), true
}

// HalvesRatio is PairedRatio over the first half of the rounds and over
// the second: how far a ratio measured in one process moves within it,
// the floor to which a predicted ratio can be checked.
func HalvesRatio(a, b Timed) (first, second float64, err error) {
	if !together(a, b) || len(a.Rounds) < 4 {
		return 0, 0, fmt.Errorf("%s, %s: not alternated together over at least 4 rounds", a.Name, b.Name)
	}
	h := len(a.Rounds) / 2
	return roundRatio(a.Rounds[:h], b.Rounds[:h]), roundRatio(a.Rounds[h:], b.Rounds[h:]), nil
}

// together reports whether a and b alternated in one process over as
// many rounds.
func together(a, b Timed) bool {
	return len(a.Rounds) > 0 && len(a.Rounds) == len(b.Rounds) && a.Source == b.Source && slices.Contains(a.Alternated, b.Name)
}

// roundRatio is the median over the rounds of a's step over b's.
func roundRatio(a, b []float64) float64 {
	rs := make([]float64, len(a))
	for i := range rs {
		rs[i] = a[i] / b[i]
	}
	return Median(rs)
}

// AtenOps is what gt_alternate.py counted of one step of an alternated
// row (forward, backward and optimizer) under a TorchDispatchMode, after
// the timed rounds: every ATen op dispatched, and aten::_to_copy, which
// autocast's casts are.
type AtenOps struct {
	Name string `json:"name"`
	Ops  *struct {
		Total  int `json:"total"`
		ToCopy int `json:"to_copy"`
	} `json:"aten_ops"`
}

// ReadAtenOps reads the op counts of a gt_work.py results file's
// alternated rows, by name (rows without counts are left out).
func ReadAtenOps(path string) (map[string]AtenOps, error) {
	rows, err := ReadJSONL[AtenOps](path)
	if err != nil {
		return nil, err
	}
	out := map[string]AtenOps{}
	for _, r := range rows {
		if r.Ops != nil {
			out[r.Name] = r
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no rows with ATen op counts", path)
	}
	return out, nil
}

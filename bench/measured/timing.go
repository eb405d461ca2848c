package measured

import (
	"fmt"
	"sort"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// StepTimeS is the row's steady step time in seconds: the median of its
// iterations after the first (which pays for cuDNN/cuBLAS warm-up and
// allocator growth), 0 when it has none.
func (m MeasuredRow) StepTimeS() float64 {
	if len(m.IterS) < 2 {
		return 0
	}
	it := append([]float64(nil), m.IterS[1:]...)
	sort.Float64s(it)
	n := len(it)
	if n%2 == 1 {
		return it[n/2]
	}
	return (it[n/2-1] + it[n/2]) / 2
}

// RatioPair is two measured workloads of one family that differ in exactly
// one technique, with the measured and predicted ratio of their step times
// (Num/Den). The acceptance criterion is about such ratios, not absolute
// times: a model that is off by a constant factor on every workload still
// ranks configurations correctly.
type RatioPair struct {
	Kind      string  `json:"kind"` // "amp", "checkpoint" or "accumulation"
	Num, Den  string  `json:"-"`
	Measured  float64 `json:"measured_ratio"`
	Predicted float64 `json:"predicted_ratio"`
}

// Err is the signed relative error of the predicted ratio.
func (p RatioPair) Err() float64 { return p.Predicted/p.Measured - 1 }

// ratioKind says which single technique separates a from b ("" when they
// differ in none or in more than one), oriented so that a is the variant
// (AMP, checkpointed, accumulated) and b the baseline.
func ratioKind(a, b MeasuredRow) string {
	if a.Model != b.Model || a.Seq != b.Seq || a.Opt != b.Opt || a.AllocConf != b.AllocConf ||
		a.Mode != nil || b.Mode != nil {
		return ""
	}
	sameBatch := a.B == b.B && max(a.Accum, 1) == max(b.Accum, 1)
	switch {
	case sameBatch && a.Ckpt == b.Ckpt && a.Prec != "fp32" && b.Prec == "fp32":
		return "amp"
	case sameBatch && a.Prec == b.Prec && a.Ckpt != "none" && b.Ckpt == "none":
		return "checkpoint"
	case a.Prec == b.Prec && a.Ckpt == b.Ckpt && a.Accum > 1 && max(b.Accum, 1) == 1 &&
		a.B*a.Accum == b.B:
		return "accumulation"
	}
	return ""
}

// StepTimeRatios predicts every timed row and returns the ratio of each
// pair that differs in one technique.
func StepTimeRatios(rows []MeasuredRow) ([]RatioPair, error) {
	pred := map[string]float64{}
	var timed []MeasuredRow
	for _, m := range rows {
		if m.Status != "ok" || m.StepTimeS() == 0 {
			continue
		}
		opts := memmodel.DefaultOptions()
		opts.SkipReserved = true
		r, err := memmodel.Estimate(m.Spec(), opts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.Name, err)
		}
		pred[m.Name] = r.StepTime
		timed = append(timed, m)
	}
	var out []RatioPair
	for _, a := range timed {
		for _, b := range timed {
			k := ratioKind(a, b)
			if k == "" {
				continue
			}
			out = append(out, RatioPair{Kind: k, Num: a.Name, Den: b.Name,
				Measured: a.StepTimeS() / b.StepTimeS(), Predicted: pred[a.Name] / pred[b.Name]})
		}
	}
	return out, nil
}

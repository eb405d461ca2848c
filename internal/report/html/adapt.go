package html

import (
	"bytes"
	"fmt"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/plan"
	"github.com/vramkit/vramkit/internal/report"
	"github.com/vramkit/vramkit/internal/units"
)

// AnalysisOf is what the report's overview shows of analyze's result for
// one device: the same text `vramkit analyze` prints, the category curve
// and the advice.
func AnalysisOf(path string, d *analyze.Device) *Analysis {
	var text bytes.Buffer
	report.DeviceText(&text, path, d)
	a := &Analysis{Text: text.String(),
		SitesAt: fmt.Sprintf("at the steady-state peak: %s allocated, iteration %d, %s", units.Bytes(d.CategoriesBytes),
			d.CategoriesAt.Iteration, d.CategoriesAt.Phase)}
	for _, s := range report.CategorySeries(d) {
		a.Categories = append(a.Categories, Series{Name: s.Name, Values: s.Values})
	}
	for _, v := range d.Advice {
		a.Advice = append(a.Advice, AdviceItem{Action: v.Action, Saving: v.Saving, Detail: v.Detail})
	}
	return a
}

// TuneOf is tune's table for the report: the rows come ranked, best
// first, from allocsim.Tune.
func TuneOf(d *allocsim.DeviceReplay, capBytes int64, rows []allocsim.TuneRow) *Tune {
	h := &Tune{RecordedConf: d.Config.String(), RecordedReserved: d.Result.Stats.ReservedBytes.All.Peak, Capacity: capBytes}
	if len(rows) > 0 && rows[0].Feasible && rows[0].PeakReserved < h.RecordedReserved {
		h.Best = rows[0].AllocConf
	}
	for _, r := range rows {
		row := TuneRow{Conf: r.AllocConf, PeakReserved: r.PeakReserved, PeakAllocated: r.PeakAllocated,
			Retries: r.Retries, OOMAt: -1, Feasible: r.Feasible}
		if r.OOMAt != nil {
			row.OOMAt = *r.OOMAt
		}
		h.Rows = append(h.Rows, row)
	}
	return h
}

// SweepOf is a plan --sweep curve as the sweep page draws it.
func SweepOf(r *plan.SweepResult) *Sweep {
	name := map[string]string{"batch": "batch size", "seq": "sequence length"}[r.Key]
	sw := &Sweep{Title: fmt.Sprintf("Predicted peak memory against %s on %s", name, r.GPU), XLabel: name, Limit: r.Budget, Largest: r.Largest,
		AtTop: r.AtRangeTop, Bound: r.Bound}
	for _, p := range r.Points {
		sw.Points = append(sw.Points, SweepPoint{X: p.Value, Reserved: p.Reserved, Allocated: p.Allocated,
			Process: p.ProcessHi, Fits: p.Fits})
	}
	return sw
}

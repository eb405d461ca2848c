package cli

import (
	"bytes"
	"fmt"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/report"
	"github.com/vramkit/vramkit/internal/report/html"
	"github.com/vramkit/vramkit/internal/snapshot"
	"github.com/vramkit/vramkit/internal/units"
)

// reportSites is how many of analyze's allocation sites the report lists.
const reportSites = 30

// analyzeFor runs vramkit analyze on device dev of s for the pictures: its
// category breakdown sampled where each timeline bucket peaks, and top
// sites. Tune's grid is left to the caller, which shows the whole table.
func analyzeFor(s *snapshot.Snapshot, st analyze.Settings, rep *allocsim.DeviceReplay, tl *report.Timeline) (*analyze.Device, error) {
	o := analyze.DefaultOptions()
	o.Tune, o.Top = false, reportSites
	o.CurveAt = make([]int, len(tl.Buckets))
	for i, b := range tl.Buckets {
		o.CurveAt[i] = b.AllocMaxAt
	}
	d, err := analyze.Replayed(s, rep, st, o)
	if err != nil {
		return nil, fmt.Errorf("analyze: device %d: %w", rep.Device, err)
	}
	return &d, nil
}

// categorySeries turns analyze's category curve into counter tracks, in
// the order they stack (long-lived at the bottom).
func categorySeries(d *analyze.Device) []report.CounterSeries {
	if len(d.CategoryCurve) == 0 {
		return nil
	}
	names := []string{"parameters", "gradients", "optimizer state", "activations", "temporaries", "kv cache",
		"unsharded parameters", "communication buffers", "library workspace", "other", "block rounding"}
	out := make([]report.CounterSeries, len(names))
	for i, n := range names {
		out[i] = report.CounterSeries{Name: n, Values: make([]int64, len(d.CategoryCurve))}
	}
	for j, c := range d.CategoryCurve {
		for i, v := range []int64{c.Parameters, c.Gradients, c.OptimizerState, c.Activations, c.Temporaries, c.KVCache,
			c.UnshardedParameters, c.Communication, c.LibraryWorkspace, c.Other, c.BlockRounding} {
			out[i].Values[j] = v
		}
	}
	return out
}

// analysisMarkers are analyze's findings as points in time: the start of
// each iteration after the first, leaks (at the last iteration, with what
// grows), and the OOM with its cause.
func analysisMarkers(d *analyze.Device, trace []snapshot.TraceEvent) []report.Marker {
	var out []report.Marker
	for _, p := range d.IterationPeaks {
		if p.Iteration > 1 {
			out = append(out, report.Marker{TimeUS: p.StartUS, Kind: "iteration", Label: fmt.Sprintf("iteration %d starts", p.Iteration)})
		}
	}
	if n := len(d.IterationPeaks); n > 0 {
		for _, l := range d.Leaks {
			out = append(out, report.Marker{TimeUS: d.IterationPeaks[n-1].StartUS, Kind: "leak", Bytes: l.BytesPerIteration,
				Label: fmt.Sprintf("leak: %s per iteration survive every step, allocated at %s", units.Bytes(l.BytesPerIteration),
					siteString(l.Frames, l.Label))})
		}
	}
	if o := d.OOM; o != nil && o.TraceEvent < len(trace) {
		out = append(out, report.Marker{TimeUS: trace[o.TraceEvent].TimeUS, Kind: "oom", Bytes: o.Requested,
			Label: fmt.Sprintf("CUDA out of memory requesting %s: %s — %s", units.Bytes(o.Requested), o.Cause, o.Explain)})
	}
	return out
}

// htmlAnalysis is what the report's overview shows of analyze.
func htmlAnalysis(path string, d *analyze.Device) *html.Analysis {
	var text bytes.Buffer
	printAnalysis(&text, path, d)
	a := &html.Analysis{Text: text.String(),
		SitesAt: fmt.Sprintf("at the steady-state peak: %s allocated, iteration %d, %s", units.Bytes(d.CategoriesBytes),
			d.CategoriesAt.Iteration, d.CategoriesAt.Phase)}
	for _, s := range categorySeries(d) {
		a.Categories = append(a.Categories, html.Series{Name: s.Name, Values: s.Values})
	}
	for _, v := range d.Advice {
		a.Advice = append(a.Advice, html.AdviceItem{Action: v.Action, Saving: v.Saving, Detail: v.Detail})
	}
	return a
}

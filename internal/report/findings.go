package report

import (
	"fmt"
	"io"

	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/snapshot"
	"github.com/vramkit/vramkit/internal/units"
)

// CategorySeries turns analyze's category curve into counter tracks, in
// the order they stack (long-lived at the bottom), for Perfetto and HTML.
func CategorySeries(d *analyze.Device) []CounterSeries {
	if len(d.CategoryCurve) == 0 {
		return nil
	}
	names := []string{"parameters", "gradients", "optimizer state", "activations", "temporaries", "kv cache",
		"unsharded parameters", "communication buffers", "library workspace", "other", "block rounding"}
	out := make([]CounterSeries, len(names))
	for i, n := range names {
		out[i] = CounterSeries{Name: n, Values: make([]int64, len(d.CategoryCurve))}
	}
	for j, c := range d.CategoryCurve {
		for i, v := range []int64{c.Parameters, c.Gradients, c.OptimizerState, c.Activations, c.Temporaries, c.KVCache,
			c.UnshardedParameters, c.Communication, c.LibraryWorkspace, c.Other, c.BlockRounding} {
			out[i].Values[j] = v
		}
	}
	return out
}

// AnalysisMarkers are analyze's findings as points in time: the start of
// each iteration after the first, leaks (at the last iteration, with what
// grows), and the OOM with its cause.
func AnalysisMarkers(d *analyze.Device, trace []snapshot.TraceEvent) []Marker {
	var out []Marker
	for _, p := range d.IterationPeaks {
		if p.Iteration > 1 {
			out = append(out, Marker{TimeUS: p.StartUS, Kind: "iteration", Label: fmt.Sprintf("iteration %d starts", p.Iteration)})
		}
	}
	if n := len(d.IterationPeaks); n > 0 {
		for _, l := range d.Leaks {
			out = append(out, Marker{TimeUS: d.IterationPeaks[n-1].StartUS, Kind: "leak", Bytes: l.BytesPerIteration,
				Label: fmt.Sprintf("leak: %s per iteration survive every step, allocated at %s", units.Bytes(l.BytesPerIteration),
					SiteString(l.Frames, l.Label))})
		}
	}
	if o := d.OOM; o != nil && o.TraceEvent < len(trace) {
		out = append(out, Marker{TimeUS: trace[o.TraceEvent].TimeUS, Kind: "oom", Bytes: o.Requested,
			Label: fmt.Sprintf("CUDA out of memory requesting %s: %s — %s", units.Bytes(o.Requested), CauseName(o.Cause), o.Explain)})
	}
	return out
}

// RunSummary is what `vramkit run` prints for each snapshot the training
// script left: the peaks PyTorch's allocator reached, an OOM's cause,
// leaks, and the top advice — one screen, with `vramkit analyze` for the
// rest.
func RunSummary(w io.Writer, path string, devices []analyze.Device) {
	for _, d := range devices {
		exact := "exact"
		if !d.TraceComplete {
			exact = "incomplete trace"
		}
		iters := fmt.Sprintf("%d iterations", d.Iterations)
		if d.Iterations == 1 {
			iters = "1 iteration"
		}
		fmt.Fprintf(w, "  device %d: peak allocated %s, peak reserved %s (%s), %s\n", d.Device,
			units.Bytes(d.PeakAllocated), units.Bytes(d.PeakReserved), exact, iters)
		if d.OOM != nil {
			fmt.Fprintf(w, "  out of memory asking for %s: %s — %s\n", units.Bytes(d.OOM.Requested), CauseName(d.OOM.Cause), d.OOM.Explain)
		}
		for _, l := range d.Leaks {
			site := ""
			if len(l.Frames) > 0 {
				f := l.Frames[0]
				site = fmt.Sprintf(" at %s:%d", ShortPath(f.Filename), f.Line)
			}
			fmt.Fprintf(w, "  LEAK: %s more kept every iteration%s\n", units.Bytes(l.BytesPerIteration), site)
		}
		for i, a := range d.Advice {
			if i == 3 {
				break
			}
			fmt.Fprintf(w, "  %d. %s — saves about %s\n", i+1, a.Action, units.Bytes(a.Saving))
		}
	}
	fmt.Fprintf(w, "  details: vramkit analyze %s\n", path)
}

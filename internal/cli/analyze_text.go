package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/snapshot"
	"github.com/vramkit/vramkit/internal/units"
)

// printAnalysis renders one device's analysis for a reader who has never
// seen a snapshot: every figure with its unit, and what it means.
func printAnalysis(w io.Writer, path string, d *analyze.Device) {
	b := units.Bytes
	fmt.Fprintf(w, "%s — device %d\n", path, d.Device)
	for _, n := range d.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	fmt.Fprintf(w, "\nSummary\n")
	fmt.Fprintf(w, "  peak allocated  %10s  memory held by live tensors (iteration %d, %s)\n", b(d.PeakAllocated),
		d.PeakAllocatedAt.Iteration, d.PeakAllocatedAt.Phase)
	fmt.Fprintf(w, "  peak reserved   %10s  memory PyTorch's cache took from the GPU (iteration %d)\n", b(d.PeakReserved), d.PeakReservedAt.Iteration)
	fmt.Fprintf(w, "  nvidia-smi      %10s  estimate: reserved + %s CUDA context (assumed, ±50 MiB)\n", b(d.NVMLEstimate), b(d.ContextBytes))
	fmt.Fprintf(w, "  iterations      %10d  found by %s\n", d.Iterations, d.IterationSource)
	for _, p := range d.IterationPeaks {
		fmt.Fprintf(w, "    iteration %-3d peak %10s in %-14s  %10s kept after it\n", p.Iteration, b(p.PeakAllocated), p.Phase, b(p.EndAllocated))
	}
	c := d.Categories
	fmt.Fprintf(w, "\nWhat the memory is, at the steady-state peak (%s at iteration %d, %s)\n", b(d.CategoriesBytes),
		d.CategoriesAt.Iteration, d.CategoriesAt.Phase)
	fmt.Fprintf(w, "  confidence: %s\n", d.CategoryConfidence)
	for _, r := range []struct {
		name string
		n    int64
		what string
	}{
		{"parameters", c.Parameters, "model weights and buffers, loaded before the first step"},
		{"gradients", c.Gradients, "made by backward, kept for the optimizer"},
		{"optimizer state", c.OptimizerState, "kept by the optimizer across steps (Adam: two per weight)"},
		{"activations", c.Activations, "saved by forward for backward"},
		{"temporaries", c.Temporaries, "freed in the phase that made them"},
		{"other", c.Other, "inputs, outputs, anything kept across steps"},
		{"block rounding", c.BlockRounding, "allocator blocks are larger than the requests"},
	} {
		fmt.Fprintf(w, "  %-16s %10s  %5.1f%%  %s\n", r.name, b(r.n), pct(r.n, d.CategoriesBytes), r.what)
	}
	fmt.Fprintf(w, "\nTop allocation sites at that moment\n")
	for _, s := range d.TopSites {
		fmt.Fprintf(w, "  %10s  %5d× %-15s %s\n", b(s.Bytes), s.Count, s.Category, siteString(s.Frames, s.Label))
	}
	f := d.Fragmentation
	fmt.Fprintf(w, "\nFragmentation (at peak reserved)\n")
	fmt.Fprintf(w, "  reserved − allocated  %10s  cached but unused\n", b(f.ReservedMinusAllocated))
	fmt.Fprintf(w, "  largest free block    %10s  at the end of the trace\n", b(f.LargestFreeBlock))
	fmt.Fprintf(w, "  inactive split peak   %10s  free pieces of partly used blocks\n", b(f.InactiveSplitPeak))
	switch {
	case f.TuneConf != "":
		fmt.Fprintf(w, "  vramkit tune: PYTORCH_CUDA_ALLOC_CONF=%s saves %s of peak reserved\n", f.TuneConf, b(f.TuneSaving))
	case f.TuneSkipped != "":
		fmt.Fprintf(w, "  vramkit tune: not run (%s)\n", f.TuneSkipped)
	default:
		fmt.Fprintf(w, "  vramkit tune: no setting in its grid reserves less\n")
	}
	fmt.Fprintf(w, "\nLeaks\n")
	if len(d.Leaks) == 0 {
		fmt.Fprintf(w, "  none: what each iteration keeps does not grow\n")
	}
	for _, l := range d.Leaks {
		fmt.Fprintf(w, "  %s per iteration survive every step (over %d iterations); the GPU (%s) is full in about %d more iterations\n",
			b(l.BytesPerIteration), l.Iterations, b(l.CapacityBytes), l.IterationsToFull)
		fmt.Fprintf(w, "  allocated at: %s\n", siteString(l.Frames, l.Label))
	}
	if o := d.OOM; o != nil {
		fmt.Fprintf(w, "\nOut of memory (trace event %d)\n", o.TraceEvent)
		fmt.Fprintf(w, "  requested %s; allocated %s, reserved %s, cached free %s, device free %s\n",
			b(o.Requested), b(o.Allocated), b(o.Reserved), b(o.CachedFree), b(o.DeviceFree))
		fmt.Fprintf(w, "  cause: %s — %s\n", o.Cause, o.Explain)
		for _, s := range o.Holders {
			fmt.Fprintf(w, "  holder %10s  %5d× %-15s %s\n", b(s.Bytes), s.Count, s.Category, siteString(s.Frames, s.Label))
		}
	}
	t := d.Traits
	fmt.Fprintf(w, "\nWhat the trace shows about the run: training=%v, mixed precision=%v, checkpointing=%v, optimizer: %s\n",
		t.Training, t.AMP, t.Checkpointing, t.Optimizer)
	fmt.Fprintf(w, "\nAdvice, biggest estimated saving first\n")
	if len(d.Advice) == 0 {
		fmt.Fprintf(w, "  nothing that applies stands out\n")
	}
	for i, a := range d.Advice {
		fmt.Fprintf(w, "  %d. %s — saves about %s\n     %s\n", i+1, a.Action, b(a.Saving), a.Detail)
	}
}

func siteString(fr []snapshot.Frame, label string) string {
	if len(fr) == 0 {
		return label
	}
	parts := make([]string, 0, len(fr))
	for i, f := range fr {
		if i == 0 {
			parts = append(parts, fmt.Sprintf("%s (%s:%d)", f.Name, shortPath(f.Filename), f.Line))
			continue
		}
		if f.Name == "<module>" || f.Name == "main" && i == len(fr)-2 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s:%d %s", shortPath(f.Filename), f.Line, f.Name))
	}
	return strings.Join(parts, " ← ")
}

// shortPath trims an installed package's path to the package part.
func shortPath(p string) string {
	for _, m := range []string{"site-packages/", "dist-packages/"} {
		if i := strings.LastIndex(p, m); i >= 0 {
			return p[i+len(m):]
		}
	}
	return p
}

func pct(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/snapshot"
	"github.com/vramkit/vramkit/internal/units"
)

// maxIterationRows is how many iterations the text lists one per line; a
// long trace shows its first and last ones and a range for the rest.
const maxIterationRows = 8

// AnalysisFile is one snapshot file's analysis: what analyze's JSON lists
// per file and what the text renderer prints one after another.
type AnalysisFile struct {
	Path    string           `json:"path"`
	Devices []analyze.Device `json:"devices"`
}

// AnalysisText writes the analyses of several files, a blank line between
// files, as `vramkit analyze` prints them.
func AnalysisText(w io.Writer, files []AnalysisFile) {
	for i, f := range files {
		if i > 0 {
			fmt.Fprintln(w)
		}
		for _, d := range f.Devices {
			DeviceText(w, f.Path, &d)
		}
	}
}

// DeviceText renders one device's analysis for a reader who has never
// seen a snapshot: every figure with its unit, what it means, and where a
// figure rests on an assumption, that it does.
func DeviceText(w io.Writer, path string, d *analyze.Device) {
	fmt.Fprintf(w, "%s — device %d\n", path, d.Device)
	if d.Settings != nil {
		fmt.Fprintf(w, "settings: %s\n", d.Settings.String())
	}
	for _, n := range d.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if d.StateOnly {
		printStateOnly(w, d)
		return
	}
	printSummary(w, d)
	printCategories(w, d)
	printCache(w, d)
	printLeaks(w, d)
	printOOM(w, d)
	printGeneration(w, d.Generation)
	printTraits(w, d.Traits)
	fmt.Fprintf(w, "\nAdvice, biggest estimated saving first\n")
	if len(d.Advice) == 0 {
		fmt.Fprintf(w, "  nothing that applies stands out\n")
	}
	for i, a := range d.Advice {
		gain := "saves about " + units.Bytes(a.Saving)
		if a.FixesFailure {
			gain = "fixes the out-of-memory error"
		}
		fmt.Fprintf(w, "  %d. %s — %s\n     %s\n", i+1, a.Action, gain, a.Detail)
	}
}

func printSummary(w io.Writer, d *analyze.Device) {
	b := units.Bytes
	fmt.Fprintf(w, "\nSummary\n")
	fmt.Fprintf(w, "  peak allocated  %10s  memory held by live tensors, at %s\n", b(d.PeakAllocated), when(d.PeakAllocatedAt))
	fmt.Fprintf(w, "  peak reserved   %10s  memory PyTorch's caching allocator took from the GPU, at %s\n",
		b(d.PeakReserved), when(d.PeakReservedAt))
	fmt.Fprintf(w, "  nvidia-smi      %10s  estimate: peak reserved + %s for the CUDA context (assumed, ±50 MiB)\n",
		b(d.NVMLEstimate), b(d.ContextBytes))
	fmt.Fprintf(w, "  iterations      %10d  found from %s\n", d.Iterations, d.IterationSource)
	if len(d.IterationPeaks) == 0 {
		return
	}
	fmt.Fprintf(w, "    %-9s  %14s  %-14s  %13s\n", "iteration", "peak allocated", "in phase", "kept after it")
	row := func(p analyze.IterPeak) {
		fmt.Fprintf(w, "    %-9d  %14s  %-14s  %13s\n", p.Iteration, b(p.PeakAllocated), p.Phase, b(p.EndAllocated))
	}
	ps := d.IterationPeaks
	if len(ps) <= maxIterationRows {
		for _, p := range ps {
			row(p)
		}
		return
	}
	head, tail := ps[:3], ps[len(ps)-2:]
	for _, p := range head {
		row(p)
	}
	mid := ps[3 : len(ps)-2]
	lo, hi, klo, khi := mid[0].PeakAllocated, mid[0].PeakAllocated, mid[0].EndAllocated, mid[0].EndAllocated
	for _, p := range mid {
		lo, hi = min(lo, p.PeakAllocated), max(hi, p.PeakAllocated)
		klo, khi = min(klo, p.EndAllocated), max(khi, p.EndAllocated)
	}
	fmt.Fprintf(w, "    %-9s  peaks %s, %s kept after each\n", fmt.Sprintf("%d–%d", mid[0].Iteration, mid[len(mid)-1].Iteration),
		span(lo, hi), span(klo, khi))
	for _, p := range tail {
		row(p)
	}
}

// span prints a byte range compactly, or one figure when it is one.
func span(lo, hi int64) string {
	if units.Bytes(lo) == units.Bytes(hi) {
		return units.Bytes(lo)
	}
	return units.Bytes(lo) + "–" + units.Bytes(hi)
}

// when places a moment for a reader: the iteration and the phase.
func when(m analyze.Moment) string {
	if m.Iteration == 0 {
		return "setup, before the first iteration"
	}
	return fmt.Sprintf("iteration %d (%s)", m.Iteration, m.Phase)
}

func printCategories(w io.Writer, d *analyze.Device) {
	b := units.Bytes
	c := d.Categories
	switch {
	case d.Generation != nil && d.CategoriesAt.Iteration == 0:
		fmt.Fprintf(w, "\nWhat the memory is at the peak: %s while the model loads, before the first forward pass\n", b(d.CategoriesBytes))
	case d.Generation != nil:
		fmt.Fprintf(w, "\nWhat the memory is at the peak: %s at %s (forward pass %d of the generation)\n", b(d.CategoriesBytes),
			d.CategoriesAt.Phase, d.CategoriesAt.Iteration)
	default:
		fmt.Fprintf(w, "\nWhat the memory is at the steady-state peak: %s at %s\n", b(d.CategoriesBytes), when(d.CategoriesAt))
	}
	switch {
	case d.Iterations <= 1 || d.Generation != nil:
	case d.Traits.IsTraining():
		fmt.Fprintf(w, "  (the highest point after the first iteration: the step the run repeats; the first has no optimizer state yet)\n")
	default:
		// A forward-only run has no optimizer: its first pass differs
		// only by one-time work (cuBLAS workspaces, lazy buffers).
		fmt.Fprintf(w, "  (the highest point after the first iteration: the pass the run repeats; the first does one-time work)\n")
	}
	fmt.Fprintf(w, "  confidence: %s\n", d.CategoryConfidence)
	for _, r := range []struct {
		name string
		n    int64
		what string
	}{
		{"parameters", c.Parameters, "model weights and buffers, loaded before the first iteration"},
		{"gradients", c.Gradients, "made by backward, kept for the optimizer"},
		{"optimizer state", c.OptimizerState, "kept by the optimizer across steps (Adam keeps two values per weight)"},
		{"activations", c.Activations, "saved by forward for backward"},
		{"temporaries", c.Temporaries, "freed in the phase that made them"},
		{"kv cache", c.KVCache, "keys and values a Hugging Face model caches (transformers' cache_utils)"},
		{"unsharded params", c.UnshardedParameters, "FSDP's all-gathered parameters, alive while their block runs"},
		{"communication", c.Communication, "collective buffers: FSDP all-gather/reduce-scatter, DDP buckets, DTensor"},
		{"library workspace", c.LibraryWorkspace, "cuBLAS workspaces, one per thread at its first matmul"},
		{"other", c.Other, "inputs, outputs, anything else kept across steps"},
		{"block rounding", c.BlockRounding, "the allocator hands out blocks a little larger than requested"},
	} {
		if r.n == 0 && (r.name == "kv cache" || r.name == "unsharded params" || r.name == "communication" ||
			r.name == "library workspace") {
			continue
		}
		fmt.Fprintf(w, "  %-17s %10s  %5s  %s\n", r.name, b(r.n), pctStr(r.n, d.CategoriesBytes), r.what)
	}
	fmt.Fprintf(w, "\nWhere it was allocated, biggest first, in requested bytes as above (library call ← your code)\n")
	for _, s := range d.TopSites {
		fmt.Fprintf(w, "  %10s  %s in %s  %s\n", b(s.Bytes), tensors(s.Count), catName(s.Category), SiteString(s.Frames, s.Label))
	}
}

func printCache(w io.Writer, d *analyze.Device) {
	b := units.Bytes
	f := d.Fragmentation
	fmt.Fprintf(w, "\nAllocator cache (fragmentation)\n")
	fmt.Fprintf(w, "  peak reserved − peak allocated  %10s  the cache's cost at its worst; a setting saves more only by "+
		"also rounding blocks less\n", b(d.PeakReserved-d.PeakAllocated))
	fmt.Fprintf(w, "  at peak reserved, %s:\n", when(d.PeakReservedAt))
	fmt.Fprintf(w, "    cached but unused             %10s  of %s reserved\n", b(f.ReservedMinusAllocated), b(d.PeakReserved))
	fmt.Fprintf(w, "    largest free block            %10s  a bigger request then needed a new segment from the GPU\n",
		b(f.LargestFreeBlock))
	fmt.Fprintf(w, "  inactive split, peak            %10s  free pieces of partly used blocks, reusable only by smaller requests\n",
		b(f.InactiveSplitPeak))
	switch {
	case f.TuneConf != "":
		fmt.Fprintf(w, "  vramkit tune: PYTORCH_CUDA_ALLOC_CONF=%s lowers peak reserved by %s\n", f.TuneConf, b(f.TuneSaving))
		if f.TuneSettings == 1 {
			fmt.Fprintf(w, "    (the only setting replayed: the trace is long; vramkit tune tries the whole grid)\n")
		}
		if n := analyze.TuneRoundingNote(d); n != "" {
			fmt.Fprintf(w, "    (%s)\n", n)
		}
	case f.TuneSkipped != "":
		fmt.Fprintf(w, "  vramkit tune: not run (%s)\n", f.TuneSkipped)
	default:
		fmt.Fprintf(w, "  vramkit tune: no allocator setting in its grid reserves less\n")
	}
}

func printLeaks(w io.Writer, d *analyze.Device) {
	b := units.Bytes
	fmt.Fprintf(w, "\nLeaks\n")
	if len(d.Leaks) == 0 {
		fmt.Fprintf(w, "  none: the memory kept after each iteration does not grow\n")
	}
	for _, l := range d.Leaks {
		fmt.Fprintf(w, "  %s more survives each iteration (growth seen over all %d iterations)\n", b(l.BytesPerIteration), l.Iterations)
		fmt.Fprintf(w, "  at that rate the GPU is full after about %d more iterations: the process may use %s (%s)\n",
			l.IterationsToFull, b(l.CapacityBytes), l.CapacitySource)
		fmt.Fprintf(w, "  allocated at: %s\n", SiteString(l.Frames, l.Label))
	}
}

// CauseName is an OOM cause in words; JSON keeps analyze's codes.
func CauseName(code string) string {
	if code == analyze.CauseFractionCap {
		return "memory fraction cap"
	}
	return strings.ReplaceAll(code, "_", " ")
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

func tensors(n int) string {
	if n == 1 {
		return "    1 tensor "
	}
	return fmt.Sprintf("%5d tensors", n)
}

// catName prints a category as a phrase, not a JSON key.
func catName(c string) string {
	short := map[string]string{"unsharded_parameters": "unsharded", "communication_buffers": "communication",
		"library_workspace": "lib workspace"}
	if s, ok := short[c]; ok {
		c = s
	}
	return fmt.Sprintf("%-15s", strings.ReplaceAll(c, "_", " "))
}

// SiteString prints a call stack as "library call ← your code", dropping
// module-level and main frames that say nothing.
func SiteString(fr []snapshot.Frame, label string) string {
	if len(fr) == 0 {
		return label
	}
	parts := make([]string, 0, len(fr))
	for i, f := range fr {
		if i == 0 {
			parts = append(parts, fmt.Sprintf("%s (%s:%d)", f.Name, ShortPath(f.Filename), f.Line))
			continue
		}
		// The script's entry points add nothing once a deeper user frame
		// is shown; the innermost user frame is always shown, whatever its
		// function is called (a training loop at module level is
		// "<module>").
		if i > 1 && (f.Name == "<module>" || f.Name == "main" && i == len(fr)-2) {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s:%d %s", ShortPath(f.Filename), f.Line, f.Name))
	}
	return strings.Join(parts, " ← ")
}

// ShortPath trims an installed package's path to the package part.
func ShortPath(p string) string {
	for _, m := range []string{"site-packages/", "dist-packages/"} {
		if i := strings.LastIndex(p, m); i >= 0 {
			return p[i+len(m):]
		}
	}
	return p
}

// pctStr is a share of the whole, to the precision a reader needs.
func pctStr(a, b int64) string {
	if b == 0 {
		return "–"
	}
	p := 100 * float64(a) / float64(b)
	switch {
	case a == 0:
		return "0%"
	case p < 0.1:
		return "<0.1%"
	case p < 10:
		return fmt.Sprintf("%.1f%%", p)
	}
	return fmt.Sprintf("%.0f%%", p)
}

// printStateOnly renders a snapshot without allocation history: what the
// segment list proves, and how to record what it cannot.
func printStateOnly(w io.Writer, d *analyze.Device) {
	b := units.Bytes
	if d.Window != nil {
		fmt.Fprintf(w, "\nAt the dump (without an exact replay, iterations, categories and leaks are unknown)\n")
	} else {
		fmt.Fprintf(w, "\nAt the dump (no allocation history: peaks, iterations, categories and leaks are unknown)\n")
	}
	fmt.Fprintf(w, "  allocated         %10s  memory held by live tensors when the snapshot was taken\n", b(d.PeakAllocated))
	fmt.Fprintf(w, "  reserved          %10s  memory PyTorch's caching allocator held from the GPU\n", b(d.PeakReserved))
	fmt.Fprintf(w, "  cached but unused %10s\n", b(d.Fragmentation.ReservedMinusAllocated))
	if win := d.Window; win != nil {
		span := "the earlier history is gone"
		if win.FromStart() {
			span = "the whole run"
		}
		fmt.Fprintf(w, "\nOver the %d events the trace kept (%.1f s; %s)\n", win.Events, float64(win.EndUS-win.StartUS)/1e6, span)
		fmt.Fprintf(w, "  peak reserved     %10s  exact: segment events carry their sizes\n", b(win.ReservedPeak))
		fmt.Fprintf(w, "  peak allocated    %10s  a lower bound, rebuilt back from the dump (typically within 1%%)\n", b(win.AllocatedPeak))
	}
	if len(d.TopSites) > 0 {
		fmt.Fprintf(w, "\nWho holds the live memory\n")
		for _, s := range d.TopSites {
			fmt.Fprintf(w, "  %10s  %5d tensors  %s\n", b(s.Bytes), s.Count, SiteString(s.Frames, s.Label))
		}
	}
	fmt.Fprintf(w, "\nTo see the peak and where it comes from, record the history from the start of the run:\n"+
		"  torch.cuda.memory._record_memory_history(max_entries=1_000_000)  # before the first CUDA allocation\n"+
		"or run the script under `vramkit run -- python train.py`.\n")
}

package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/vramkit/vramkit/internal/memmodel"
	"github.com/vramkit/vramkit/internal/units"
)

// PlanText prints one configuration's predicted memory with its bands at
// the stated confidence, step time and verdict, the breakdown at the peak
// and the estimate's notes.
func PlanText(w io.Writer, spec memmodel.Spec, r *memmodel.Result) {
	params := count(r.Params) + " params"
	var split []string
	if tp := spec.Parallel.TP; tp > 1 {
		split = append(split, fmt.Sprintf("tp %d", tp))
	}
	if pp := spec.Parallel.PP; pp > 1 {
		split = append(split, fmt.Sprintf("pp %d", pp))
	}
	if len(split) > 0 {
		// Estimate counts one rank's shard of the split layers, or the
		// fuller pipeline stage's layers
		params = fmt.Sprintf("%s params a GPU under %s", count(r.Params), strings.Join(split, ", "))
	}
	fmt.Fprintf(w, "model %s (%s, %s trainable) on %s\n", r.Model, params, count(r.TrainableParams), r.GPU)
	switch r.Head {
	case "masked-lm":
		fmt.Fprintf(w, "  masked-LM head: logits over the vocabulary at every position\n")
	case "sequence-classification":
		if spec.AudioSeconds > 0 {
			// Wav2Vec2ForSequenceClassification: projector, mean over frames
			fmt.Fprintf(w, "  sequence-classification head: class scores from the mean of the projected frames, no CTC head\n")
			break
		}
		fmt.Fprintf(w, "  sequence-classification head: class scores from one token per sequence, no LM head\n")
	case "contrastive-image-text":
		fmt.Fprintf(w, "  contrastive image-text loss (CLIPModel, return_loss): every text of the batch scored against every image "+
			"(images at the config's image_size), cross entropy both ways\n")
	}
	fmt.Fprintf(w, "  %s\n", configLine(spec))
	band := func(b memmodel.Band) string {
		return fmt.Sprintf("%s – %s, %.0f%%", units.Bytes(b.Low), units.Bytes(b.High), 100*r.Confidence)
	}
	fmt.Fprintf(w, "\npeak allocated  %10s   (%s)\n", units.Bytes(r.PeakAllocated), band(r.AllocatedBand))
	fmt.Fprintf(w, "peak reserved   %10s   (%s)\n", units.Bytes(r.PeakReserved), band(r.ReservedBand))
	allowanceLine(w, r.ReservedAllowance, r.ModelReserved, r.ReservedAllowanceBasis)
	fmt.Fprintf(w, "process (smi)   %10s   (%s), CUDA context ≈ %s\n", units.Bytes(r.Process), band(r.ProcessBand), units.Bytes(r.Context))
	if r.SteadyProcess != r.Process {
		// the verdict's "at most" is this band's top, which no other
		// line printed (4.91 GiB beside a process band ending at 4.74)
		steady := memmodel.Band{Low: r.ProcessBand.Low + r.SteadyProcess - r.Process, High: r.ProcessHigh}
		fmt.Fprintf(w, "steady state    %10s   (%s), process memory once optimizer steps succeed, which the verdict judges\n",
			units.Bytes(r.SteadyProcess), band(steady))
	}
	if d := r.Dynamic; d != nil {
		fmt.Fprintf(w, "worst batch     %10s   peak allocated of the longest batch (%d tokens) alone; fixed-shape reserved %s\n",
			units.Bytes(d.FixedAllocated), d.MaxLen, units.Bytes(d.FixedReserved))
	}
	over := ""
	if n := spec.Parallel.GPUs; n > 1 {
		// the rate counts every replica's samples: 4 × 8 × accum 2 in a
		// step, not one GPU's
		over = fmt.Sprintf(" over the %d GPUs", n)
	}
	fmt.Fprintf(w, "step time       %10.3f s (%.3f – %.3f s), %s samples/s%s\n", r.StepTime, r.StepTimeBand[0], r.StepTimeBand[1], units.Rate(r.SamplesPerSec), over)
	if r.StepTimeSource != "" {
		fmt.Fprintf(w, "                %s\n", r.StepTimeSource)
	}
	if len(r.BandClasses) > 0 {
		fmt.Fprintf(w, "bands at %.0f%% from measured error of: %s\n", 100*r.Confidence, strings.Join(r.BandClasses, ", "))
	}
	// one line, made on the top of the band (memmodel.Decide): the
	// headroom is the capacity less that top, so it is negative exactly
	// when the run does not fit
	fmt.Fprintf(w, "%s (headroom %s)\n", r.Verdict.Text, units.Bytes(r.Headroom))
	fmt.Fprintf(w, "\nbreakdown at peak (%s):\n", r.PeakPhase)
	keys := make([]string, 0, len(r.Breakdown))
	for k := range r.Breakdown {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return r.Breakdown[keys[i]] > r.Breakdown[keys[j]] })
	for _, k := range keys {
		fmt.Fprintf(w, "  %-20s %10s\n", k, units.Bytes(r.Breakdown[k]))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if len(r.Modules) > 0 {
		modulesText(w, r.Modules)
	}
}

// configLine is the configuration planned, as the spec planned
// (memmodel.Planned) holds it: the sequence length or image side the
// model defaults to, the GPUs a parallel strategy runs on, and the
// techniques and allocator settings given (LoRA, quantisation, attention,
// compile, memory format, PYTORCH_CUDA_ALLOC_CONF).
func configLine(spec memmodel.Spec) string {
	shape := fmt.Sprintf("seq %d", spec.Seq)
	switch {
	case spec.Image > 0:
		shape = fmt.Sprintf("image %d×%d", spec.Image, spec.Image)
	case spec.AudioSeconds > 0:
		shape = fmt.Sprintf("audio %g s", spec.AudioSeconds)
		if f := spec.FreezeFeatureEncoder; f != nil && !*f {
			shape += " (feature encoder trained)"
		} else {
			shape += " (feature encoder frozen)"
		}
	}
	p := spec.Parallel
	par := p.Strategy
	if p.GPUs > 1 {
		par += fmt.Sprintf(" over %d GPUs", p.GPUs)
		var deg []string
		if p.TP > 1 && p.Strategy != "tp" {
			deg = append(deg, fmt.Sprintf("tp %d", p.TP))
		}
		if p.PP > 1 && p.Strategy != "pp" {
			deg = append(deg, fmt.Sprintf("pp %d", p.PP))
		}
		if len(deg) > 0 {
			par += " (" + strings.Join(deg, ", ") + ")"
		}
	}
	line := fmt.Sprintf("batch %d, %s, precision %s, checkpoint %s, accum %d, optimizer %s, parallel %s",
		spec.Batch, shape, spec.Precision, spec.Checkpoint, spec.Accum, spec.Optimizer, par)
	if spec.LoRA != nil {
		line += fmt.Sprintf(", LoRA rank %d", spec.LoRA.Rank)
	}
	if spec.Quant != "" {
		line += ", base weights " + spec.Quant
	}
	if spec.Attn != "" {
		line += ", attention " + spec.Attn
	}
	if spec.Compile {
		line += ", torch.compile"
	}
	if spec.ChannelsLast {
		line += ", channels-last"
	}
	if spec.AllocConf != "" {
		line += ", PYTORCH_CUDA_ALLOC_CONF=" + spec.AllocConf
	}
	return line
}

// allowanceLine says, under peak reserved, what the figure adds to the
// model's for allocations it does not trace, and why.
func allowanceLine(w io.Writer, add, model int64, basis string) {
	if add <= 0 {
		return
	}
	fmt.Fprintf(w, "                model %s + %s allowance for untraced allocations (%s)\n", units.Bytes(model), units.Bytes(add), basis)
}

// modulesText prints the per-module view (plan --by-module), identical
// layers merged.
func modulesText(w io.Writer, rows []memmodel.ModuleRow) {
	fmt.Fprintf(w, "\nper module (identical layers merged, figures per layer):\n")
	fmt.Fprintf(w, "  %-28s %9s %10s %10s %10s %12s\n", "module", "params", "weights", "gradients", "optimizer", "activations")
	for _, m := range memmodel.CollapseLayers(rows) {
		name := m.Module
		if name == "model" {
			// what no named module or layer holds (GPT-2's embeddings
			// and final norm), not the whole model
			name = "model (outside the layers)"
		}
		fmt.Fprintf(w, "  %-28s %9s %10s %10s %10s %12s\n", name, count(m.Params), units.Bytes(m.ParamBytes),
			units.Bytes(m.GradientBytes), units.Bytes(m.OptimizerBytes), units.Bytes(m.ActivationByte))
	}
}

func count(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.2fB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1e4:
		return fmt.Sprintf("%.1fK", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// CalibrationText prints a host calibration (plan --measured-step).
func CalibrationText(w io.Writer, c *memmodel.HostCalibration) {
	fmt.Fprintf(w, "host calibration: %s on %s, from a %s\n", c.Model, c.GPU, c.Step)
	fmt.Fprintf(w, "measured step   %10.4f s\n", c.MeasuredStep)
	fmt.Fprintf(w, "planned step    %10.4f s   host %.4f s, GPU %.4f s, on the median lent host\n", c.PlannedStep, c.PlannedHost, c.PlannedGPU)
	fmt.Fprintf(w, "host_scale      %10.2f     the plan's step at it: %.4f s (host %.4f s)\n", c.HostScale, c.StepAtScale, c.HostAtScale)
	for _, n := range c.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	fmt.Fprintf(w, "plan this model's other configurations on this machine with --host-scale %.2f\n", c.HostScale)
}

package plan

import (
	"fmt"
	"io"
	"strings"

	"github.com/vramkit/vramkit/internal/memmodel"
	"github.com/vramkit/vramkit/internal/units"
)

// explain walks the seeds' decision tree — AMP first, then checkpointing,
// dynamic batching, accumulation, sharding — for the chosen configuration,
// naming the faster options that were rejected and why.
func explain(res *FitResult, arch memmodel.Arch) []string {
	b := res.Best
	var steps []string
	switch b.Precision {
	case "fp32":
		steps = append(steps, "precision: fp32 — every AMP option that fits is slower or none fits")
	case "bf16":
		steps = append(steps, "precision: bf16 — the frozen base weights loaded in bfloat16 (LoRA updates only the adapters): half their memory, and no float32 copies to cast"+ampMargin(res))
	default:
		steps = append(steps, fmt.Sprintf("precision: %s — AMP halves activation memory and runs matmuls on the tensor cores", b.Precision))
	}
	switch b.Checkpoint {
	case "none":
		steps = append(steps, "checkpointing: none — activations fit without recomputation")
	default:
		steps = append(steps, fmt.Sprintf("checkpointing: %s — needed to fit; it costs recomputation time", b.Checkpoint))
	}
	if arch.ChannelsLast() {
		steps = append(steps, layoutLine(res))
	}
	if !arch.Vision() {
		steps = append(steps, "dynamic batching: pad to the longest sequence in each batch (or bucket by length) to cut padded tokens; memory is set by the longest batch, so plan for the maximum length")
	} else {
		steps = append(steps, "dynamic batching: not applicable to fixed-size images")
	}
	if b.Accum > 1 {
		steps = append(steps, fmt.Sprintf("accumulation: micro-batch %d × %d steps reaches the global batch %d", b.MicroBatch, b.Accum, res.GlobalBatch))
	} else {
		steps = append(steps, fmt.Sprintf("accumulation: none — the whole per-GPU batch %d fits at once", b.MicroBatch))
	}
	if res.GPUs > 1 {
		sh := fmt.Sprintf("sharding: %s across %d GPUs", b.Strategy, res.GPUs)
		if b.Spec.Parallel.Init == "meta" {
			sh += ", the model built on the meta device and loaded sharded (torch.device(\"meta\"), fully_shard, to_empty, then a sharded state dict): model.to(device) first would hold the whole model on every GPU"
		}
		steps = append(steps, sh)
	} else {
		steps = append(steps, "sharding: single GPU")
	}
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = fmt.Sprintf("%d. %s", i+1, s)
	}
	if t := nearTie(res); t != "" {
		out = append(out, t)
	}
	n := 0
	for _, r := range res.Rejected {
		if n == 5 {
			break
		}
		out = append(out, fmt.Sprintf("rejected (faster, %s samples/s): %s — %s%s",
			units.Rate(r.Throughput), describe(r), r.Verdict.Text, screened(r)))
		n++
	}
	switch more := len(res.Rejected) - n; {
	case more == 1:
		out = append(out, "… and 1 more faster configuration that does not fit")
	case more > 1:
		out = append(out, fmt.Sprintf("… and %d more faster configurations that do not fit", more))
	}
	return out
}

func describe(c Candidate) string {
	s := fmt.Sprintf("%s, checkpoint %s, micro-batch %d × accum %d", c.Precision, c.Checkpoint, c.MicroBatch, c.Accum)
	if c.ChannelsLast {
		s += ", channels-last"
	}
	if c.Strategy != "none" {
		s += ", " + c.Strategy
	}
	if c.Spec.Parallel.Init == "meta" {
		s += " from the meta device"
	}
	return s
}

// screened marks a candidate whose memory was screened (allocated memory
// and a typical allocator overhead) rather than replayed through the
// allocator: its figure is rougher than its band says.
func screened(c Candidate) string {
	if c.Exact {
		return ""
	}
	return " (screened, not replayed)"
}

// groups names the tensor- and pipeline-parallel degrees the candidates
// carry, which divide the GPUs into fewer replicas ("" for none).
func groups(res *FitResult) string {
	var g []string
	if res.TP > 1 {
		g = append(g, fmt.Sprintf("tp %d", res.TP))
	}
	if res.PP > 1 {
		g = append(g, fmt.Sprintf("pp %d", res.PP))
	}
	if len(g) == 0 {
		return ""
	}
	if dp := DataParallel(memmodel.Parallel{GPUs: res.GPUs, TP: res.TP, PP: res.PP}); dp > 1 {
		return fmt.Sprintf(" in %d replicas of %s", dp, strings.Join(g, ", "))
	}
	return " in one replica of " + strings.Join(g, ", ")
}

// hostNote is the search line's word on a host_scale its step times
// were priced with ("" for the median lent host's).
func hostNote(res *FitResult) string {
	if res.HostScale == 0 {
		return ""
	}
	return fmt.Sprintf(", host prices x%.3g (host_scale)", res.HostScale)
}

// WriteFitText renders a FitResult for people.
func WriteFitText(w io.Writer, res *FitResult) {
	fmt.Fprintf(w, "searched %d configurations for global batch %d on %d × %s%s (budget %s)%s\n\n",
		res.Searched, res.GlobalBatch, res.GPUs, res.GPU, groups(res), units.Bytes(res.Budget), hostNote(res))
	b := res.Best
	fmt.Fprintf(w, "best: %s\n  %s (headroom %s)%s\n  step %.3f s, %s samples/s\n",
		describe(*b), b.Verdict.Text, units.Bytes(b.Verdict.Headroom), screened(*b), b.StepTime, units.Rate(b.Throughput))
	if res.AllowanceBasis != "" {
		fmt.Fprintf(w, "  process memory includes an allowance for untraced allocations (%s)\n", res.AllowanceBasis)
	}
	fmt.Fprintln(w)
	for _, e := range res.Explanation {
		fmt.Fprintln(w, e)
	}
	shown := res.Feasible[:min(len(res.Feasible), 8)]
	width, rough := len("configuration"), false
	for _, c := range shown {
		width = max(width, len([]rune(describe(c))))
		rough = rough || !c.Exact
	}
	fmt.Fprintf(w, "\nfeasible, fastest first:\n")
	fmt.Fprintf(w, "  %-*s %11s  %9s  %18s\n", width, "configuration", "at most", "step", "throughput")
	for _, c := range shown {
		mark := " "
		if !c.Exact {
			mark = "≈"
		}
		fmt.Fprintf(w, "  %-*s %s%10s  %7.3f s  %8s samples/s\n", width, describe(c), mark, units.Bytes(c.ProcessHi), c.StepTime, units.Rate(c.Throughput))
	}
	if n := len(res.Feasible) - len(shown); n > 0 {
		fmt.Fprintf(w, "  … %d more\n", n)
	}
	if rough {
		fmt.Fprintf(w, "  at most: the process band's top at %.0f%% confidence; ≈ screened on allocated memory with a typical allocator overhead, not replayed (plan one alone to replay it)\n",
			100*res.Best.Verdict.Confidence)
	}
}

// layoutLine says which memory format the best candidate runs and how
// much faster it is than the fastest fitting one in the other format.
func layoutLine(res *FitResult) string {
	b := res.Best
	var other *Candidate
	for i := range res.Feasible {
		c := &res.Feasible[i]
		if c.ChannelsLast != b.ChannelsLast && (other == nil || c.StepTime < other.StepTime) {
			other = c
		}
	}
	name, otherName := "NCHW (torchvision's default)", "channels-last"
	if b.ChannelsLast {
		name, otherName = "channels-last (model.to(memory_format=torch.channels_last), and each batch likewise)", "NCHW"
	}
	if other == nil || b.StepTime <= 0 {
		return "memory format: " + name
	}
	return fmt.Sprintf("memory format: %s — the fastest %s candidate that fits is predicted %.0f%% slower", name, otherName,
		100*(other.StepTime/b.StepTime-1))
}

// tieMargin is how close (relative step time) a runner-up may be predicted
// before the choice is called a near-tie: the median error of a step-time
// prediction at first sight (bench/bands: 5.0% over 466 blind steps).
const tieMargin = 0.05

// nearTie names the fastest feasible candidate of another precision,
// memory format or checkpointing when it is predicted within tieMargin of
// the best: pick9's EfficientNet-B2 bf16 and fp16 channels-last candidates
// were predicted 0.6% apart and ran 10.7% apart the other way. "" when
// none is.
func nearTie(res *FitResult) string {
	b := res.Best
	if b.StepTime <= 0 {
		return ""
	}
	for _, c := range res.Feasible {
		if c.Precision == b.Precision && c.ChannelsLast == b.ChannelsLast && c.Checkpoint == b.Checkpoint {
			continue
		}
		m := c.StepTime/b.StepTime - 1
		if m > tieMargin {
			return ""
		}
		return fmt.Sprintf("near-tie: %s is predicted only %.1f%% slower, within the median first-sight step-time error (%.0f%%): time both if it matters",
			describe(c), 100*m, 100*tieMargin)
	}
	return ""
}

// ampMargin says, for a bf16-base LoRA choice, how much slower the
// fastest AMP candidate that fits is predicted to be, and how far that
// margin can be trusted: timed on an H200, bf16-base LoRA steps ran 3-5%
// slower than predicted where their AMP twins came within 1% (Llama 3.2 3B,
// Qwen3-4B, Phi-3 mini; testdata/late19, pick8), and on Phi-3 mini, whose
// fused qkv_proj carries a 9216-wide float32 adapter, AMP ran 2.6% faster
// than the bf16 base predicted 3.4% faster. "" when no AMP candidate fits.
func ampMargin(res *FitResult) string {
	var amp *Candidate
	for i := range res.Feasible {
		c := &res.Feasible[i]
		if (c.Precision == "bf16-amp" || c.Precision == "fp16-amp") && (amp == nil || c.StepTime < amp.StepTime) {
			amp = c
		}
	}
	if amp == nil || res.Best.StepTime <= 0 {
		return ""
	}
	m := amp.StepTime/res.Best.StepTime - 1
	if m >= 1 {
		return fmt.Sprintf("; the fastest AMP candidate is predicted %.1fx as slow", 1+m)
	}
	if m >= 0.05 {
		return fmt.Sprintf("; the fastest AMP candidate is predicted %.1f%% slower", 100*m)
	}
	return fmt.Sprintf("; the fastest AMP candidate is predicted only %.1f%% slower, within what this choice has been measured to miss by (bf16-base LoRA steps ran 3-5%% slower than predicted on an H200): time both if it matters", 100*m)
}

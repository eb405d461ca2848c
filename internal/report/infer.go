package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/vramkit/vramkit/internal/infer"
	"github.com/vramkit/vramkit/internal/memmodel"
	"github.com/vramkit/vramkit/internal/units"
)

func inferBand(b memmodel.Band) string { return units.Bytes(b.Low) + " – " + units.Bytes(b.High) }

// InferText prints a `plan --task generate` prediction: memory with its
// bands, the KV cache, prefill and decode speed with what bounds decoding,
// the verdict and the breakdown at the peak.
func InferText(w io.Writer, r *infer.Result) {
	fmt.Fprintf(w, "generate: %s (%s params) on %s\n", r.Model, count(r.Params), r.GPU)
	input := fmt.Sprintf("prompt %d tokens", r.Prompt)
	if r.Input != "" {
		input = r.Input
	}
	batch := fmt.Sprint(r.Batch)
	if r.Beams > 1 {
		batch = fmt.Sprintf("%d × %d beams", r.Batch, r.Beams)
	}
	if r.ReturnSequences > 1 {
		batch = fmt.Sprintf("%d × %d sequences", r.Batch, r.ReturnSequences)
	}
	fmt.Fprintf(w, "  batch %s, %s, %d new tokens, weights %s (compute %s), KV cache %s %s, attention %s\n",
		batch, input, r.NewTokens, r.Precision, r.ComputeDType, r.Cache, r.KVDType, r.Attention)
	if r.Decoding != "" && r.Decoding != "greedy" && r.Beams <= 1 {
		fmt.Fprintf(w, "  decoding %s\n", r.Decoding)
	}
	// the bands' confidence on each, as a training plan prints it
	pct := fmt.Sprintf(", %.0f%%", 100*r.Confidence)
	fmt.Fprintf(w, "\npeak allocated  %10s   (%s%s)\n", units.Bytes(r.PeakAllocated), inferBand(r.AllocatedBand), pct)
	fmt.Fprintf(w, "peak reserved   %10s   (%s%s)\n", units.Bytes(r.PeakReserved), inferBand(r.ReservedBand), pct)
	allowanceLine(w, r.ReservedAllowance, r.ModelReserved, r.ReservedAllowanceBasis)
	fmt.Fprintf(w, "process (smi)   %10s   (%s%s), CUDA context ≈ %s\n", units.Bytes(r.Process), inferBand(r.ProcessBand), pct, units.Bytes(r.Context))
	fmt.Fprintf(w, "weights         %10s\n", units.Bytes(r.Weights))
	fmt.Fprintf(w, "KV cache        %10s   at the end of generation\n", units.Bytes(r.KVCache))
	fmt.Fprintf(w, "prefill         %10.4f s (%.4f – %.4f s)\n", r.PrefillTime, r.PrefillBand[0], r.PrefillBand[1])
	if r.DecodeStep > 0 {
		// the bytes read in decimal GB, as the bandwidth and the decode
		// note give them ("20.5 GiB read" beside "reads 22.05 GB" read as
		// two figures)
		samp := ""
		if r.SamplerStep > 0 {
			samp = fmt.Sprintf(" (sampling %.2f ms of it)", 1e3*r.SamplerStep)
		}
		// the other side's price says how near the bound switches
		other := fmt.Sprintf("GPU %.2f ms", 1e3*r.DecodeGPU)
		if r.DecodeBound != "host" {
			other = fmt.Sprintf("host %.2f ms", 1e3*r.DecodeHost)
		}
		fmt.Fprintf(w, "decode          %10.1f tokens/s (%.1f – %.1f), %.2f ms per step%s, %s-bound (%s; %.2f GB read per step at %.0f GB/s)\n",
			r.DecodeTokensPerSec, r.DecodeBand[0], r.DecodeBand[1], 1e3*r.DecodeStep, samp, r.DecodeBound, other, float64(r.DecodeRead)/1e9, r.BandwidthGBps)
	}
	fmt.Fprintf(w, "generate        %10.3f s\n", r.TotalTime)
	if len(r.BandClasses) > 0 {
		fmt.Fprintf(w, "bands at %.0f%% from measured error of: %s\n", 100*r.Confidence, strings.Join(r.BandClasses, ", "))
	}
	// one decision (memmodel.Decide) on the process band's top: the
	// headroom is the capacity less that top
	fmt.Fprintf(w, "%s (headroom %s)\n", r.Verdict.Text, units.Bytes(r.Headroom))
	at := r.PeakPhase
	if r.PeakPhase == "decode" {
		at = fmt.Sprintf("decode step %d", r.PeakStep)
	}
	fmt.Fprintf(w, "\nbreakdown at peak (%s):\n", at)
	keys := make([]string, 0, len(r.Breakdown))
	for k := range r.Breakdown {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if r.Breakdown[keys[i]] != r.Breakdown[keys[j]] {
			return r.Breakdown[keys[i]] > r.Breakdown[keys[j]]
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		fmt.Fprintf(w, "  %-20s %10s\n", k, units.Bytes(r.Breakdown[k]))
	}
	if len(r.Alternatives) > 0 {
		why := ""
		if r.Cache == "dynamic" {
			why = " (a DynamicCache grows every layer's K and V by torch.cat each token: the shorter blocks it frees fit no later request)"
		}
		head := fmt.Sprintf("the allocator holds %s beyond the tensors at the peak%s; ", units.Bytes(r.PeakReserved-r.PeakAllocated), why)
		if !allocatorChange(r.Alternatives) {
			head = "" // only decoding changes (output_scores, top_p): the overhead is not why
		}
		fmt.Fprintf(w, "\n%sreplayed with one change:\n", head)
		for _, a := range r.Alternatives {
			fmt.Fprintf(w, "  %-48s process %10s (%s), saves %s\n", a.Change, units.Bytes(a.Process), inferBand(a.ProcessBand), units.Bytes(a.Saving))
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

// ServeText prints a `plan --task serve` capacity: the memory budget cut
// the way the vLLM version cuts it, the blocks, the concurrency, each
// with the range of the parts vramkit does not compute exactly.
func ServeText(w io.Writer, r *infer.ServeResult) {
	weights := r.Precision
	if r.Quant != "" {
		weights = r.Quant + " (compute " + r.Precision + ")"
	}
	fmt.Fprintf(w, "serve (vLLM paged KV cache): %s (%s params) on %s, weights %s, KV cache %s\n",
		r.Model, count(r.Params), r.GPU, weights, r.KVDType)
	entry, graphs := "vllm serve", "CUDA graphs"
	if r.Entry == "llm" {
		entry = "LLM class"
	}
	if r.EnforceEager {
		graphs = "enforce_eager"
	}
	switch {
	case r.PP > 1:
		graphs += fmt.Sprintf(", tensor_parallel_size %d, pipeline_parallel_size %d (every figure below is one GPU's of stage %d, the one that binds)", r.TP, r.PP, r.Stage)
	case r.TP > 1:
		graphs += fmt.Sprintf(", tensor_parallel_size %d (every figure below is one GPU's)", r.TP)
	}
	fmt.Fprintf(w, "  %s, %s, %s; gpu_memory_utilization %.2f, block_size %d, max_num_seqs %d, max_num_batched_tokens %d\n\n",
		r.Engine, entry, graphs, r.Utilization, r.BlockSize, r.MaxNumSeqs, r.MaxNumBatchedTokens)
	fmt.Fprintf(w, "total GPU memory      %10s\n", units.Bytes(r.Total))
	fmt.Fprintf(w, "usable (× %.2f)       %10s\n", r.Utilization, units.Bytes(r.Requested))
	if r.WeightsLow < r.WeightsHigh {
		fmt.Fprintf(w, "  weights             %10s   (%s – %s: the quantised layout as the version repacks it)\n",
			units.Bytes(r.Weights), units.Bytes(r.WeightsLow), units.Bytes(r.WeightsHigh))
	} else {
		fmt.Fprintf(w, "  weights             %10s\n", units.Bytes(r.Weights))
	}
	if r.ActivationLow < r.ActivationHigh {
		fmt.Fprintf(w, "  activation peak     %10s   (%s – %s: the sampler's top-k/top-p in kernels or in PyTorch's sort)\n",
			units.Bytes(r.Activation), units.Bytes(r.ActivationLow), units.Bytes(r.ActivationHigh))
	} else {
		fmt.Fprintf(w, "  activation peak     %10s\n", units.Bytes(r.Activation))
	}
	if r.Process > r.Requested+r.CUDAGraphs && r.NonTorch < r.Process-r.Requested {
		fmt.Fprintf(w, "  non-torch memory    %10s   (what grows after start-up; the CUDA context is outside the budget)\n", units.Bytes(r.NonTorch))
	} else {
		fmt.Fprintf(w, "  non-torch memory    %10s   (CUDA context and workspaces)\n", units.Bytes(r.NonTorch))
	}
	if r.CUDAGraphs > 0 {
		fmt.Fprintf(w, "  CUDA graphs         %10s   (vLLM's estimate, charged to the budget)\n", units.Bytes(r.CUDAGraphs))
	}
	if r.KVCache > 0 {
		fmt.Fprintf(w, "  KV cache            %10s   (%s – %s)\n", units.Bytes(r.KVCache), units.Bytes(max(r.KVCacheLow, 0)), units.Bytes(r.KVCacheHigh))
	} else {
		fmt.Fprintf(w, "  KV cache            %10s   (the rest is short by %s)\n", "none", units.Bytes(r.KVShort))
	}
	fmt.Fprintf(w, "\n# GPU blocks          %10d   (%s each)\n", r.Blocks, units.Bytes(r.BlockBytes))
	fmt.Fprintf(w, "KV cache tokens       %10d   (%d – %d)\n", r.Tokens, r.TokensLow, r.TokensHigh)
	if r.TP > 1 {
		fmt.Fprintf(w, "                                 each GPU holds %d of the %d KV heads of every token\n", r.KVHeads, r.KVHeadsTotal)
	}
	fmt.Fprintf(w, "max concurrency       %10.2fx  sequences of %d tokens (%.2f – %.2f)\n", r.MaxConcurrent, r.Context,
		r.ConcurrencyLow, r.ConcurrencyHigh)
	if r.Fits {
		fmt.Fprintf(w, "process (smi)         %10s   under load: the budget and what lies outside it\n", units.Bytes(r.Process))
	} else {
		// a server that does not start holds nothing under load
		fmt.Fprintf(w, "process (smi)         %10s   if it started: vLLM refuses to (below)\n", units.Bytes(r.Process))
	}
	if r.Verdict != "" {
		fmt.Fprintln(w, r.Verdict)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

// ServeFitText prints a `plan --task serve --fit` answer: each
// tensor-parallel degree tried, what its cache holds, and the first that
// holds the sequences asked for at the band's low end.
func ServeFitText(w io.Writer, r *infer.ServeFitResult) {
	switch {
	case len(r.Tried) > 0 && r.Tried[0].KVGroups > 1:
		// sliding-window groups hold a sequence in fewer tokens: judged
		// on each plan's concurrency, which the rows print
		fmt.Fprintf(w, "%s on %s, %s: %d sequences of %d tokens at once (held at the band's low end)\n",
			r.Tried[0].Model, r.Tried[0].GPU, r.Tried[0].Engine, r.Concurrency, r.Context)
	case len(r.Tried) > 0:
		fmt.Fprintf(w, "%s on %s, %s: %d sequences of %d tokens need %d KV-cache tokens (held at the band's low end)\n",
			r.Tried[0].Model, r.Tried[0].GPU, r.Tried[0].Engine, r.Concurrency, r.Context, r.Need)
	}
	for _, t := range r.Tried {
		hold := "does not hold them"
		if t.ConcurrencyLow >= float64(r.Concurrency) {
			hold = "holds them"
		}
		if !t.Fits {
			hold = "vLLM refuses to start"
		}
		deg := fmt.Sprintf("tp %-2d", t.TP)
		if t.PP > 1 {
			deg = fmt.Sprintf("tp %d × pp %d", t.TP, t.PP)
		}
		fmt.Fprintf(w, "  %s  weights %10s a GPU, KV cache %8d tokens (%d – %d), %.1f – %.1f sequences: %s\n",
			deg, units.Bytes(t.Weights), t.Tokens, t.TokensLow, t.TokensHigh,
			t.ConcurrencyLow, t.ConcurrencyHigh, hold)
	}
	for _, x := range r.Refused {
		fmt.Fprintf(w, "  %s\n", x)
	}
	if r.Best != nil {
		if r.Best.PP > 1 {
			fmt.Fprintf(w, "fewest GPUs: tp %d × pp %d (%d × %s)\n", r.Best.TP, r.Best.PP, r.Best.TP*r.Best.PP, r.Best.GPU)
		} else {
			fmt.Fprintf(w, "fewest GPUs: tp %d (%d × %s)\n", r.Best.TP, r.Best.TP, r.Best.GPU)
		}
	}
}

// InferFitText prints a `plan --task generate --fit` answer and the
// prediction just above it.
func InferFitText(w io.Writer, r *infer.FitResult) {
	b := r.Best
	// a prompt is counted in tokens; a batch in sequences
	beams := ""
	if b.Beams > 1 {
		beams = fmt.Sprintf(", %d beams a prompt", b.Beams)
	}
	if b.ReturnSequences > 1 {
		beams = fmt.Sprintf(", %d sequences sampled a prompt", b.ReturnSequences)
	}
	what, unit := "batch", fmt.Sprintf(" (prompt %d tokens, %d new%s)", b.Prompt, b.NewTokens, beams)
	if r.Maximize == "seq" {
		what, unit = "prompt", fmt.Sprintf(" tokens (batch %d, %d new%s)", b.Batch, b.NewTokens, beams)
	}
	budget := "budget " + units.Bytes(r.Budget)
	if r.Margin > 0 {
		budget = fmt.Sprintf("%.0f%% kept free, budget %s", 100*r.Margin, units.Bytes(r.Budget))
	}
	if r.Bound != "" {
		// memory did not stop the search: the value is not the most the
		// GPU holds
		fmt.Fprintf(w, "largest %s planned on %s (%s): %d%s — memory does not bound it (%s)\n",
			what, b.GPU, budget, r.Value, unit, r.Bound)
	} else {
		fmt.Fprintf(w, "largest %s that fits %s (%s): %d%s\n", what, b.GPU, budget, r.Value, unit)
	}
	decode := ""
	if b.NewTokens > 0 {
		decode = fmt.Sprintf(", decode %.0f tokens/s", b.DecodeTokensPerSec)
		if b.HostScale != 0 {
			decode += fmt.Sprintf(" (host prices x%.3g, host_scale)", b.HostScale)
		}
	}
	fmt.Fprintf(w, "  at %d: peak reserved %s, process %s (%s)%s\n",
		r.Value, units.Bytes(b.PeakReserved), units.Bytes(b.Process), inferBand(b.ProcessBand), decode)
	if b.ReservedAllowance > 0 {
		fmt.Fprintf(w, "  peak reserved includes %s allowance for untraced allocations (%s)\n", units.Bytes(b.ReservedAllowance), b.ReservedAllowanceBasis)
	}
	fmt.Fprintf(w, "  %s (headroom %s)\n", r.Verdict.Text, units.Bytes(r.Verdict.Headroom))
	if n := r.Next; n != nil {
		v := n.Batch
		if r.Maximize == "seq" {
			v = n.Prompt
		}
		nv := memmodel.Decide(n.Process, n.ProcessBand.High, r.Budget, n.Confidence, "")
		fmt.Fprintf(w, "  at %d: %s\n", v, nv.Text)
	}
	fmt.Fprintf(w, "  (%d predictions)\n", r.Probes)
}

// allocatorChange reports whether an alternative changes how the
// allocator meets the call's requests (the cache's layout, the allocator
// settings), which the overhead sentence explains.
func allocatorChange(alts []infer.Alternative) bool {
	for _, a := range alts {
		if _, ok := a.Spec["cache"]; ok {
			return true
		}
		if _, ok := a.Spec["alloc_conf"]; ok {
			return true
		}
	}
	return false
}

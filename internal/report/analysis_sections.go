package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/units"
)

func printOOM(w io.Writer, d *analyze.Device) {
	o := d.OOM
	if o == nil {
		return
	}
	b := units.Bytes
	fmt.Fprintf(w, "\nOut of memory in %s, trace event %d\n", when(o.At), o.TraceEvent)
	fmt.Fprintf(w, "  requested    %10s\n", b(o.Requested))
	fmt.Fprintf(w, "  allocated    %10s  held by live tensors\n", b(o.Allocated))
	fmt.Fprintf(w, "  reserved     %10s  of which %s cached but unused\n", b(o.Reserved), b(o.CachedFree))
	fmt.Fprintf(w, "  device free  %10s  free on the GPU outside this process's cache\n", b(o.DeviceFree))
	fmt.Fprintf(w, "  cause: %s — %s\n", CauseName(o.Cause), o.Explain)
	if fs := o.FirstStep; fs != nil {
		fmt.Fprintf(w, "  the first forward pass did not fit: the batch's activations are what grows\n")
		fmt.Fprintf(w, "    fixed (weights, workspaces)   %10s\n", b(fs.FixedBytes))
		fmt.Fprintf(w, "    activations when it failed    %10s  after %.1f of %d repeated blocks\n", b(fs.ActivationsSoFar), fs.BlocksDone, fs.Blocks)
		bound := "estimate, extrapolated over the blocks still to run"
		if fs.LowerBound {
			bound = "a lower bound: no repeated blocks to extrapolate from"
		}
		fmt.Fprintf(w, "    whole forward pass            %10s  %s\n", b(fs.Activations), bound)
		if fs.PerSample > 0 {
			fmt.Fprintf(w, "    per sample                    %10s  at batch %d\n", b(fs.PerSample), fs.Batch)
		}
		fmt.Fprintf(w, "    optimizer state to come       %10s  assumed AdamW (two fp32 moments per weight)\n", b(fs.StateBytes))
		fmt.Fprintf(w, "    the process may use           %10s\n", b(fs.UsableBytes))
		if fs.LargestBatch > 0 {
			fmt.Fprintf(w, "    largest batch that fits       %10d  (%.0f%% of %d, with 10%% headroom)\n", fs.LargestBatch, 100*fs.FitShare, fs.Batch)
		} else {
			fmt.Fprintf(w, "    share of the batch that fits  %9.0f%%  (pass --batch to get batch sizes)\n", 100*fs.FitShare)
		}
	}
	fmt.Fprintf(w, "  biggest holders at that moment:\n")
	for _, s := range o.Holders {
		fmt.Fprintf(w, "  %10s  %s in %s  %s\n", b(s.Bytes), tensors(s.Count), catName(s.Category), SiteString(s.Frames, s.Label))
	}
}

func printGeneration(w io.Writer, g *analyze.Generation) {
	if g == nil {
		return
	}
	b := units.Bytes
	fmt.Fprintf(w, "\nGeneration (inference: no backward pass)\n")
	fmt.Fprintf(w, "  prefill passes  %10d  peak %s (the prompt's activations and logits)\n", g.Calls, b(g.PrefillPeak))
	fmt.Fprintf(w, "  decode steps    %10d  peak %s\n", g.DecodeSteps, b(g.DecodePeak))
	kind := fmt.Sprintf("dynamic: grows %s per decode step", b(g.KVGrowthPerStep))
	if g.KVPerToken > 0 {
		kind += fmt.Sprintf(" (%s per token of each sequence)", b(g.KVPerToken))
	}
	if g.StaticCache {
		kind = "static: allocated once at full length"
	}
	fmt.Fprintf(w, "  KV cache        %10s  at most; %s\n", b(g.KVCacheMax), kind)
	if g.BeamSearch {
		fmt.Fprintf(w, "  beam search: the cache holds num_beams sequences a prompt, and each step copies it to the chosen beams (reorder_cache); greedy search (num_beams=1) holds one sequence a prompt\n")
	}
	if g.Processors > 0 {
		chain := "temperature, top-k or min-p: no warper sorted the scores"
		if g.ProcessorsSort {
			chain = "top-p or typical-p sorted them: values, int64 indices and the sort's buffers"
		}
		fmt.Fprintf(w, "  logits processors %8s  at the peak: the warpers' float32 copies of the batch × vocab scores (%s)\n", b(g.Processors), chain)
	}
	if g.KeptScores > 0 {
		fmt.Fprintf(w, "  kept scores   %10s  at the peak: %d float32 batch × vocab score tensors from earlier steps that generate's output keeps (output_scores / output_logits)\n", b(g.KeptScores), g.KeptScoresTensors)
	}
	if g.PeakIn == "load" {
		fmt.Fprintf(w, "  the peak is while the model loads (%s), before the first forward pass, above anything generation does\n", b(g.LoadPeak))
	} else {
		fmt.Fprintf(w, "  the peak is in %s, with %s of KV cache alive\n", g.PeakIn, b(g.PeakKVCache))
	}
}

func printTraits(w io.Writer, t analyze.Traits) {
	training := t.TrainingNote
	if t.Training != nil {
		training = yesNo(*t.Training)
	}
	if t.Inference {
		training = "no: inference (generation with a KV cache)"
	}
	prec := map[string]string{analyze.PrecisionAMP: "mixed (autocast over fp32 weights)",
		analyze.PrecisionAMPFP16:   "mixed (fp16 autocast over fp32 weights, GradScaler)",
		analyze.PrecisionFSDPMixed: "mixed (FSDP MixedPrecisionPolicy over fp32 shards)",
		analyze.PrecisionHalf:      "half-precision weights (no autocast, no fp32 master copy)",
		analyze.PrecisionFP32:      "fp32", analyze.PrecisionUnknown: "fp32 or half-precision weights (not told apart)"}[t.Precision]
	if prec == "" {
		prec = t.Precision
	}
	if t.PrecisionEvidence != "" {
		prec += ": " + t.PrecisionEvidence
	}
	fmt.Fprintf(w, "\nWhat the trace shows about the run\n")
	fmt.Fprintf(w, "  training                  %s\n", training)
	fmt.Fprintf(w, "  precision                 %s\n", prec)
	fmt.Fprintf(w, "  activation checkpointing  %s\n", yesNo(t.Checkpointing))
	if len(t.Sharding) > 0 {
		sh := strings.Join(t.Sharding, ", ")
		switch {
		case t.WorldSize == 1:
			sh += " on one rank"
		case t.WorldSize > 1:
			sh += fmt.Sprintf(" over %d ranks", t.WorldSize)
		}
		fmt.Fprintf(w, "  parallelism               %s\n", sh)
	}
	fmt.Fprintf(w, "  optimizer                 %s\n", t.Optimizer)
}

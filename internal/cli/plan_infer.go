package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/vramkit/vramkit/internal/infer"
	"github.com/vramkit/vramkit/internal/memmodel"
	"github.com/vramkit/vramkit/internal/report"
)

// inferFlags are plan's flags for --task generate|serve.
type inferFlags struct {
	task, kvDType, cache, maximize              string
	vllm, entry                                 string
	eager, skipMM                               bool
	newTokens, blockSize, maxSeqs, maxTokens    int
	context, maxCacheLen, concurrency, numBeams int
	maxLoraRank, maxLoras, images               int
	util                                        float64
	// sampling: do_sample and its warpers, repetition_penalty,
	// num_return_sequences
	doSample, outScores, outLogits bool
	topK, returns                  int
	topP, temp, repetPen, minP     float64
}

func (f *inferFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.task, "task", "", "generate|serve to plan inference (default: training)")
	fs.IntVar(&f.newTokens, "new-tokens", 0, "generate: tokens produced after the --seq-token prompt")
	fs.StringVar(&f.kvDType, "kv-dtype", "", "generate/serve: KV-cache dtype (default: the model dtype; fp8)")
	fs.StringVar(&f.cache, "cache", "", "generate: dynamic (DynamicCache) | static (StaticCache)")
	fs.IntVar(&f.maxCacheLen, "max-cache-len", 0, "generate: a StaticCache this long if the call needs less (generation_config.max_cache_len, or an earlier longer static generate on the same model)")
	fs.IntVar(&f.numBeams, "num-beams", 0, "generate: beam search over this many beams a prompt (generation_config's num_beams; default 1, greedy)")
	fs.BoolVar(&f.doSample, "do-sample", false, "generate: sample the next token (do_sample; an instruct checkpoint's generation_config often sets it) instead of greedy argmax")
	fs.IntVar(&f.topK, "top-k", 0, "generate --do-sample: TopKLogitsWarper's k (default 50, transformers'; 0 turns it off)")
	fs.Float64Var(&f.topP, "top-p", 0, "generate --do-sample: TopPLogitsWarper's p, in (0, 1] (default 1, off; it sorts the batch × vocab scores)")
	fs.Float64Var(&f.temp, "temperature", 0, "generate --do-sample: TemperatureLogitsWarper's temperature (default 1, off)")
	fs.Float64Var(&f.minP, "min-p", 0, "generate --do-sample: MinPLogitsWarper's min_p, in (0, 1] (default off; tokens below min_p times the top token's probability are dropped)")
	fs.Float64Var(&f.repetPen, "repetition-penalty", 0, "generate: RepetitionPenaltyLogitsProcessor's penalty (default 1, off)")
	fs.IntVar(&f.returns, "num-return-sequences", 0, "generate --do-sample: sequences drawn a prompt (num_return_sequences; each input expanded as many times)")
	fs.BoolVar(&f.outScores, "output-scores", false, "generate: return_dict_in_generate with output_scores (every step's processed float32 scores kept in the output)")
	fs.BoolVar(&f.outLogits, "output-logits", false, "generate: return_dict_in_generate with output_logits (every step's float32 logits kept in the output)")
	fs.StringVar(&f.maximize, "maximize", "batch", "generate --fit: batch | seq")
	fs.Float64Var(&f.util, "gpu-memory-utilization", 0, "serve: vLLM's fraction of GPU memory (default: vLLM's, 0.92 from 0.21, 0.9 before)")
	fs.IntVar(&f.blockSize, "block-size", 0, "serve: tokens per KV block (default 16)")
	fs.IntVar(&f.maxSeqs, "max-num-seqs", 0, "serve: vLLM max_num_seqs (default: vLLM's for the version, entry point and GPU)")
	fs.IntVar(&f.maxTokens, "max-num-batched-tokens", 0, "serve: tokens of the profiled forward (default: vLLM's for the version, entry point and GPU)")
	fs.StringVar(&f.vllm, "vllm", "", "serve: the vLLM version whose sizing to follow (default: the newest vramkit has read, 0.31; 0.6.5 for the V0 engine)")
	fs.StringVar(&f.entry, "entry", "", "serve: serve (vllm serve, default) | llm (the LLM class): vLLM's batch defaults differ")
	fs.BoolVar(&f.eager, "enforce-eager", false, "serve: vLLM's --enforce-eager (no CUDA graphs)")
	fs.IntVar(&f.maxLoraRank, "max-lora-rank", 0, "serve: vLLM's --enable-lora with this --max-lora-rank (its adapter slots load with the weights)")
	fs.IntVar(&f.maxLoras, "max-loras", 0, "serve: vLLM's --max-loras, adapters held on the GPU at once (default 1; with --max-lora-rank)")
	fs.IntVar(&f.images, "images-per-prompt", 0, "serve: a multimodal checkpoint's image limit, vLLM's --limit-mm-per-prompt '{\"image\":N}' (0: the language model alone, --language-model-only)")
	fs.BoolVar(&f.skipMM, "skip-mm-profiling", false, "serve: vLLM's --skip-mm-profiling (the image encoder's pass left out of the budget)")
	fs.IntVar(&f.concurrency, "concurrency", 0, "serve --fit: sequences of --context tokens the KV cache must hold at once (finds the fewest tensor-parallel GPUs)")
	fs.IntVar(&f.context, "context", 0, "serve: per-sequence context length for concurrency (vLLM max_model_len; default --seq or the model's own length, as vLLM's)")
}

// apply lays the explicitly set inference flags over spec. A count or a
// fraction given as 0 is refused: in a spec 0 means vLLM's or the
// family's default, which the flag left out gives.
func (f *inferFlags) apply(fs *flag.FlagSet, spec *memmodel.Spec) error {
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if set["task"] {
		t := f.task
		if t != "generate" && t != "serve" {
			// a training plan is the default: "train" reached the
			// spec's head task and was refused as a causal-lm model's
			return usagef("--task: want generate or serve (leave it out to plan training), got %q", t)
		}
		spec.Task = &t
	}
	if spec.Inference() && !set["precision"] && !set["spec"] {
		// the training default (fp32) is not what inference loads
		spec.Precision = "auto"
	}
	strs := map[string]*string{"kv-dtype": &spec.KVDType, "cache": &spec.Cache, "vllm": &spec.VLLM, "entry": &spec.Entry}
	svals := map[string]string{"kv-dtype": f.kvDType, "cache": f.cache, "vllm": f.vllm, "entry": f.entry}
	for k, p := range strs {
		if set[k] {
			*p = svals[k]
		}
	}
	ints := map[string]*int{"new-tokens": &spec.NewTokens, "block-size": &spec.BlockSize, "max-num-seqs": &spec.MaxNumSeqs,
		"max-num-batched-tokens": &spec.MaxNumBatchedTokens, "context": &spec.Context, "max-cache-len": &spec.MaxCacheLen, "num-beams": &spec.NumBeams,
		"max-lora-rank": &spec.MaxLoraRank, "max-loras": &spec.MaxLoras}
	ivals := map[string]int{"new-tokens": f.newTokens, "block-size": f.blockSize, "max-num-seqs": f.maxSeqs,
		"max-num-batched-tokens": f.maxTokens, "context": f.context, "max-cache-len": f.maxCacheLen, "num-beams": f.numBeams,
		"max-lora-rank": f.maxLoraRank, "max-loras": f.maxLoras}
	for k, p := range ints {
		if !set[k] {
			continue
		}
		if ivals[k] < 1 && k != "new-tokens" {
			return usagef("--%s must be at least 1, got %d (leave it out for the default)", k, ivals[k])
		}
		*p = ivals[k]
	}
	if err := f.applySampling(set, spec); err != nil {
		return err
	}
	if set["enforce-eager"] {
		spec.EnforceEager = f.eager
	}
	if set["skip-mm-profiling"] {
		spec.SkipMMProfiling = f.skipMM
	}
	if set["images-per-prompt"] {
		if f.images < 0 {
			return usagef("--images-per-prompt must be 0 or more, got %d", f.images)
		}
		n := f.images
		spec.ImagesPerPrompt = &n
	}
	if set["gpu-memory-utilization"] {
		if !(f.util > 0 && f.util <= 1) { // NaN too
			return usagef("--gpu-memory-utilization must be in (0, 1], got %g", f.util)
		}
		spec.GPUMemoryUtilization = f.util
	}
	return nil
}

// applySampling lays the decoding flags over spec; the planner checks
// their ranges and combinations, as it does a spec file's.
func (f *inferFlags) applySampling(set map[string]bool, spec *memmodel.Spec) error {
	if set["do-sample"] {
		spec.DoSample = f.doSample
	}
	if set["output-scores"] {
		spec.OutputScores = f.outScores
	}
	if set["output-logits"] {
		spec.OutputLogits = f.outLogits
	}
	if set["top-k"] {
		k := f.topK
		spec.TopK = &k
	}
	floats := []struct {
		name string
		v    float64
		to   *float64
	}{{"top-p", f.topP, &spec.TopP}, {"temperature", f.temp, &spec.Temperature}, {"repetition-penalty", f.repetPen, &spec.RepetitionPenalty}, {"min-p", f.minP, &spec.MinP}}
	for _, x := range floats {
		if !set[x.name] {
			continue
		}
		if !(x.v > 0) { // NaN too
			return usagef("--%s must be above 0, got %g (leave it out for the default)", x.name, x.v)
		}
		*x.to = x.v
	}
	if set["num-return-sequences"] {
		if f.returns < 1 {
			return usagef("--num-return-sequences must be at least 1, got %d", f.returns)
		}
		spec.NumReturnSequences = f.returns
	}
	return nil
}

// runInference plans --task generate (optionally --fit) or --task serve.
func runInference(ctx context.Context, env *Env, fs *flag.FlagSet, spec memmodel.Spec, f *planFlags, format string) error {
	if format == "html" {
		return usagef("--format html draws a training --sweep; inference plans print as text or json")
	}
	if f.sweep != "" {
		return usagef("--sweep is for training plans")
	}
	notes, err := gpuNotes(spec.GPU)
	if err != nil {
		return err
	}
	if spec.Model != nil && *spec.Model != "" {
		// as a training plan says it: the catalog model an alias names
		if a, err := memmodel.Lookup(*spec.Model); err == nil {
			if n := aliasNote(*spec.Model, a.Name); n != "" {
				notes = append([]string{n}, notes...)
			}
		}
	}
	for _, n := range notes {
		fmt.Fprintf(env.Stderr, "vramkit plan: note: %s\n", n)
	}
	switch *spec.Task {
	case "serve":
		if f.margin > 0 {
			return usagef("--margin is for fit verdicts; vLLM's own budget is --gpu-memory-utilization")
		}
		if err := checkPlanScope(fs, 's', f.fit); err != nil {
			return err
		}
		if f.fit {
			if f.inf.concurrency < 1 {
				return usagef("--task serve --fit needs --concurrency N (the sequences of --context tokens to hold at once)")
			}
			r, err := infer.ServeFit(spec, f.inf.concurrency)
			if r != nil && errors.Is(err, infer.ErrNothingFits) {
				if werr := report.Write(env.Stdout, format, r, func(w io.Writer) error { report.ServeFitText(w, r); return nil }); werr != nil {
					return werr
				}
				return err
			}
			if err != nil {
				return specError(err)
			}
			return report.Write(env.Stdout, format, r, func(w io.Writer) error { report.ServeFitText(w, r); return nil })
		}
		r, err := infer.Serve(spec)
		if err != nil {
			return specError(err)
		}
		return report.Write(env.Stdout, format, r, func(w io.Writer) error { report.ServeText(w, r); return nil })
	}
	if err := checkPlanScope(fs, 'g', f.fit); err != nil {
		return err
	}
	if flagSet(fs, "measured-step") {
		return runCalibrate(ctx, env, spec, f, format)
	}
	if f.fit {
		opts := infer.DefaultFitOptions()
		opts.Maximize, opts.Margin = f.inf.maximize, f.margin
		// the searched key given as a flag was overwritten without a word
		// (--batch 4 answered "largest batch ... 802")
		searched := map[string]string{"batch": "batch", "seq": "seq"}[opts.Maximize]
		if searched != "" && flagSet(fs, searched) {
			return usagef("--%s is what --task generate --fit --maximize %s searches: leave it out, or plan it without --fit", searched, opts.Maximize)
		}
		r, err := infer.Fit(ctx, spec, opts)
		if errors.Is(err, infer.ErrNothingFits) && r != nil && format == "json" {
			// JSON holds the prediction at 1, as a training or serve
			// --fit writes its search; the exit status says nothing fits
			if werr := report.JSON(env.Stdout, r); werr != nil {
				return werr
			}
			return err
		}
		if err != nil {
			return specError(err)
		}
		return report.Write(env.Stdout, format, r, func(w io.Writer) error { report.InferFitText(w, r); return nil })
	}
	r, err := infer.Estimate(spec)
	if err != nil {
		return specError(err)
	}
	if err := infer.Advise(spec, r); err != nil {
		return specError(err)
	}
	if f.margin > 0 {
		// one verdict, against what the margin leaves of the GPU
		r.Verdict = memmodel.DecideWithin(r.Process, r.ProcessBand.High, r.Capacity, f.margin, r.Confidence)
		r.Fits, r.Headroom = r.Verdict.Fits, r.Verdict.Headroom
	}
	return report.Write(env.Stdout, format, r, func(w io.Writer) error { report.InferText(w, r); return nil })
}

// runCalibrate answers --measured-step: the host_scale at which spec's
// step (a generate plan's decode step) is the one the user timed.
func runCalibrate(ctx context.Context, env *Env, spec memmodel.Spec, f *planFlags, format string) error {
	if f.fit || f.sweep != "" {
		return usagef("--measured-step calibrates one configuration: leave out --fit and --sweep")
	}
	if f.margin > 0 || f.byModule {
		// they shape a memory answer the calibration does not print
		return usagef("--measured-step answers the host's speed: leave out --margin and --by-module")
	}
	if !(f.measuredStep > 0) || math.IsInf(float64(f.measuredStep), 0) {
		return usagef("--measured-step must be a positive time (a training step with its accumulation, or one decode step: 0.028, 0.028s or 28ms), got %g s", float64(f.measuredStep))
	}
	calibrate := memmodel.CalibrateHost
	if spec.Inference() {
		calibrate = infer.CalibrateHost
	}
	c, err := calibrate(ctx, spec, float64(f.measuredStep))
	if errors.Is(err, memmodel.ErrNotCalibratable) {
		return err
	}
	if err != nil {
		return specError(err)
	}
	return report.Write(env.Stdout, format, c, func(w io.Writer) error { report.CalibrationText(w, c); return nil })
}

// seconds is a flag of a time in seconds: a bare number is seconds, or a
// Go duration with its unit (28ms, 0.028s, 1.5s).
type seconds float64

func (s *seconds) String() string { return strconv.FormatFloat(float64(*s), 'g', -1, 64) }

func (s *seconds) Set(v string) error {
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		*s = seconds(f)
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return fmt.Errorf("want seconds (0.028) or a time with its unit (28ms), got %q", v)
	}
	*s = seconds(d.Seconds())
	return nil
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(fl *flag.Flag) { set = set || fl.Name == name })
	return set
}

package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/vramkit/vramkit/internal/memmodel"
	"github.com/vramkit/vramkit/internal/plan"
	"github.com/vramkit/vramkit/internal/report"
	"github.com/vramkit/vramkit/internal/report/html"
)

func planCommand() *Command {
	c := &Command{
		Name:    "plan",
		Formats: "text (default) or json, on stdout; html for --sweep",
		Usage:   "plan [--spec SPEC.json | --model M ...] [--fit --global-batch B | --sweep batch=1..512] [--format text|json|html]",
		Short:   "predict training memory and step time; find the fastest configuration that fits",
		Long: `Plan predicts, without a GPU, the peak allocated and reserved memory, the
process memory nvidia-smi will show (reserved + CUDA context) and the step
time of one training configuration, from a layer-level model of the network
replayed through the caching-allocator simulator.

  vramkit plan --spec run.json
  vramkit plan --model gpt2 --batch 8 --seq 1024 --precision bf16-amp --gpu h100
  vramkit plan --fit --gpu rtx3090 --model bert-base --seq 512 --global-batch 64
  vramkit plan --sweep batch=1..512 --model resnet50 --gpu a100-40
  vramkit plan --task generate --model llama3-8b --precision bf16 --batch 8 --seq 2048 --new-tokens 256
  vramkit plan --task generate --fit --model llama3-8b --precision bf16 --seq 2048 --new-tokens 256
  vramkit plan --task serve --model llama3-8b --precision bf16 --gpu a100-80 --context 8192

  vramkit plan --model mixtral-8x7b --precision bf16 --lora-rank 16 --quant nf4
  vramkit plan --hf-config config.json --batch 4 --seq 2048 --attn eager --by-module

--batch is the per-GPU micro-batch. Spec files take the keys model,
hf_config, task, batch, seq, image, precision, checkpoint, accum, optimizer,
lora, parallel{strategy,gpus,tp,pp,micro_batches,schedule,
reshard_after_forward,init}, gpu, alloc_conf, use_cache, attn, head, compile,
host_scale (training and generate step time), channels_last (resnet,
efficientnet, convnext), quant,
vae_encode (diffusion: the step encodes its images with the frozen VAE),
audio_seconds and freeze_feature_encoder (wav2vec2: raw 16 kHz audio, and
whether its convolutional feature encoder is frozen, by default it is) and
override{tie_word_embeddings, num_key_value_heads, intermediate_size,
num_hidden_layers, low_rank, hidden_act} (what-if architecture changes,
re-planned); for
--task generate|serve (docs/inference.md) also new_tokens, kv_dtype, cache,
max_cache_len, gpu_memory_utilization, block_size, max_num_seqs,
max_num_batched_tokens, context, vllm (the version whose sizing to follow),
entry (serve|llm), enforce_eager, max_lora_rank, max_loras; serve reads
parallel.tp and quant (a checkpoint's format) too.

Peak reserved is the model's figure plus an allowance for allocations it
does not trace (a segment or two a real program adds), measured on runs
vramkit was not built on: the line under it says how often the model alone
was low and how often it is with the allowance. Bands are where the
measured value of runs vramkit was not built on fell,
at the stated confidence, per class of workload; "fits" is judged on the
top of the process band, and the headroom is the GPU's memory less that
top. Classes without such runs get a wider band and say why.`,
	}
	c.Run = func(ctx context.Context, env *Env, args []string) error { return runPlan(ctx, env, c, args) }
	return c
}

type planFlags struct {
	spec, model, hfConfig, precision, checkpoint, optimizer, loraTargets string
	parallel, gpu, allocConf, sweep, attn, quant, fsdpInit, head         string
	batch, seq, image, accum, loraRank, gpus, tp, pp, micro, global      int
	fit, compile, byModule, vaeEncode, channelsLast, freezeFE            bool
	margin, audioSeconds, hostScale                                      float64
	measuredStep                                                         seconds
	inf                                                                  inferFlags
}

func runPlan(ctx context.Context, env *Env, c *Command, args []string) error {
	defer gcFor(planGCPercent)()
	fs := newFlagSet(c, env.Stderr)
	var f planFlags
	fs.StringVar(&f.spec, "spec", "", "spec file (JSON); flags given too override its keys")
	fs.StringVar(&f.model, "model", "", "catalog model: "+strings.Join(memmodel.Names(), ", "))
	fs.StringVar(&f.hfConfig, "hf-config", "", "Hugging Face config.json file instead of --model")
	fs.IntVar(&f.batch, "batch", 0, "per-GPU micro-batch size")
	fs.IntVar(&f.seq, "seq", 0, "sequence length (text models)")
	fs.IntVar(&f.image, "image", 0, "image side in pixels (vision models)")
	fs.Float64Var(&f.audioSeconds, "audio-seconds", 0, "seconds of 16 kHz audio a sample (audio models: wav2vec2; default 10)")
	fs.BoolVar(&f.freezeFE, "freeze-feature-encoder", true, "audio models: freeze_feature_encoder() (the fine-tuning scripts' default); =false trains the convolutional feature encoder")
	fs.StringVar(&f.precision, "precision", "", "fp32|fp16-amp|bf16-amp|bf16 (fp16 is accepted as fp16-amp)")
	fs.StringVar(&f.checkpoint, "checkpoint", "", "activation checkpointing: none|block|every:K|selective (selective: each attention call recomputed in backward, torch.utils.checkpoint around scaled_dot_product_attention)")
	fs.IntVar(&f.accum, "accum", 0, "gradient accumulation micro-steps")
	fs.StringVar(&f.optimizer, "optimizer", "", strings.Join(memmodel.OptimizerNames(), "|"))
	fs.IntVar(&f.loraRank, "lora-rank", 0, "LoRA rank (0 = full fine-tuning)")
	fs.StringVar(&f.loraTargets, "lora-targets", "", "comma-separated LoRA target modules")
	fs.StringVar(&f.parallel, "parallel", "", "none|ddp|fsdp|zero1|zero2|zero3|tp|pp")
	fs.StringVar(&f.fsdpInit, "fsdp-init", "", "fsdp: gpu (model.to(device), then fully_shard; default) | meta (built on the meta device, loaded sharded)")
	fs.IntVar(&f.gpus, "gpus", 0, "number of GPUs")
	fs.IntVar(&f.tp, "tp", 0, "tensor-parallel degree (serve: vLLM's tensor_parallel_size)")
	fs.IntVar(&f.pp, "pp", 0, "pipeline-parallel degree")
	fs.IntVar(&f.micro, "micro-batches", 0, "pipeline micro-batches")
	fs.StringVar(&f.gpu, "gpu", "", "GPU (default h200; an alias such as a100 picks one variant, a100-80, and says so; NAME:MEMORY, e.g. h100:94GiB, plans a variant the table lacks with its memory as torch.cuda reports it)")
	fs.StringVar(&f.allocConf, "alloc-conf", "", "PYTORCH_CUDA_ALLOC_CONF to simulate")
	fs.BoolVar(&f.fit, "fit", false, "search all configurations for the fastest that fits (over --gpus: ddp, zero1, zero2 and fsdp, or the --parallel given; generate: the largest batch or prompt; serve: the fewest GPUs for --concurrency)")
	fs.IntVar(&f.global, "global-batch", 0, "global batch size for --fit")
	fs.Float64Var(&f.margin, "margin", 0, "fraction of GPU memory kept free beyond the band's top (which already holds the stated confidence): the fit verdict, --fit and --sweep judge against the rest")
	fs.StringVar(&f.sweep, "sweep", "", "memory curve: batch=LO..HI or seq=LO..HI")
	fs.StringVar(&f.head, "head", "", "the head trained on the model: its family's task, masked-lm, token-classification or question-answering on BERT, RoBERTa and XLM-RoBERTa, sequence-classification on the decoder LMs (default: what a --hf-config's architectures name, else the family's task)")
	fs.StringVar(&f.attn, "attn", "", "attention implementation: "+strings.Join(memmodel.AttnImpls, "|")+" (default: what transformers picks, sdpa)")
	fs.BoolVar(&f.compile, "compile", false, "the model runs under torch.compile")
	fs.Float64Var(&f.hostScale, "host-scale", 0, "training and generate: the host's time to issue PyTorch's work over the median lent host's the step-time model assumes (0.5: a CPU twice as fast); --measured-step solves it from one step you timed")
	fs.Var(&f.measuredStep, "measured-step", "training and generate: a step time you measured (0.028, 0.028s or 28ms) of this configuration on your machine (generate: one decode step); plan solves for the --host-scale that gives it, to plan the model's other configurations there")
	fs.BoolVar(&f.channelsLast, "channels-last", false, "the CNN and its images are channels-last (model.to(memory_format=torch.channels_last)); --fit tries both formats")
	fs.BoolVar(&f.vaeEncode, "vae-encode", false, "diffusion (unet, dit): the step encodes its images with the frozen VAE instead of reading cached latents")
	fs.StringVar(&f.quant, "quant", "", "nf4: 4-bit frozen base weights (QLoRA, with --lora-rank); serve: the checkpoint's format, awq|gptq|gptq-int8|w4a16|fp8|w8a8|bitsandbytes")
	fs.BoolVar(&f.byModule, "by-module", false, "list parameters, gradients, optimizer state and saved activations per module")
	f.inf.register(fs)
	format := addFormat(fs, "text", "json", "html")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkFormat(*format, "text", "json", "html"); err != nil {
		return err
	}
	if !(f.margin >= 0 && f.margin < 1) { // NaN too
		return usagef("--margin must be a fraction in [0, 1), got %g", f.margin)
	}
	if f.inf.task != "" || f.spec != "" {
		spec, err := f.buildSpec(fs)
		if err != nil {
			return err
		}
		if err := f.inf.apply(fs, &spec); err != nil {
			return err
		}
		if spec.Inference() {
			if fs.NArg() > 0 {
				return usagef("unexpected argument %q", fs.Arg(0))
			}
			return runInference(ctx, env, fs, spec, &f, *format)
		}
	}
	if *format == "html" && f.sweep == "" {
		return usagef("--format html draws a --sweep; other plans print as text or json")
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	spec, err := f.buildSpec(fs)
	if err != nil {
		return err
	}
	// inference flags on a training plan land in its spec, which refuses
	// them by name (Spec.MisplacedKey)
	if err := f.inf.apply(fs, &spec); err != nil {
		return err
	}
	notes, err := checkNames(spec)
	if err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintf(env.Stderr, "vramkit plan: note: %s\n", n)
	}
	if f.fit && f.sweep != "" {
		return usagef("--fit and --sweep are exclusive")
	}
	if err := checkPlanScope(fs, 't', f.fit); err != nil {
		return err
	}
	switch {
	case flagSet(fs, "measured-step"):
		return runCalibrate(ctx, env, spec, &f, *format)
	case f.fit:
		if err := checkFitSearched(fs); err != nil {
			return err
		}
		if keys := fitSearchedSpecKeys(f.spec); f.spec != "" && len(keys) > 0 {
			fmt.Fprintf(env.Stderr, "vramkit plan: note: --fit searches micro-batch, accumulation, precision and checkpointing itself, so it does not use the spec's %s\n", strings.Join(keys, ", "))
		}
		opts := plan.DefaultFitOptions()
		opts.GlobalBatch, opts.Margin = f.global, f.margin
		if opts.GlobalBatch < 0 {
			return usagef("--global-batch must be at least 1, got %d", opts.GlobalBatch)
		}
		if opts.GlobalBatch == 0 {
			return usagef("--fit needs --global-batch")
		}
		if flagSet(fs, "parallel") || specGivesStrategy(f.spec) {
			// a strategy given was replaced by the search's own without
			// a word (--parallel zero3 answered fsdp)
			st := spec.Parallel.Strategy
			if !slices.Contains(plan.SearchedStrategies, st) {
				return usagef("--fit searches %s over --gpus, or one of them given with --parallel; plan --parallel %s without --fit", strings.Join(plan.SearchedStrategies, ", "), st)
			}
			opts.Strategy = st
		}
		if dp := plan.DataParallel(spec.Parallel); dp < 1 || opts.GlobalBatch%dp != 0 {
			return usagef("--global-batch %d is not divisible by the %d data-parallel replicas of %d GPUs", opts.GlobalBatch, dp, spec.Parallel.GPUs)
		}
		res, err := plan.Fit(ctx, spec, opts)
		if errors.Is(err, plan.ErrNothingFits) && *format != "html" {
			// the search and the changes that would fit are the answer;
			// the exit status still says nothing fits as asked
			if werr := report.Write(env.Stdout, *format, res, func(w io.Writer) error { plan.WriteNoFitText(w, res); return nil }); werr != nil {
				return werr
			}
			return err
		}
		if err != nil {
			return specError(err)
		}
		return report.Write(env.Stdout, *format, res, func(w io.Writer) error { plan.WriteFitText(w, res); return nil })
	case f.sweep != "":
		opts, err := plan.ParseSweep(f.sweep)
		if err != nil {
			return usagef("--sweep: %v", err)
		}
		if arch, _, err := memmodel.Describe(spec); err == nil && opts.Key == "seq" && arch.Vision() {
			// the spec's own refusal said to give an image side, which
			// --sweep cannot vary
			return usagef("--sweep %s: %s takes images, not sequences; sweep batch", f.sweep, arch.Name)
		}
		if opts.Hi > maxSweep {
			// past it the doubling from LO would wrap around
			return usagef("--sweep: %s=%d..%d: HI at most %d", opts.Key, opts.Lo, opts.Hi, maxSweep)
		}
		opts.Margin = f.margin
		res, err := plan.Sweep(ctx, spec, opts)
		if err != nil {
			return specError(err)
		}
		if *format == "html" {
			return html.RenderSweep(env.Stdout, html.SweepOf(res))
		}
		return report.Write(env.Stdout, *format, res, func(w io.Writer) error { plan.WriteSweepText(w, res); return nil })
	}
	opts := memmodel.DefaultOptions()
	opts.ByModule = f.byModule
	r, err := memmodel.Estimate(spec, opts)
	if err != nil {
		return specError(err)
	}
	if err := memmodel.AdviseLoad(spec, opts, r); err != nil {
		return specError(err)
	}
	if f.margin > 0 {
		// one verdict, against what the margin leaves of the GPU
		r.Verdict = memmodel.DecideWithin(r.SteadyProcess, r.ProcessHigh, r.Capacity, f.margin, r.Confidence)
		r.Fits, r.Headroom = r.Verdict.Fits, r.Verdict.Headroom
	}
	planned, err := memmodel.Planned(spec)
	if err != nil {
		return specError(err)
	}
	// the JSON names the configuration the text's second line prints
	// (the fit candidates' spec key), without a config.json's bytes
	planned.HFConfig = nil
	out := struct {
		*memmodel.Result
		Spec memmodel.Spec `json:"spec"`
	}{r, planned}
	return report.Write(env.Stdout, *format, out, func(w io.Writer) error { report.PlanText(w, planned, r); return nil })
}

// buildSpec reads --spec (if any) and lays the explicitly set flags over it.
func (f *planFlags) buildSpec(fs *flag.FlagSet) (memmodel.Spec, error) {
	spec := memmodel.DefaultSpec()
	if f.spec != "" {
		fh, err := os.Open(f.spec)
		if err != nil {
			return spec, err
		}
		defer fh.Close()
		if spec, err = memmodel.ParseSpec(fh); err != nil {
			return spec, &UsageError{fmt.Errorf("%s: %w", f.spec, err)}
		}
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if set["model"] && set["hf-config"] {
		// the config.json won without a word (--model llama3-8b planned
		// the GPT-2 the file described)
		return spec, usagef("give --model or --hf-config, not both")
	}
	if set["model"] {
		m := f.model
		spec.Model, spec.HFConfig = &m, nil
	}
	if set["hf-config"] {
		data, err := os.ReadFile(f.hfConfig)
		if err != nil {
			return spec, err
		}
		data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a UTF-8 byte-order mark
		if len(bytes.TrimSpace(data)) == 0 {
			return spec, usagef("--hf-config %s: the file is empty", f.hfConfig)
		}
		spec.HFConfig, spec.Model = data, nil
	}
	ints := map[string]*int{"batch": &spec.Batch, "seq": &spec.Seq, "image": &spec.Image, "accum": &spec.Accum,
		"gpus": &spec.Parallel.GPUs, "tp": &spec.Parallel.TP, "pp": &spec.Parallel.PP, "micro-batches": &spec.Parallel.MicroBatches}
	vals := map[string]int{"batch": f.batch, "seq": f.seq, "image": f.image, "accum": f.accum,
		"gpus": f.gpus, "tp": f.tp, "pp": f.pp, "micro-batches": f.micro}
	for k, p := range ints {
		if set[k] {
			*p = vals[k]
		}
	}
	// a spec's 0 means the family's default; given on the command line
	// it is a mistake (seq and image; the others the spec refuses itself)
	for _, k := range []string{"seq", "image"} {
		if set[k] && vals[k] == 0 {
			return spec, usagef("--%s must be at least 1, got 0 (leave it out for the model's default)", k)
		}
	}
	if set["lora-rank"] && f.loraRank < 0 {
		return spec, usagef("--lora-rank must be positive (or 0 for full fine-tuning), got %d", f.loraRank)
	}
	strs := map[string]*string{"precision": &spec.Precision, "checkpoint": &spec.Checkpoint,
		"optimizer": &spec.Optimizer, "parallel": &spec.Parallel.Strategy, "gpu": &spec.GPU, "alloc-conf": &spec.AllocConf,
		"attn": &spec.Attn, "quant": &spec.Quant, "fsdp-init": &spec.Parallel.Init, "head": &spec.Head}
	svals := map[string]string{"precision": f.precision, "checkpoint": f.checkpoint, "optimizer": f.optimizer,
		"parallel": f.parallel, "gpu": f.gpu, "alloc-conf": f.allocConf, "attn": f.attn, "quant": f.quant, "fsdp-init": f.fsdpInit, "head": f.head}
	if set["compile"] {
		spec.Compile = f.compile
	}
	if set["host-scale"] {
		if f.hostScale == 0 {
			// 0 leaves a spec's key unset; given as a flag it is a mistake
			return spec, usagef("--host-scale must be between 0.1 and 10 (0.5: a CPU twice as fast as the median lent host), got 0")
		}
		spec.HostScale = f.hostScale
	}
	if set["channels-last"] {
		spec.ChannelsLast = f.channelsLast
	}
	if set["vae-encode"] {
		spec.VAEEncode = f.vaeEncode
	}
	if set["audio-seconds"] {
		if !(f.audioSeconds > 0) {
			return spec, usagef("--audio-seconds must be above 0, got %g (leave it out for the default)", f.audioSeconds)
		}
		spec.AudioSeconds = f.audioSeconds
	}
	if set["freeze-feature-encoder"] {
		fe := f.freezeFE
		spec.FreezeFeatureEncoder = &fe
	}
	for k, p := range strs {
		if set[k] {
			*p = svals[k]
		}
	}
	if set["lora-rank"] && f.loraRank > 0 {
		spec.LoRA = &memmodel.LoRA{Rank: f.loraRank, Alpha: float64(2 * f.loraRank)}
	} else if set["lora-rank"] {
		// --lora-rank 0 is full fine-tuning, over a spec's lora too
		spec.LoRA = nil
	}
	if set["lora-targets"] {
		if spec.LoRA == nil {
			return spec, usagef("--lora-targets needs --lora-rank")
		}
		spec.LoRA.Targets = strings.Split(f.loraTargets, ",")
	}
	if set["gpus"] && !set["parallel"] && spec.Parallel.Strategy == "none" && f.gpus > 1 {
		spec.Parallel.Strategy = "ddp"
	}
	if spec.Model == nil && len(spec.HFConfig) == 0 {
		if f.spec != "" {
			// the spec was given: what it lacks is a model
			return spec, usagef("%s: spec: no model: give its key model (a catalog name) or hf_config, or --model or --hf-config", f.spec)
		}
		return spec, usagef("give --spec, --model or --hf-config")
	}
	return spec, nil
}

package memmodel

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/gpu"
)

// Band is a prediction's uncertainty: the value is expected within [Low, High].
type Band struct {
	Low  int64 `json:"low"`
	High int64 `json:"high"`
}

// Result is the prediction for one configuration on one GPU (per rank).
type Result struct {
	Model string `json:"model"`
	// Head is what the model is trained for: its family's task, or the
	// head spec key head put on it (masked-lm).
	Head            string `json:"head"`
	GPU             string `json:"gpu"`
	Params          int64  `json:"params"`
	TrainableParams int64  `json:"trainable_params"`
	PeakAllocated   int64  `json:"peak_allocated_bytes"`
	Reserved
	Context int64 `json:"cuda_context_bytes"`
	// NCCL is what NCCL holds outside the caching allocator (buffers of
	// its communicators): part of process memory, not of reserved.
	NCCL    int64 `json:"nccl_bytes"`
	Process int64 `json:"process_bytes"`
	// SteadyAllocated / SteadyProcess include optimizer state even when
	// the first steps are skipped by GradScaler; fits is judged on them.
	SteadyAllocated int64 `json:"steady_allocated_bytes"`
	SteadyProcess   int64 `json:"steady_process_bytes"`
	AllocatedBand   Band  `json:"peak_allocated_band"`
	ReservedBand    Band  `json:"peak_reserved_band"`
	// LogitsSplitReserved is the model's peak reserved when cuBLAS's
	// backward workspace splits a freed fp32 logits block (see
	// logitsWorkspaceReserved); 0 where that cannot happen. The reserved
	// band's top allows for it, with the allowance added.
	LogitsSplitReserved int64 `json:"logits_split_reserved_bytes,omitempty"`
	// ReleaseAllocated and ReleaseReserved are the model's peaks when
	// DDP's construction-time gradient buffer goes at the rebuild of its
	// buckets, where the figures keep it through the second step (see
	// generateSchedule); 0 otherwise. The bands' low ends allow for them.
	ReleaseAllocated int64            `json:"release_allocated_bytes,omitempty"`
	ReleaseReserved  int64            `json:"release_reserved_bytes,omitempty"`
	ProcessBand      Band             `json:"process_band"`
	Breakdown        map[string]int64 `json:"breakdown"`
	PeakPhase        string           `json:"peak_phase"`
	StepTime         float64          `json:"step_time_s"`
	StepTimeBand     [2]float64       `json:"step_time_band_s"`
	// StepTimeSource says which figures the step time rests on: the
	// kernel classes measured on this GPU or another GPU scaled.
	StepTimeSource string `json:"step_time_source"`
	// StepDetail is how the step time splits into host issue time and
	// GPU kernel time, and the kernels it counts by class.
	StepDetail    *StepDetail `json:"step_detail,omitempty"`
	SamplesPerSec float64     `json:"samples_per_s"`
	Capacity      int64       `json:"capacity_bytes"`
	// Confidence is the probability the bands are built to cover (from
	// held-out captures, see bands.go); BandClasses are the classes of
	// workload whose measured error set them.
	Confidence  float64  `json:"confidence"`
	BandClasses []string `json:"band_classes"`
	// StepTimeBandClasses are the step-time classes StepTimeBand rests on.
	StepTimeBandClasses []string `json:"step_time_band_classes,omitempty"`
	// ProcessHigh is the top of the steady-state process band: what Fits,
	// Headroom (Capacity − ProcessHigh) and Verdict are judged on.
	ProcessHigh int64    `json:"process_high_bytes"`
	Fits        bool     `json:"fits"`
	Headroom    int64    `json:"headroom_bytes"`
	Verdict     Verdict  `json:"verdict"`
	Notes       []string `json:"notes,omitempty"`
	// Dynamic is set when the spec gives a length distribution.
	Dynamic *DynamicResult `json:"dynamic,omitempty"`
	// Modules is the per-module view (Options.ByModule).
	Modules []ModuleRow `json:"modules,omitempty"`
}

// MaxAccum is the most gradient-accumulation micro-steps Estimate
// replays: each is a forward and backward through the allocator, so the
// replay's time and memory grow with it (a few seconds and a few hundred
// MiB for GPT-2 at this bound), and a larger count would exhaust the
// machine planning it before any GPU.
const MaxAccum = 1024

// ErrSpec marks an invalid spec; the message names the field.
var ErrSpec = errors.New("invalid spec")

func specErr(field, format string, a ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrSpec, field, fmt.Sprintf(format, a...))
}

// Options tunes Estimate.
type Options struct {
	// Steps is how many training steps the stream covers (the first
	// creates optimizer state; later ones are steady).
	Steps int `json:"steps"`
	// SkipReserved predicts allocated memory only (fast path for searches).
	SkipReserved bool `json:"skip_reserved"`
	// Warm starts from a steady state (optimizer state exists), so one
	// step shows the peak; for searches.
	Warm bool `json:"warm"`
	// Host is what the training process's CPU spends issuing work; zero
	// takes the median lent host of the GPU's machines (LentHostCosts).
	Host HostCosts `json:"host"`
	// ByModule fills Result.Modules.
	ByModule bool `json:"by_module"`
}

// DefaultOptions replays three steps, as the fixtures measured.
func DefaultOptions() Options { return Options{Steps: 3} }

// config is a Spec resolved against the catalog.
type config struct {
	spec      Spec
	arch      Arch
	opt       *Optimizer
	allocConf allocsim.Config // parsed once from spec.AllocConf
	gpu       gpu.GPU
	amp, pdt  DType
	stateDT   DType
	scaler    bool
	// ddpForward is the predicted seconds of a DDP step's forward, set by
	// ddpRelease (0 before it, and for other strategies)
	ddpForward float64
	// ppStages is the peak allocated bytes of a pipeline's first and last
	// stages, set by pipelineStages (zero without pipeline parallelism)
	ppStages  [2]int64
	ckptEvery int  // checkpoint every K-th block; 0 = none
	selective bool // selective checkpointing
	batch     int64
	seq       int64
	image     int64
	// samples is an audio family's 16 kHz samples per sample (seq is
	// then its encoder's frames); freezeFE its frozen feature encoder
	samples  int64
	freezeFE bool
	attn     string // attention implementation (AttnImpls)
}

// resolve validates s and looks its model and GPU up.
func resolve(s Spec) (*config, error) {
	c := &config{spec: s}
	var err error
	if k, task := s.MisplacedKey(); k != "" {
		return nil, specErr(k, "a %s plan does not read it", task)
	}
	switch {
	case s.Model != nil && *s.Model != "" && len(s.HFConfig) > 0:
		return nil, specErr("model", "give either model or hf_config, not both")
	case len(s.HFConfig) > 0:
		c.arch, err = ParseHFConfig(s.HFConfig)
		if err != nil {
			return nil, specErr("hf_config", "%v", err)
		}
	case s.Model != nil && *s.Model != "":
		c.arch, err = Lookup(*s.Model)
		if err != nil {
			return nil, specErr("model", "%v", err)
		}
	default:
		return nil, specErr("model", "missing: give a catalog name or hf_config")
	}
	if _, err := LookupFamily(c.arch.Family); err != nil {
		return nil, specErr("model", "%v", err)
	}
	c.gpu, err = gpu.Lookup(s.GPU)
	if err != nil {
		return nil, specErr("gpu", "%v", err)
	}
	if s.Batch <= 0 {
		return nil, specErr("batch", "must be at least 1, got %d", s.Batch)
	}
	if s.Accum <= 0 {
		return nil, specErr("accum", "must be at least 1, got %d", s.Accum)
	}
	if s.Accum > MaxAccum {
		return nil, specErr("accum", "at most %d: every micro-step is replayed through the allocator, got %d", MaxAccum, s.Accum)
	}
	c.batch = int64(s.Batch)
	switch {
	case c.arch.family().Audio && s.Seq != 0:
		return nil, specErr("seq", "%s takes raw audio, not token sequences: give audio_seconds instead", c.arch.Name)
	case !c.arch.family().Audio && s.AudioSeconds != 0:
		return nil, specErr("audio_seconds", "%s takes no audio (only the audio families, wav2vec2, do); leave it out", c.arch.Name)
	case !c.arch.family().Audio && s.FreezeFeatureEncoder != nil:
		return nil, specErr("freeze_feature_encoder", "%s has no convolutional feature encoder (only the audio families, wav2vec2, do); leave it out", c.arch.Name)
	case c.arch.Vision() && s.Seq != 0:
		return nil, specErr("seq", "%s takes images, not sequences: give image (pixels a side) instead", c.arch.Name)
	case !c.arch.Vision() && s.Image != 0:
		return nil, specErr("image", "%s takes sequences, not images: give seq instead", c.arch.Name)
	case s.Padding != "" && len(s.Lengths) == 0:
		return nil, specErr("padding", "pads the samples that lengths lists, and there are none")
	}
	if c.arch.family().Audio {
		if err := c.resolveAudio(); err != nil {
			return nil, err
		}
	} else if c.arch.Vision() {
		c.image = int64(s.Image)
		if c.image == 0 {
			c.image = int64(c.arch.ImageSize)
		}
		if c.image < 32 {
			return nil, specErr("image", "must be at least 32 pixels, got %d", s.Image)
		}
	} else {
		c.seq = int64(s.Seq)
		if c.seq == 0 {
			c.seq = int64(c.arch.DefaultSeq)
		}
		if c.seq <= 0 {
			return nil, specErr("seq", "must be at least 1, got %d", s.Seq)
		}
		if c.arch.MaxPos > 0 && !c.arch.family().AnyLength && c.seq > int64(c.arch.MaxPos) {
			return nil, specErr("seq", "%d exceeds the model's %d positions", c.seq, c.arch.MaxPos)
		}
	}
	switch s.Precision {
	case "fp32":
		c.amp, c.pdt, c.stateDT = F32, F32, F32
	case "fp16-amp", "fp16":
		c.amp, c.pdt, c.stateDT, c.scaler = F16, F32, F32, true
	case "bf16-amp":
		c.amp, c.pdt, c.stateDT = BF16, F32, F32
	case "bf16":
		c.amp, c.pdt, c.stateDT = F32, BF16, BF16
	default:
		return nil, specErr("precision", "want fp32|fp16-amp|bf16-amp|bf16, got %q", s.Precision)
	}
	if (c.amp == BF16 || c.pdt == BF16) && !c.gpu.BF16 {
		return nil, specErr("precision", "%s has no bfloat16 support; use fp16-amp", c.gpu.Name)
	}
	switch ck := s.Checkpoint; {
	case ck == "none":
	case ck == "block":
		c.ckptEvery = 1
	case ck == "selective":
		if !c.arch.Attention() {
			// planned, it changed nothing (resnet50's figures were
			// checkpoint none's) under a "first of its kind" band
			return nil, specErr("checkpoint", "selective recomputes the attention calls, and %s has none; use block or every:K", c.arch.Name)
		}
		c.selective = true
	case strings.HasPrefix(ck, "every:"):
		k, err := strconv.Atoi(strings.TrimPrefix(ck, "every:"))
		if err != nil || k < 1 {
			return nil, specErr("checkpoint", "every:K needs a positive integer K, got %q", ck)
		}
		c.ckptEvery = k
	default:
		return nil, specErr("checkpoint", "want none|block|every:K|selective, got %q", ck)
	}
	if c.opt, err = LookupOptimizer(s.Optimizer); err != nil {
		return nil, specErr("optimizer", "%v", err)
	}
	if l := s.LoRA; l != nil {
		if l.Rank <= 0 {
			return nil, specErr("lora.rank", "must be at least 1, got %d", l.Rank)
		}
		// PEFT takes any rank; past maxLoRARank the adapter counts could
		// wrap, and no such adapter fits a GPU (rankNote says what a rank
		// past the hidden size buys)
		if l.Rank > maxLoRARank {
			return nil, specErr("lora.rank", "%d is past %d: an adapter that large holds more parameters than any GPU's memory", l.Rank, maxLoRARank)
		}
		if len(l.Targets) == 0 {
			// the family's defaults go into the config's own copy: the
			// caller's spec is shared (plan's search estimates its
			// candidates from one spec in parallel) and stays as given
			lc := *l
			lc.Targets = append([]string(nil), c.arch.family().LoRATargets...)
			c.spec.LoRA = &lc
		}
	}
	if err := c.resolveHead(s.Head); err != nil {
		return nil, err
	}
	if task := c.arch.family().Task; s.Task != nil && *s.Task != "" && *s.Task != task {
		return nil, specErr("task", "%q is not supported for %s (supported: %s)", *s.Task, c.arch.Family, task)
	}
	if c.allocConf, err = allocsim.ParseConfig(s.AllocConf); err != nil {
		return nil, specErr("alloc_conf", "%v", err)
	}
	if err := c.resolveTechniques(); err != nil {
		return nil, err
	}
	if err := c.checkParallel(); err != nil {
		return nil, err
	}
	if err := c.scaleCheck(); err != nil {
		return nil, err
	}
	return c, nil
}

// Describe resolves spec's model and reports whether its GPU supports bf16.
func Describe(s Spec) (Arch, bool, error) {
	c, err := resolve(s)
	if err != nil {
		return Arch{}, false, err
	}
	return c.arch, c.gpu.BF16, nil
}

// Planned is s as Estimate plans it, for echoing what was planned: the
// model's default sequence length or image side filled in, and the
// tensor- and pipeline-parallel degrees a tp or pp strategy takes from
// gpus.
func Planned(s Spec) (Spec, error) {
	c, err := resolve(s)
	if err != nil {
		return s, err
	}
	p := c.spec
	switch {
	case c.arch.family().Audio:
		p.AudioSeconds = float64(c.samples) / AudioRate
		p.FreezeFeatureEncoder = &c.freezeFE
	case c.arch.Vision():
		p.Image = int(c.image)
	default:
		p.Seq = int(c.seq)
	}
	return p, nil
}

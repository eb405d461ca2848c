package analyze

import (
	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// Report is the analysis of one snapshot.
type Report struct {
	Devices []Device `json:"devices"`
}

// Device is the analysis of one device's trace. JSON field names are a
// contract (issue 3): fields may be added, never renamed.
type Device struct {
	Device        int  `json:"device"`
	TraceComplete bool `json:"trace_complete"`
	// StateOnly: the snapshot has no allocation history, so the figures
	// are the allocator's state at the dump (peaks are that state, a lower
	// bound) and iterations, categories and leaks are unknown.
	StateOnly bool `json:"state_only"`
	// Window is what an incomplete trace proves about the stretch it
	// covers (exact reserved, reconstructed allocated).
	Window    *allocsim.Window `json:"trace_window,omitempty"`
	HasFrames bool             `json:"has_frames"`

	PeakAllocated int64 `json:"peak_allocated_bytes"`
	PeakReserved  int64 `json:"peak_reserved_bytes"`
	// NVMLEstimate is peak reserved plus the CUDA context, what nvidia-smi
	// would show at the peak; the context size is assumed (the GPU
	// table's, see Settings).
	NVMLEstimate int64 `json:"nvml_estimate_bytes"`
	ContextBytes int64 `json:"cuda_context_bytes_assumed"`
	// Settings are the run settings the replay used, each with its source.
	Settings        *Settings `json:"settings,omitempty"`
	PeakAllocatedAt Moment    `json:"peak_allocated_at"`
	PeakReservedAt  Moment    `json:"peak_reserved_at"`

	Iterations      int        `json:"iterations"`
	IterationSource string     `json:"iteration_source"`
	IterationPeaks  []IterPeak `json:"iteration_peaks"`

	// Categories are taken at the steady-state peak: the highest point of
	// iterations after the first, which is the step the program repeats
	// (the first one has no optimizer state yet and runs warm-up work).
	// With one iteration it is the peak itself.
	Categories         Categories `json:"categories_at_peak"`
	CategoriesAt       Moment     `json:"categories_at"`
	CategoriesBytes    int64      `json:"categories_allocated_bytes"`
	CategoryConfidence string     `json:"category_confidence"`
	TopSites           []Site     `json:"top_sites"`
	// BytesDefinition states the one definition of bytes that categories
	// and sites share.
	BytesDefinition string `json:"bytes_definition"`

	Fragmentation Fragmentation `json:"fragmentation"`
	Leaks         []Leak        `json:"leaks"`
	OOM           *OOM          `json:"oom"`
	// Generation describes an inference trace's prefill and decode passes
	// and its KV cache; nil for training.
	Generation *Generation `json:"generation,omitempty"`
	Advice     []Advice    `json:"advice"`
	Traits     Traits      `json:"traits"`
	Notes      []string    `json:"notes"`
	// CategoryCurve holds the categories at each of Options.CurveAt.
	CategoryCurve []Categories `json:"category_curve,omitempty"`
}

// Moment places a request on the trace and in the step structure.
type Moment struct {
	TraceEvent int    `json:"trace_event"`
	TimeUS     int64  `json:"time_us"`
	Iteration  int    `json:"iteration"` // 1-based; 0 = before the first
	Phase      string `json:"phase"`
}

// IterPeak is one iteration's peak allocated memory.
type IterPeak struct {
	Iteration     int    `json:"iteration"`
	PeakAllocated int64  `json:"peak_allocated_bytes"`
	Phase         string `json:"phase"`
	// StartEvent and StartUS place the iteration's first request on the
	// trace (index, and time in µs).
	StartEvent int   `json:"start_trace_event"`
	StartUS    int64 `json:"start_time_us"`
	// EndAllocated is allocated bytes when the iteration ends: what
	// survives it (torch.cuda.memory_allocated() after the step).
	EndAllocated int64 `json:"end_allocated_bytes"`
}

// Categories splits the live bytes at a moment into requested bytes per
// category plus the allocator's rounding (blocks are larger than the
// requests they serve); together they sum to allocated bytes. Sites count
// the same requested bytes (BytesDefinition).
type Categories struct {
	Parameters     int64 `json:"parameters"`
	Gradients      int64 `json:"gradients"`
	OptimizerState int64 `json:"optimizer_state"`
	Activations    int64 `json:"activations"`
	Temporaries    int64 `json:"temporaries"`
	Other          int64 `json:"other"`
	BlockRounding  int64 `json:"block_rounding"`
	// KVCache is the key/value cache of a Hugging Face model
	// (transformers' cache_utils): generation's, or one a training
	// forward builds because use_cache is on.
	KVCache int64 `json:"kv_cache"`
	// UnshardedParameters are FSDP's all-gathered (unsharded) parameters
	// and the all-gather outputs they are copied from.
	UnshardedParameters int64 `json:"unsharded_parameters"`
	// Communication is collective buffers: FSDP all-gather inputs and
	// reduce-scatter buffers, DDP gradient buckets, DTensor
	// redistribution, other c10d calls.
	Communication int64 `json:"communication_buffers"`
	// LibraryWorkspace is what libraries keep for themselves: the cuBLAS
	// workspace PyTorch allocates per thread and stream at the first
	// matmul (32 MiB on Hopper: the forward's and the autograd engine's).
	LibraryWorkspace int64 `json:"library_workspace"`
}

// Total is the sum of every category and the block rounding: the
// allocated bytes at the moment they were taken.
func (c Categories) Total() int64 {
	return c.Parameters + c.Gradients + c.OptimizerState + c.Activations + c.Temporaries + c.Other + c.BlockRounding +
		c.KVCache + c.UnshardedParameters + c.Communication + c.LibraryWorkspace
}

// BytesDefinition says what byte counts categories and sites use.
const BytesDefinition = "requested bytes (what the program asked for); the allocator's rounding of each request " +
	"up to its block is block_rounding, so categories plus block_rounding sum to allocated bytes"

// Site is the allocations of one collapsed stack that are live at a
// moment.
type Site struct {
	Bytes    int64            `json:"bytes"`
	Count    int              `json:"count"`
	Category string           `json:"category"`
	Frames   []snapshot.Frame `json:"frames"`
	// Label names the site when there are no frames (the autograd
	// engine's thread, or a trace recorded without stacks).
	Label string `json:"label,omitempty"`
}

// Fragmentation is the cache's waste at peak reserved: the moment the
// cache is biggest, when a request no free block could serve made it
// grow.
type Fragmentation struct {
	// ReservedMinusAllocated is cached but unused memory then, and
	// LargestFreeBlock the largest block among it that a request could
	// reuse (blocks waiting on other streams' events are not counted).
	ReservedMinusAllocated int64 `json:"reserved_minus_allocated_bytes"`
	LargestFreeBlock       int64 `json:"largest_free_block_bytes"`
	InactiveSplitPeak      int64 `json:"inactive_split_bytes_peak"`
	// TuneConf is the PYTORCH_CUDA_ALLOC_CONF vramkit tune ranks first and
	// TuneSaving its saving in peak reserved bytes; empty/0 when tune was
	// not run or found nothing better.
	TuneConf   string `json:"tune_alloc_conf,omitempty"`
	TuneSaving int64  `json:"tune_saving_bytes"`
	// TunePeakAllocated is peak allocated under TuneConf. It can be lower
	// than the recorded run's: expandable segments split a block down to
	// 512 B remainders where the default keeps up to 1 MiB unsplit, so
	// less rounding is allocated and the saving can exceed peak reserved
	// minus peak allocated.
	TunePeakAllocated int64 `json:"tune_peak_allocated_bytes,omitempty"`
	// TuneSettings is how many allocator settings were replayed: tune's
	// whole grid, or only expandable_segments:True on a trace of more than
	// Options.TuneMaxRequests requests (0: none, see TuneSkipped).
	TuneSettings int    `json:"tune_settings,omitempty"`
	TuneSkipped  string `json:"tune_skipped,omitempty"`
}

// Leak is memory that survives every iteration and grows.
type Leak struct {
	BytesPerIteration int64 `json:"bytes_per_iteration"`
	Iterations        int   `json:"iterations"`
	IterationsToFull  int64 `json:"iterations_until_full"`
	CapacityBytes     int64 `json:"capacity_bytes"`
	// CapacitySource says where CapacityBytes comes from; it starts with
	// "assumed" when no measurement or flag gave it.
	CapacitySource string           `json:"capacity_source"`
	Frames         []snapshot.Frame `json:"frames"`
	Label          string           `json:"label,omitempty"`
}

// OOM explains an out-of-memory error recorded in the trace.
type OOM struct {
	TraceEvent int    `json:"trace_event"`
	At         Moment `json:"at"`
	Requested  int64  `json:"requested_bytes"`
	Allocated  int64  `json:"allocated_bytes"`
	Reserved   int64  `json:"reserved_bytes"`
	CachedFree int64  `json:"cached_free_bytes"`
	DeviceFree int64  `json:"device_free_bytes"`
	Cause      string `json:"cause"`
	Explain    string `json:"explanation"`
	Holders    []Site `json:"holders"`
	// FirstStep explains an OOM in the first forward pass: how much the
	// whole pass needs and what batch fits.
	FirstStep *FirstStep `json:"first_step,omitempty"`
}

// Advice is one change, with what it would save.
type Advice struct {
	Action string `json:"action"`
	Saving int64  `json:"estimated_saving_bytes"`
	Detail string `json:"detail"`
	// FixesFailure marks the change that removes the recorded OOM's
	// cause; it is listed first whatever its saving, and Saving is the
	// memory it makes available instead.
	FixesFailure bool `json:"fixes_failure,omitempty"`
}

// Traits are what the trace shows about how the program trained.
type Traits struct {
	// AMP: the run computes in half precision from fp32 weights —
	// torch.autocast, or FSDP's MixedPrecisionPolicy (Precision says
	// which). False for pure half-precision weights and for fp32.
	AMP         bool   `json:"amp"`
	AMPEvidence string `json:"amp_evidence,omitempty"`
	// Precision is one of PrecisionAMP, PrecisionAMPFP16,
	// PrecisionFSDPMixed, PrecisionHalf, PrecisionFP32 or
	// PrecisionUnknown; PrecisionEvidence says what showed it.
	Precision         string `json:"precision"`
	PrecisionEvidence string `json:"precision_evidence,omitempty"`
	// GradScaler: the trace shows torch.amp.GradScaler at work (fp16).
	GradScaler    bool   `json:"grad_scaler"`
	Checkpointing bool   `json:"checkpointing"`
	Optimizer     string `json:"optimizer"` // "adam-like", "sgd-momentum", "none seen", ...
	// OptimizerModule is the optimizer's source file from the frames that
	// made its state (torch/optim/adam.py, transformers/optimization.py,
	// bitsandbytes/optim/...); empty without frames.
	OptimizerModule string `json:"optimizer_module,omitempty"`
	// StateBytesPerGradByte is optimizer state over the gradients the
	// optimizer stepped: 2 for Adam's two moments, 1 for momentum, well
	// under 1 for factored (Adafactor) or 8-bit states.
	StateBytesPerGradByte float64 `json:"state_bytes_per_gradient_byte,omitempty"`
	// TrainedShare is the share of parameter bytes that get gradients:
	// well under 1 when a frozen base trains adapters (LoRA/PEFT).
	TrainedShare float64 `json:"trained_share,omitempty"`
	FrozenBase   bool    `json:"frozen_base"`
	Adapters     bool    `json:"adapters"` // peft frames (LoRA and other adapters)
	// Sharding names the data/model-parallel code the frames show: "fsdp2",
	// "ddp", "dtensor" (tensor parallelism), "zero-1"
	// (ZeroRedundancyOptimizer); empty for none. WorldSize is the ranks
	// measured from FSDP's all-gather (output over input), 0 when unknown.
	Sharding  []string `json:"sharding"`
	WorldSize int      `json:"world_size,omitempty"`
	// Inference: the run generates (transformers' generate, or forward
	// passes that grow a KV cache) rather than trains.
	Inference bool `json:"inference"`
	// Training is true when a backward pass was seen, false for
	// forward-only runs, and null when the trace cannot tell: it ends in
	// an out-of-memory error before any backward (TrainingNote says so).
	Training     *bool  `json:"training"`
	TrainingNote string `json:"training_note,omitempty"`
}

// Precision values.
const (
	PrecisionAMP       = "amp"          // autocast (bf16 or fp16) over fp32 weights
	PrecisionAMPFP16   = "amp-fp16"     // autocast fp16 with GradScaler
	PrecisionFSDPMixed = "fsdp-mixed"   // FSDP MixedPrecisionPolicy: fp32 shards, half all-gathered weights
	PrecisionHalf      = "half"         // bf16/fp16 weights, no fp32 master copy
	PrecisionFP32      = "fp32"         // no half-precision compute seen
	PrecisionUnknown   = "fp32-or-half" // no autocast seen, and nothing tells fp32 weights from half ones
)

// IsTraining reports whether a backward pass was seen.
func (t Traits) IsTraining() bool { return t.Training != nil && *t.Training }

// MayTrain reports whether the run trains or might: a backward pass was
// seen, or the trace ended before one could be.
func (t Traits) MayTrain() bool { return t.Training == nil || *t.Training }

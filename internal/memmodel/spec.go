package memmodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// LoRA describes low-rank adapters on a frozen base model (PEFT).
type LoRA struct {
	Rank    int      `json:"rank"`
	Alpha   float64  `json:"alpha,omitempty"`
	Targets []string `json:"targets,omitempty"`
}

// targets reports whether module name carries an adapter.
func (l *LoRA) targets(name string) bool {
	for _, t := range l.Targets {
		if strings.EqualFold(t, name) {
			return true
		}
	}
	return false
}

// Parallel is the multi-GPU strategy.
type Parallel struct {
	Strategy     string `json:"strategy"` // none|ddp|fsdp|zero1|zero2|zero3|tp|pp (tp/pp may combine with the others through TP/PP)
	GPUs         int    `json:"gpus"`
	TP           int    `json:"tp"`
	PP           int    `json:"pp"`
	MicroBatches int    `json:"micro_batches"`
	// Schedule is the pipeline schedule: 1f1b (default) keeps at most pp
	// micro-batches' activations in flight on the first stage, gpipe all
	// of them on every stage (torch.distributed.pipelining's
	// ScheduleGPipe runs every forward before any backward).
	Schedule string `json:"schedule,omitempty"`
	// ReshardAfterForward is FSDP2's reshard_after_forward (default true):
	// false keeps each unit's gathered parameters from its forward to its
	// backward.
	ReshardAfterForward *bool `json:"reshard_after_forward,omitempty"`
	// Init is where an FSDP model's parameters are first made: "gpu"
	// (default: model.to(device), then fully_shard frees each unit's
	// whole parameters for its shards, as the captures ran) or "meta"
	// (built on the meta device, fully_shard, then to_empty and a
	// sharded load: each rank only ever holds its shards, as torchtitan
	// and a model too large for one GPU must).
	Init string `json:"init,omitempty"`
}

// Spec is one training configuration: the contract of `vramkit plan --spec`.
type Spec struct {
	Model     *string         `json:"model"`
	HFConfig  json.RawMessage `json:"hf_config,omitempty"`
	Task      *string         `json:"task"`
	Batch     int             `json:"batch"`
	Seq       int             `json:"seq"`
	Image     int             `json:"image"`
	Precision string          `json:"precision"`
	// Checkpoint is none | block | every:K | selective.
	Checkpoint string   `json:"checkpoint"`
	Accum      int      `json:"accum"`
	Optimizer  string   `json:"optimizer"`
	LoRA       *LoRA    `json:"lora"`
	Parallel   Parallel `json:"parallel"`
	GPU        string   `json:"gpu"`
	AllocConf  string   `json:"alloc_conf"`
	// UseCache is transformers' use_cache in the training forward: unset
	// follows transformers (on, but off under gradient checkpointing).
	UseCache *bool `json:"use_cache,omitempty"`
	// KeepGrads is zero_grad(set_to_none=False).
	KeepGrads bool `json:"keep_grads,omitempty"`
	// Lengths, when set, are the samples' sequence lengths in loader order
	// for dynamic padding (see dynamic.go); Padding is max | longest
	// (default) | bucket.
	Lengths []int  `json:"lengths,omitempty"`
	Padding string `json:"padding,omitempty"`

	// Inference keys, read by package infer when Task is "generate" or
	// "serve" (precision then names the weights: fp32|fp16|bf16|int8|int4).
	// NewTokens is how many tokens generate produces after the seq-token
	// prompt; KVDType is the cache's element type ("" = the model dtype,
	// or fp8); Cache is dynamic (DynamicCache) or static (StaticCache).
	// Attention is the Attn key below, shared with training.
	NewTokens int    `json:"new_tokens,omitempty"`
	KVDType   string `json:"kv_dtype,omitempty"`
	Cache     string `json:"cache,omitempty"`
	// MaxCacheLen is a StaticCache's length when it is longer than the
	// call needs (prompt + new tokens − 1): transformers'
	// generation_config.max_cache_len, or the length an earlier static
	// generate on the same model left behind, which generate reuses
	// whenever it is long enough. 0 sizes the cache to the call.
	MaxCacheLen int `json:"max_cache_len,omitempty"`
	// Decoding is generate's decoding options (its keys sit at the spec's
	// top level).
	Decoding
	// GPUMemoryUtilization, BlockSize, MaxNumSeqs and MaxNumBatchedTokens
	// are vLLM's engine arguments of the same names, for task serve;
	// Context is the per-sequence context length concurrency is counted at
	// (vLLM's max_model_len).
	GPUMemoryUtilization float64 `json:"gpu_memory_utilization,omitempty"`
	BlockSize            int     `json:"block_size,omitempty"`
	MaxNumSeqs           int     `json:"max_num_seqs,omitempty"`
	MaxNumBatchedTokens  int     `json:"max_num_batched_tokens,omitempty"`
	Context              int     `json:"context,omitempty"`
	// VLLM is the vLLM version a serve plan follows ("0.6.5", "0.11",
	// "v0.31.0"; empty: the newest vramkit models); Entry is how vLLM is
	// started, "serve" (the OpenAI server, default) or "llm" (the LLM
	// class), which sets its batch defaults; EnforceEager is vLLM's
	// enforce_eager (no torch.compile, no CUDA graphs).
	VLLM         string `json:"vllm,omitempty"`
	Entry        string `json:"entry,omitempty"`
	EnforceEager bool   `json:"enforce_eager,omitempty"`
	// MaxLoraRank and MaxLoras are vLLM's --enable-lora arguments of the
	// same names, for task serve: MaxLoraRank set enables LoRA, whose
	// adapter slots vLLM allocates at start-up (MaxLoras 0: vLLM's 1).
	MaxLoraRank int `json:"max_lora_rank,omitempty"`
	MaxLoras    int `json:"max_loras,omitempty"`
	// ImagesPerPrompt is vLLM's --limit-mm-per-prompt for images, for
	// task serve on a multimodal checkpoint: nil leaves vLLM's default, 0
	// serves the language model alone (--language-model-only);
	// SkipMMProfiling is vLLM's --skip-mm-profiling.
	ImagesPerPrompt *int `json:"images_per_prompt,omitempty"`
	SkipMMProfiling bool `json:"skip_mm_profiling,omitempty"`

	// Attn is the attention implementation: sdpa (transformers' default)
	// | eager | flash | mem_efficient | math; empty for the family's
	// default.
	Attn string `json:"attn,omitempty"`
	// Head is the head a training plan puts on the model: the family's
	// task, or one of Family.Heads ("masked-lm" on BERT, RoBERTa and
	// XLM-RoBERTa); empty takes a config.json's architectures, else the
	// family's task.
	Head string `json:"head,omitempty"`
	// Compile is torch.compile(model): see compile.go.
	Compile bool `json:"compile,omitempty"`
	// HostScale multiplies the host's per-operator costs of a training
	// step and of generate (0: unset, 1): the time a CPU takes to issue
	// PyTorch's work, over the median lent host's the step-time model
	// assumes. Host-bound steps move with it and nothing else does;
	// HostCostScale checks it.
	HostScale float64 `json:"host_scale,omitempty"`
	// ChannelsLast is model.to(memory_format=torch.channels_last) with
	// the images converted likewise: the CNN families' convolutions and
	// batch norms run cuDNN's and ATen's NHWC kernels (see
	// channels_last.go).
	ChannelsLast bool `json:"channels_last,omitempty"`
	// VAEEncode: a latent diffusion step encodes its images with the
	// frozen VAE (no_grad) instead of reading cached latents: see
	// family_vae.go.
	VAEEncode bool `json:"vae_encode,omitempty"`
	// AudioSeconds is how long each sample's raw 16 kHz audio is, for the
	// audio families (Wav2Vec2), which take it instead of seq; 0 takes
	// DefaultAudioSeconds.
	AudioSeconds float64 `json:"audio_seconds,omitempty"`
	// FreezeFeatureEncoder is model.freeze_feature_encoder() on an audio
	// model: its convolutional feature encoder is frozen and saves nothing
	// for backward. Unset freezes it, as transformers' fine-tuning scripts
	// (run_speech_recognition_ctc.py, run_audio_classification.py) do by
	// default; false trains it.
	FreezeFeatureEncoder *bool `json:"freeze_feature_encoder,omitempty"`
	// Quant "nf4" loads the frozen base weights in 4 bits (QLoRA, with
	// lora): see quant.go.
	Quant string `json:"quant,omitempty"`
	// Override changes architecture keys of the model before planning:
	// "what if" weights were shared, heads grouped, layers narrower or
	// factorised.
	Override *Override `json:"override,omitempty"`
}

// Inference reports whether the spec asks for an inference task, which
// package infer plans instead of Estimate.
func (s Spec) Inference() bool {
	return s.Task != nil && (*s.Task == "generate" || *s.Task == "serve")
}

// Override holds the config.json keys a spec may change on its model
// (the Llama-like decoders), and a low-rank factorisation of every
// projection.
type Override struct {
	TieWordEmbeddings *bool `json:"tie_word_embeddings,omitempty"`
	NumKeyValueHeads  int   `json:"num_key_value_heads,omitempty"`
	IntermediateSize  int   `json:"intermediate_size,omitempty"`
	NumHiddenLayers   int   `json:"num_hidden_layers,omitempty"`
	// LowRank replaces each projection W (in×out) by two of rank
	// LowRank (in×r, r×out) where that has fewer parameters; the LM head
	// and MoE routers stay dense.
	LowRank int `json:"low_rank,omitempty"`
	// HiddenAct replaces the MLP's activation (config.json's hidden_act,
	// GPT-2's activation_function): "gelu_pytorch_tanh", "gelu", "silu"
	// run as one kernel, "gelu_new" / "gelu_fast" as Python operators
	// (transformers' NewGELUActivation), whose intermediates autograd
	// keeps.
	HiddenAct string `json:"hidden_act,omitempty"`
}

// DefaultSpec is the configuration missing keys take.
func DefaultSpec() Spec {
	return Spec{Batch: 8, Precision: "fp32", Checkpoint: "none", Accum: 1, Optimizer: "adamw",
		Parallel: Parallel{Strategy: "none", GPUs: 1, TP: 1, PP: 1, MicroBatches: 1}, GPU: "h200"}
}

// ParseSpec reads a spec file: unknown keys are errors, missing keys take
// DefaultSpec's values.
func ParseSpec(r io.Reader) (Spec, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return Spec{}, fmt.Errorf("spec: %w", err)
	}
	// a UTF-8 byte-order mark, as Windows editors save JSON, is no part
	// of the document
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if err := checkSpecDoc(data); err != nil {
		return Spec{}, fmt.Errorf("spec: %w", err)
	}
	s := DefaultSpec()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Spec{}, fmt.Errorf("spec: %s", jsonErr(err))
	}
	if string(s.HFConfig) == "null" {
		s.HFConfig = nil
	}
	s.fillDefaults()
	return s, nil
}

// jsonErr rewrites encoding/json errors so they name the field.
func jsonErr(err error) string {
	var te *json.UnmarshalTypeError
	if e, ok := err.(*json.UnmarshalTypeError); ok {
		te = e
		if te.Field == "" {
			return fmt.Sprintf("the file holds a JSON %s: want an object of spec keys such as {\"model\": \"gpt2\", \"batch\": 8}", te.Value)
		}
		return fmt.Sprintf("field %q: want %s, got JSON %s", te.Field, te.Type, te.Value)
	}
	msg := err.Error()
	if strings.HasPrefix(msg, "json: unknown field ") {
		return "unknown field " + strings.TrimPrefix(msg, "json: unknown field ")
	}
	return strings.TrimPrefix(msg, "json: ")
}

func (s *Spec) fillDefaults() {
	d := DefaultSpec()
	if s.Precision == "" {
		s.Precision = d.Precision
	}
	if s.Checkpoint == "" {
		s.Checkpoint = d.Checkpoint
	}
	if s.Accum == 0 {
		s.Accum = 1
	}
	if s.Optimizer == "" {
		s.Optimizer = d.Optimizer
	}
	if s.Parallel.Strategy == "" {
		s.Parallel.Strategy = "none"
	}
	if s.Parallel.GPUs == 0 {
		s.Parallel.GPUs = 1
	}
	if s.Parallel.TP == 0 {
		s.Parallel.TP = 1
	}
	if s.Parallel.PP == 0 {
		s.Parallel.PP = 1
	}
	if s.Parallel.MicroBatches == 0 {
		s.Parallel.MicroBatches = 1
	}
	if s.GPU == "" {
		s.GPU = d.GPU
	}
}

// MisplacedKey names the first key of s that its task does not read (a
// generate key on a training spec, a training key on an inference one, a
// serve key on a generate spec), "" when there is none, and the task. A
// planner refuses such a spec rather than plan it as if the key were
// absent.
func (s Spec) MisplacedKey() (key, task string) {
	task = "training"
	if s.Inference() {
		task = *s.Task
	}
	d := DefaultSpec()
	keys := []struct {
		name, scope string // scope: the tasks that read the key
		set         bool
	}{
		{"new_tokens", "generate", s.NewTokens != 0},
		{"max_cache_len", "generate", s.MaxCacheLen != 0},
		{"num_beams", "generate", s.NumBeams != 0},
		{"do_sample", "generate", s.DoSample},
		{"top_k", "generate", s.TopK != nil},
		{"top_p", "generate", s.TopP != 0},
		{"temperature", "generate", s.Temperature != 0},
		{"repetition_penalty", "generate", s.RepetitionPenalty != 0},
		{"num_return_sequences", "generate", s.NumReturnSequences != 0},
		{"output_scores", "generate", s.OutputScores},
		{"output_logits", "generate", s.OutputLogits},
		{"cache", "generate serve", s.Cache != ""},
		{"kv_dtype", "generate serve", s.KVDType != ""},
		{"alloc_conf", "training generate", s.AllocConf != ""},
		{"gpu_memory_utilization", "serve", s.GPUMemoryUtilization != 0},
		{"block_size", "serve", s.BlockSize != 0},
		{"max_num_seqs", "serve", s.MaxNumSeqs != 0},
		{"max_num_batched_tokens", "serve", s.MaxNumBatchedTokens != 0},
		{"context", "serve", s.Context != 0},
		{"vllm", "serve", s.VLLM != ""},
		{"entry", "serve", s.Entry != ""},
		{"enforce_eager", "serve", s.EnforceEager},
		{"max_lora_rank", "serve", s.MaxLoraRank != 0},
		{"max_loras", "serve", s.MaxLoras != 0},
		{"images_per_prompt", "serve", s.ImagesPerPrompt != nil},
		{"skip_mm_profiling", "serve", s.SkipMMProfiling},
		{"image", "training", s.Image != 0},
		{"checkpoint", "training", s.Checkpoint != "" && s.Checkpoint != d.Checkpoint},
		{"accum", "training", s.Accum != 0 && s.Accum != d.Accum},
		{"optimizer", "training", s.Optimizer != "" && s.Optimizer != d.Optimizer},
		{"lora", "training", s.LoRA != nil},
		{"parallel", parallelScope(s.Parallel), s.Parallel != d.Parallel && s.Parallel != Parallel{}},
		{"use_cache", "training", s.UseCache != nil},
		{"keep_grads", "training", s.KeepGrads},
		{"lengths", "training", len(s.Lengths) > 0},
		{"padding", "training", s.Padding != ""},
		{"compile", "training", s.Compile},
		{"host_scale", "training generate", s.HostScale != 0},
		{"channels_last", "training", s.ChannelsLast},
		{"vae_encode", "training", s.VAEEncode},
		{"audio_seconds", "training", s.AudioSeconds != 0},
		{"freeze_feature_encoder", "training", s.FreezeFeatureEncoder != nil},
		{"quant", "training serve", s.Quant != ""},
		{"override", "training", s.Override != nil},
		{"head", "training", s.Head != ""},
	}
	for _, k := range keys {
		if k.set && !strings.Contains(k.scope, task) {
			return k.name, task
		}
	}
	return "", task
}

// parallelScope is the tasks that read a parallel setting: tensor and
// pipeline parallelism alone (tp, pp, gpus) are also a serve plan's (vLLM's tensor_parallel_size and
// pipeline_parallel_size); the rest is training's.
func parallelScope(p Parallel) string {
	tp, pp := max(p.TP, 1), max(p.PP, 1)
	// (gpus other than tp × pp is the serve planner's to refuse, by name)
	onlyTP := (tp > 1 || pp > 1) &&
		(p.Strategy == "" || p.Strategy == "none" || p.Strategy == "tp" || p.Strategy == "pp") &&
		p.Init == "" && p.ReshardAfterForward == nil && p.Schedule == "" && p.MicroBatches <= 1
	if onlyTP {
		return "training serve"
	}
	return "training"
}

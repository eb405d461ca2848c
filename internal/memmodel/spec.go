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

package memmodel

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// Uncertainty bands come from the error the model made on captures it was
// not built on, not from a guess. bench/bands predicts every such capture,
// groups the errors by class of workload (one class per value of each
// dimension: family, kind, precision, checkpointing, LoRA, optimizer,
// parallelism, attention, GPU) and writes bands.json, which is embedded
// here. A class's band is its own centre (median log error) plus its own
// spread (median absolute deviation) times quantiles that every class
// shares (see bench/bands): so a class the model under-predicts gets a
// higher top, and a class it predicts closely a narrow band, even with few
// rows. A configuration belongs to one class per dimension; its band is
// the envelope of those classes' bands, so the least certain thing about
// it sets the width. A dimension value with too few held-out rows gets the
// pooled band widened by a stated amount and says so.

//go:embed bands.json
var bandsJSON []byte

// BandTable is bands.json: per-class error bands at one confidence.
type BandTable struct {
	// Confidence is the probability the bands are built to cover.
	Confidence float64 `json:"confidence"`
	// MinRows is how many held-out rows a class needs to be used.
	MinRows int `json:"min_rows"`
	// Sources are the capture sets the errors came from, and how far they
	// were held out.
	Sources []BandSource `json:"sources"`
	// Pooled is every row together: the fallback for thin classes.
	Pooled ClassBand `json:"pooled"`
	// Classes are keyed "dimension=value" (see BandClasses).
	Classes map[string]ClassBand `json:"classes"`
	// ContextLow/High bound NVML process memory minus peak reserved minus
	// the GPU table's context, on the GPUs measured (bytes).
	ContextLow  int64 `json:"context_low_bytes"`
	ContextHigh int64 `json:"context_high_bytes"`
	// MaxSeq is the longest sequence of the training rows: a longer one
	// is past what was measured (0: not recorded).
	MaxSeq int `json:"max_seq,omitempty"`
	// MaxStepSeq is the longest sequence of the timed rows, likewise for
	// step time.
	MaxStepSeq int `json:"max_step_seq,omitempty"`
	// StepTimePooled and StepTime are step-time bands, as Pooled and
	// Classes (their MedianErr is of step time).
	StepTimePooled ClassBand            `json:"step_time_pooled"`
	StepTime       map[string]ClassBand `json:"step_time"`
	// Generate are the bands of the inference planner's generate
	// predictions (internal/infer), keyed by its own classes; nil when no
	// generate rows were measured.
	Generate *BandSet `json:"generate,omitempty"`
	// Method says how the bands were computed, in one line.
	Method string `json:"method"`
	// Quantiles are the shared quantiles of the standardised error, low
	// and high, per quantity ("reserved", "allocated", "step_time",
	// "generate_reserved", ...): a class's band is exp(centre + scale×q).
	Quantiles map[string][2]float64 `json:"quantiles"`
	// Allowance is what training's peak reserved adds to the model's
	// figure for allocations the model does not trace (bands_allowance.go);
	// the reserved bands are of the figure with it.
	Allowance Allowance `json:"reserved_allowance"`
	// Kinds are the configuration kinds (BandKind) of the training rows
	// and their first-sight record: which configurations are risky
	// (bands_risk.go).
	Kinds map[string]KindRecord `json:"kinds,omitempty"`
}

// BandSet is one family of per-class bands with its pooled fallback.
type BandSet struct {
	Pooled  ClassBand            `json:"pooled"`
	Classes map[string]ClassBand `json:"classes"`
	// Allowance is the set's own allowance on peak reserved (the
	// generate set's), nil for none.
	Allowance *Allowance `json:"reserved_allowance,omitempty"`
	// MaxNewTokens is the longest generate call among the set's rows: a
	// longer one is past what was measured (0: not recorded).
	MaxNewTokens int `json:"max_new_tokens,omitempty"`
}

// BandSource is one capture set behind the table.
type BandSource struct {
	Dir  string `json:"dir"`
	Rows int    `json:"rows"`
	// HeldOut says when the set was held out from model building.
	HeldOut string `json:"held_out"`
	// AllowanceRows says the set's rows were held out of model building
	// and derive the allowance on peak reserved (Allowance).
	AllowanceRows bool `json:"allowance_rows,omitempty"`
}

// ClassBand is the measured-over-predicted ratio's band for one class at
// the table's confidence: the measurement is expected within
// [prediction×Low, prediction×High]. Low and High are not symmetric: a
// class the model under-predicts gets a higher top.
type ClassBand struct {
	N int `json:"n"`
	// MedianErr and MedianAbsErr are of the signed error (pred-meas)/meas.
	MedianErr    float64 `json:"median_err"`
	MedianAbsErr float64 `json:"median_abs_err"`
	// Reserved and Allocated are the bands on peak reserved and peak
	// allocated (ratios measured/predicted).
	Reserved  [2]float64 `json:"reserved,omitempty"`
	Allocated [2]float64 `json:"allocated,omitempty"`
	// ReservedRisk are the bands on peak reserved of a configuration at
	// risk level 1 and 2 (BandTable.Risk): the same centre and spread,
	// the quantiles of that level's rows.
	ReservedRisk [][2]float64 `json:"reserved_risk,omitempty"`
	// ReservedCheckpointLow are the low ends of the reserved band of a
	// checkpointed configuration at risk levels 0, 1 and 2 (0: the
	// level's own low end): the same centre and spread, the low quantile
	// of that level's checkpointed rows (bands_ckpt.go).
	ReservedCheckpointLow []float64 `json:"reserved_checkpoint_low,omitempty"`
	// StepTime is the band on step time (step-time classes only) of a
	// GPU-bound configuration, and StepTimeHost those of host levels 1
	// and 2 (StepHostLevel): the same centre, the quantiles of that
	// level's rows.
	StepTime     [2]float64   `json:"step_time,omitempty"`
	StepTimeHost [][2]float64 `json:"step_time_host,omitempty"`
	// Centre and Scale are the median and the median absolute deviation
	// of the log error ln(measured/predicted) of the quantity the class
	// was built for (reserved memory, or step time), after shrinking
	// toward the pooled ones.
	Centre float64 `json:"centre"`
	Scale  float64 `json:"scale"`
	// SplitRows is how many of the class's rows had the logits-split
	// variant (Result.LogitsSplitReserved) and SplitTaken on how many of
	// them the GPU took it; every row counts toward all its classes
	// (unlike N). See SplitReach.
	SplitRows int `json:"split_rows,omitempty"`
	// Measured is how many rows of any kind the class has (N counts a
	// technique row toward its technique's classes only): a class with
	// fewer than MinRows gets a stated widening.
	Measured   int `json:"measured,omitempty"`
	SplitTaken int `json:"split_taken,omitempty"`
	// SplitTechRows and SplitTechTaken count the same among the class's
	// rows with checkpointing or LoRA (SplitTechnique), which change
	// what the backward pass frees before the workspace is placed.
	SplitTechRows  int      `json:"split_tech_rows,omitempty"`
	SplitTechTaken int      `json:"split_tech_taken,omitempty"`
	Rows           []string `json:"rows,omitempty"`
}

// Widenings for what has no held-out data: stated, not measured.
const (
	// unmeasuredWiden is added on both sides for a technique, family or
	// configuration no held-out capture covers.
	unmeasuredWiden = 0.10
	// scaledGPUWiden is added on both sides on a GPU with no capture: its
	// context, cuBLAS workspace and kernel choices come from the GPU table
	// and the allocator's behaviour is unchanged, so less than for an
	// unmeasured technique.
	scaledGPUWiden = 0.05
	// twinGPUWiden replaces it for the memory of a GPU of the same
	// architecture and SM count as a measured one (memoryTwin): late61's
	// 91 H100 re-runs of H200 workloads reached the H200's peak reserved
	// within 0.86% (69 to the byte), peak allocated within 0.45%.
	twinGPUWiden = 0.01
	// ScaledGPUStepWiden is added to step-time bands on a GPU with no
	// timing capture (generate's too: infer's timeModel.forGPU).
	ScaledGPUStepWiden = 0.30
	// scaledContextErr bounds the CUDA context of a GPU with no capture.
	scaledContextErr = 300 << 20
)

// LoadBandTable parses a band table.
func LoadBandTable(data []byte) (*BandTable, error) {
	var t BandTable
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("bands.json: %w", err)
	}
	if t.Confidence <= 0 || t.Confidence >= 1 || t.Pooled.N == 0 {
		return nil, fmt.Errorf("bands.json: needs a confidence in (0,1) and pooled rows")
	}
	return &t, nil
}

// EmbeddedBands is the committed table, parsed once per process; callers
// share it and must not modify it (copy a map before changing it).
func EmbeddedBands() *BandTable { return embeddedBands() }

// embeddedBands parses the committed table on its first call and returns
// that parse ever after: every Estimate reads it twice (memory and step
// time bands) and the 250 KB of JSON cost more than the rest of a warm
// search step. The bytes are embedded and immutable, so a parse is the
// same every time; a broken table is a build error the tests catch, so it
// panics.
var embeddedBands = sync.OnceValue(func() *BandTable {
	t, err := LoadBandTable(bandsJSON)
	if err != nil {
		panic("memmodel: " + err.Error())
	}
	return t
})

// BandClasses names the classes spec belongs to, one per dimension, as
// bands.json keys them. bench/bands groups errors by the same names.
func BandClasses(s Spec) ([]string, error) {
	c, err := resolve(s)
	if err != nil {
		return nil, err
	}
	return c.bandClasses(), nil
}

func (c *config) bandClasses() []string {
	f := c.arch.family()
	kind := map[string]string{"causal-lm": "decoder", "sequence-classification": "encoder",
		"seq2seq": "encoder-decoder"}[f.Task]
	switch {
	case f.Vision && f.Attention:
		kind = "vision-transformer"
	case c.convNet():
		kind = "cnn"
	case kind == "":
		kind = f.Task
	}
	ck := c.spec.Checkpoint
	if c.ckptEvery > 0 {
		ck = "block"
	}
	lora := "no"
	switch {
	case c.spec.Quant != "":
		lora = "qlora" // 4-bit base weights: its own class of the LoRA dimension
	case c.spec.LoRA != nil:
		lora = "yes"
	}
	prec := c.spec.Precision
	if prec == "fp16" {
		prec = "fp16-amp"
	}
	out := []string{"family=" + c.arch.Family, "kind=" + kind, "precision=" + prec, "checkpoint=" + ck,
		"lora=" + lora, "optimizer=" + c.opt.Name, "parallel=" + c.spec.Parallel.Strategy,
		"gpu=" + c.gpu.Name}
	if c.loraExtended() {
		out = append(out, "lora_targets=extended")
	}
	if c.arch.Head != "" {
		// a head other than the family's task (the masked-LM head's
		// batch × seq × vocab logits, a decoder without its LM head): a
		// mechanism the family's own rows never exercise
		out = append(out, "head="+c.arch.Head)
	}
	if c.attn == "eager" || c.attn == "math" {
		out = append(out, "attn="+c.attn)
	}
	if c.spec.AllocConf != "" {
		out = append(out, "alloc_conf=custom")
	}
	if c.spec.ChannelsLast {
		out = append(out, "memory_format=channels_last")
	}
	if len(c.spec.Lengths) > 0 && c.spec.Padding != "max" {
		out = append(out, "lengths=variable")
	}
	return out
}

// loraExtended says the LoRA adapters go on modules beyond the family's
// default targets (PEFT's, the attention projections): LoRA on every
// linear layer puts adapters, their inputs saved for backward and their
// gradients on the MLP too, a mechanism the default targets never
// exercise. It is a class of its own (and so part of a configuration's
// kind, BandKind): the first all-linear runs of Qwen3 missed by +16.4%
// (late10) and +21.8% (late11, checkpointed) at first sight while the
// same family's default-target LoRA runs were within 1%, so a kind that
// does not tell them apart calls the first all-linear run of a family
// safe and the next default-target run risky.
func (c *config) loraExtended() bool {
	l := c.spec.LoRA
	if l == nil {
		return false
	}
	def := c.arch.family().LoRATargets
	for _, t := range l.Targets {
		found := false
		for _, d := range def {
			if strings.EqualFold(t, d) {
				found = true
				break
			}
		}
		if !found {
			return true
		}
	}
	return false
}

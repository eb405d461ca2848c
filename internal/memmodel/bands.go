package memmodel

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Uncertainty bands come from the error the model made on captures it was
// not built on, not from a guess. bench/bands predicts every such capture,
// groups the errors by class of workload (one class per value of each
// dimension: family, kind, precision, checkpointing, LoRA, optimizer,
// parallelism, GPU) and writes bands.json, which is embedded here. A
// configuration belongs to one class per dimension; its band is the
// envelope of those classes' bands, so the least certain thing about it
// sets the width. A dimension value with too few held-out rows gets the
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
	// StepTimePooled and StepTime are step-time bands, as Pooled and
	// Classes (their MedianErr is of step time).
	StepTimePooled ClassBand            `json:"step_time_pooled"`
	StepTime       map[string]ClassBand `json:"step_time"`
}

// BandSource is one capture set behind the table.
type BandSource struct {
	Dir  string `json:"dir"`
	Rows int    `json:"rows"`
	// HeldOut says when the set was held out from model building.
	HeldOut string `json:"held_out"`
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
	// StepTime is the band on step time (step-time classes only).
	StepTime [2]float64 `json:"step_time,omitempty"`
	Rows     []string   `json:"rows,omitempty"`
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
	// scaledGPUStepWiden is added to step-time bands on a GPU with no
	// timing capture.
	scaledGPUStepWiden = 0.30
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

// embeddedBands is the committed table; a broken one is a build error
// caught by the tests, so it panics.
func embeddedBands() *BandTable {
	t, err := LoadBandTable(bandsJSON)
	if err != nil {
		panic("memmodel: " + err.Error())
	}
	return t
}

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
	case f.Vision:
		kind = "cnn"
	case kind == "":
		kind = f.Task
	}
	ck := c.spec.Checkpoint
	if c.ckptEvery > 0 {
		ck = "block"
	}
	lora := "no"
	if c.spec.LoRA != nil {
		lora = "yes"
	}
	prec := c.spec.Precision
	if prec == "fp16" {
		prec = "fp16-amp"
	}
	out := []string{"family=" + c.arch.Family, "kind=" + kind, "precision=" + prec, "checkpoint=" + ck,
		"lora=" + lora, "optimizer=" + c.opt.Name, "parallel=" + c.spec.Parallel.Strategy,
		"gpu=" + c.gpu.Name}
	if c.spec.AllocConf != "" {
		out = append(out, "alloc_conf=custom")
	}
	if len(c.spec.Lengths) > 0 && c.spec.Padding != "max" {
		out = append(out, "lengths=variable")
	}
	return out
}

// bandFor is the envelope of the bands of the classes that set a
// configuration apart, and the reasons for any widening: the least certain
// thing about a configuration sets its band. A class holding more than
// half of all rows (a default value: no LoRA, no parallelism, the GPU
// everything was measured on) says little about the configuration and is
// left out; when no class is left, the pooled band applies. A dimension
// value with too few held-out rows adds the pooled band widened by a
// stated amount.
//
// Taking only the most specific class instead narrowed the median band
// from 5.6% to 4.5% but covered 93% of the rows the table was built from
// (98% with the envelope), which promised less than 90% on new ones.
func (t *BandTable) bandFor(classes []string) (cb ClassBand, used []string, why []string) {
	first := true
	take := func(r, a [2]float64) {
		if first {
			cb.Reserved, cb.Allocated, first = r, a, false
			return
		}
		cb.Reserved, cb.Allocated = envelope(cb.Reserved, r), envelope(cb.Allocated, a)
	}
	for _, k := range classes {
		b, ok := t.Classes[k]
		if ok && b.N >= t.MinRows {
			if 2*b.N <= t.Pooled.N {
				take(b.Reserved, b.Allocated)
				used = append(used, k)
			}
			continue
		}
		w, reason := unmeasuredWiden, "no held-out capture"
		if strings.HasPrefix(k, "gpu=") {
			w, reason = scaledGPUWiden, "no capture on this GPU: its figures are scaled from the GPU table"
		}
		if ok {
			reason = fmt.Sprintf("only %d held-out capture(s)", b.N)
		}
		take(widen(t.Pooled.Reserved, w), widen(t.Pooled.Allocated, w))
		why = append(why, fmt.Sprintf("%s: %s, band widened by %.0f%% each side", k, reason, 100*w))
	}
	if first {
		cb.Reserved, cb.Allocated, used = t.Pooled.Reserved, t.Pooled.Allocated, []string{"pooled"}
	}
	sort.Strings(used)
	return cb, used, why
}

func envelope(a, b [2]float64) [2]float64 {
	return [2]float64{math.Min(a[0], b[0]), math.Max(a[1], b[1])}
}

func widen(b [2]float64, w float64) [2]float64 { return [2]float64{b[0] - w, b[1] + w} }

// scale applies a ratio band to a prediction.
func scale(v int64, b [2]float64) Band {
	return Band{int64(math.Floor(float64(v) * b[0])), int64(math.Ceil(float64(v) * b[1]))}
}

// bands sets r's bands from the embedded table (see BandTable).
func (c *config) bands(r *Result) { c.bandsFrom(embeddedBands(), r) }

func (c *config) bandsFrom(t *BandTable, r *Result) {
	cb, used, why := t.bandFor(c.bandClasses())
	// techniques modelled from library source (4-bit weights, eager
	// attention, compile, low-rank what-ifs) are no class of the table:
	// their stated widening goes on top of the class band
	notes, w := c.techniqueNotes()
	if w > 0 {
		cb.Reserved, cb.Allocated = widen(cb.Reserved, w), widen(cb.Allocated, w)
	}
	if u := c.arch.family().Unmeasured; u != "" {
		notes = append(notes, u)
	}
	r.Notes = append(r.Notes, notes...)
	r.Confidence = t.Confidence
	r.BandClasses = used
	r.AllocatedBand = scale(r.PeakAllocated, cb.Allocated)
	r.ReservedBand = scale(r.PeakReserved, cb.Reserved)
	ctxLo, ctxHi := t.ContextLow, t.ContextHigh
	if _, measured := t.Classes["gpu="+c.gpu.Name]; !measured {
		ctxLo, ctxHi = min(ctxLo, -scaledContextErr), max(ctxHi, scaledContextErr)
	}
	fixed := r.Context + r.NCCL
	r.ProcessBand = Band{r.ReservedBand.Low + fixed + ctxLo, r.ReservedBand.High + fixed + ctxHi}
	if len(why) > 0 {
		r.Notes = append(r.Notes, "uncertainty: "+strings.Join(why, "; "))
	}
}

// stepTimeBand sets r's step-time band from the table's step-time classes
// around the step time the step-time model wrote.
func (c *config) stepTimeBand(r *Result) { c.stepTimeBandFrom(embeddedBands(), r) }

func (c *config) stepTimeBandFrom(t *BandTable, r *Result) {
	b := t.StepTimePooled.StepTime
	if b == [2]float64{} {
		return // no step-time rows: keep the step-time model's own band
	}
	for _, k := range c.bandClasses() {
		cb, ok := t.StepTime[k]
		switch {
		case ok && cb.N >= t.MinRows:
			b = envelope(b, cb.StepTime)
		case strings.HasPrefix(k, "gpu="):
			// throughput figures of a GPU with no timing are data-sheet
			// peaks scaled by the H200's achieved share
			b = envelope(b, widen(t.StepTimePooled.StepTime, scaledGPUStepWiden))
		case !strings.HasPrefix(k, "family=") && !strings.HasPrefix(k, "optimizer="):
			// a family or optimizer changes step time less than an
			// unmeasured technique does
			b = envelope(b, widen(t.StepTimePooled.StepTime, unmeasuredWiden))
		}
	}
	r.StepTimeBand = [2]float64{r.StepTime * b[0], r.StepTime * b[1]}
}

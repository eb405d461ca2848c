// Package plan searches training configurations with memmodel: --fit finds
// the fastest configuration of a global batch whose process memory, at the
// top of its uncertainty band (memmodel's stated confidence), fits a GPU
// (less an optional margin) and explains why faster ones were rejected;
// --sweep draws the memory curve over batch size or sequence length.
package plan

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"

	"github.com/vramkit/vramkit/internal/memmodel"
	"github.com/vramkit/vramkit/internal/units"
)

// FitOptions tunes Fit.
type FitOptions struct {
	GlobalBatch int `json:"global_batch"`
	// Margin is a fraction of GPU memory kept free on top of the band's
	// top, which already carries the stated confidence.
	Margin float64 `json:"margin"`
	// Exact is how many of the best screened candidates are re-checked
	// with the allocator replay.
	Exact int `json:"exact"`
	// Strategy, when set, is the only sharding strategy searched over
	// several GPUs (one of SearchedStrategies); empty searches them all.
	Strategy string `json:"strategy,omitempty"`
	// precisions replaces the searched precisions (a Change pins one);
	// asIs stops a search from trying Changes of its own.
	precisions []string
	asIs       bool
}

// DefaultFitOptions keeps no margin beyond the band: the band's top is
// where the measured process memory of held-out runs fell at the stated
// confidence, and a further 10% had the planner reject runs that fit.
func DefaultFitOptions() FitOptions { return FitOptions{Margin: 0, Exact: 6} }

// Candidate is one configuration and its prediction.
type Candidate struct {
	Precision  string `json:"precision"`
	Checkpoint string `json:"checkpoint"`
	MicroBatch int    `json:"micro_batch"`
	Accum      int    `json:"accum"`
	Strategy   string `json:"strategy"`
	// ChannelsLast: the CNN and its images are channels-last.
	ChannelsLast bool    `json:"channels_last,omitempty"`
	Process      int64   `json:"process_bytes"`
	ProcessHi    int64   `json:"process_high_bytes"`
	StepTime     float64 `json:"step_time_s"`
	Throughput   float64 `json:"samples_per_s"`
	Fits         bool    `json:"fits"`
	// Verdict is the decision on ProcessHi against the budget, with the
	// confidence it is made at.
	Verdict memmodel.Verdict `json:"verdict"`
	Exact   bool             `json:"exact"` // reserved memory from the allocator replay
	// Spec is the candidate as a plan spec, to run or time it as is.
	Spec memmodel.Spec `json:"spec"`
}

// FitResult is the outcome of a search.
type FitResult struct {
	GPU  string `json:"gpu"`
	GPUs int    `json:"gpus"`
	// TP and PP are the tensor- and pipeline-parallel degrees every
	// candidate carries (1: none); the GPUs over them are the replicas
	// the global batch is shared by.
	TP          int         `json:"tp"`
	PP          int         `json:"pp"`
	GlobalBatch int         `json:"global_batch"`
	Budget      int64       `json:"budget_bytes"`
	Best        *Candidate  `json:"best"`
	Feasible    []Candidate `json:"feasible"`
	Rejected    []Candidate `json:"rejected_faster"`
	Explanation []string    `json:"explanation"`
	Searched    int         `json:"searched"`
	// AllowanceBasis says what every candidate's peak reserved adds to
	// the model's figure for untraced allocations (memmodel.Allowance).
	AllowanceBasis string `json:"reserved_allowance_basis,omitempty"`
	// HostScale is the spec's host_scale every candidate's step time
	// was priced with (0: the median lent host's).
	HostScale float64 `json:"host_scale,omitempty"`
	// Smallest is, when nothing fits, the least band top of any candidate.
	Smallest int64 `json:"smallest_high_bytes,omitempty"`
	// Changes are, when nothing fits as asked, the changes to the
	// training itself that would make something fit (changes.go).
	Changes []Change `json:"changes_tried,omitempty"`
}

// SearchedStrategies are the sharding strategies Fit tries over several
// GPUs, data-parallel replicas each taking an equal share of the batch.
var SearchedStrategies = []string{"ddp", "zero1", "zero2", "fsdp"}

// DataParallel is how many replicas share a global batch: the GPUs over
// the size of a tensor- and pipeline-parallel group (a tp group's ranks
// see the same micro-batch).
func DataParallel(p memmodel.Parallel) int {
	return max(p.GPUs, 1) / (max(p.TP, 1) * max(p.PP, 1))
}

// ErrNothingFits is returned when no configuration fits.
var ErrNothingFits = errors.New("no configuration fits")

// space enumerates the configurations to try, in the seeds' decision-tree
// order: precision first, then checkpointing, accumulation, sharding. A
// LoRA fine-tune (not quantised) also tries its frozen base in bfloat16
// ("bf16": the weights loaded in bf16, as LoRA recipes load them): the
// frozen weights take no update, so keeping no float32 copy of them costs
// no accuracy, and it halves their memory; for a mixture-of-experts model
// it also takes the experts off torch._grouped_mm's float32 fallback
// (expertsNote).
func space(base memmodel.Spec, arch memmodel.Arch, globalBatch int, bf16 bool, only []string, strategy string) []memmodel.Spec {
	precs := []string{"fp32", "fp16-amp"}
	if bf16 {
		precs = []string{"fp32", "bf16-amp", "fp16-amp"}
		if base.LoRA != nil && base.Quant == "" {
			precs = append(precs, "bf16")
		}
	}
	if only != nil {
		precs = only
	}
	ckpts := []string{"none", "block"}
	if arch.Attention() {
		ckpts = []string{"none", "selective", "block"}
	}
	gpus := base.Parallel.GPUs
	strategies := []string{"none"}
	switch {
	case gpus > 1 && strategy != "":
		strategies = []string{strategy}
	case gpus > 1:
		strategies = SearchedStrategies
	}
	layouts := []bool{base.ChannelsLast}
	if arch.ChannelsLast() && !base.Compile {
		// torch.compile picks its own layout (compile_step.go)
		layouts = []bool{false, true}
	}
	var out []memmodel.Spec
	perRank := globalBatch / max(DataParallel(base.Parallel), 1)
	for _, st := range strategies {
		// FSDP loaded the way the captures ran (model.to(device), then
		// fully_shard) first, then from the meta device: a model larger
		// than one GPU can only be loaded that way, and the two steps
		// cost the same, so the first that fits is kept
		inits := []string{base.Parallel.Init}
		if st == "fsdp" && base.Parallel.Init == "" {
			inits = []string{"", "meta"}
		}
		for _, in := range inits {
			for _, p := range precs {
				for _, ck := range ckpts {
					for _, cl := range layouts {
						for mb := 1; mb <= perRank; mb++ {
							// an accumulation Estimate refuses is no
							// candidate (a global batch of a million
							// would otherwise try hundreds)
							if perRank%mb != 0 || perRank/mb > memmodel.MaxAccum {
								continue
							}
							s := base
							s.Precision, s.Checkpoint, s.Batch, s.Accum = p, ck, mb, perRank/mb
							s.Parallel.Strategy, s.Parallel.Init, s.ChannelsLast = st, in, cl
							out = append(out, s)
						}
					}
				}
			}
		}
	}
	return out
}

// Fit searches every combination for the fastest configuration that fits.
func Fit(ctx context.Context, base memmodel.Spec, opts FitOptions) (*FitResult, error) {
	if opts.GlobalBatch <= 0 {
		return nil, fmt.Errorf("fit: global batch must be at least 1")
	}
	gpus := max(base.Parallel.GPUs, 1)
	if dp := DataParallel(base.Parallel); dp < 1 || opts.GlobalBatch%dp != 0 {
		return nil, fmt.Errorf("fit: global batch %d is not divisible by %d data-parallel replicas (%d GPUs)", opts.GlobalBatch, dp, gpus)
	}
	probe, err := memmodel.Estimate(base, memmodel.Options{Steps: 1, SkipReserved: true})
	if err != nil {
		return nil, err
	}
	arch, bf16, err := memmodel.Describe(base)
	if err != nil {
		return nil, err
	}
	budget, _ := memmodel.Budget(probe.Capacity, opts.Margin)
	res := &FitResult{GPU: probe.GPU, GPUs: gpus, TP: max(base.Parallel.TP, 1), PP: max(base.Parallel.PP, 1),
		GlobalBatch: opts.GlobalBatch, Budget: budget,
		AllowanceBasis: probe.ReservedAllowanceBasis, HostScale: base.HostScale}
	all, err := screen(ctx, space(base, arch, opts.GlobalBatch, bf16, opts.precisions, opts.Strategy), probe.Capacity, opts.Margin)
	if err != nil {
		return nil, err
	}
	res.Searched = len(all)
	sort.SliceStable(all, func(i, j int) bool { return all[i].Throughput > all[j].Throughput })
	exact := 0
	for i := range all {
		if !all[i].Fits || exact >= opts.Exact {
			continue
		}
		// two steps: the second is steady (optimizer state exists)
		r, err := memmodel.Estimate(all[i].Spec, memmodel.Options{Steps: 2})
		if err != nil {
			continue
		}
		all[i] = candidate(all[i].Spec, r, probe.Capacity, opts.Margin)
		all[i].Exact = true
		exact++
		if all[i].Fits {
			break
		}
	}
	for i := range all {
		if all[i].Fits {
			if res.Best == nil {
				b := all[i]
				res.Best = &b
			}
			res.Feasible = append(res.Feasible, all[i])
		} else if res.Best == nil {
			res.Rejected = append(res.Rejected, all[i])
		}
	}
	if res.Best == nil {
		res.Smallest = smallest(all)
		if !opts.asIs {
			res.Changes = changes(ctx, base, arch, bf16, opts)
		}
		within := ""
		if opts.Margin > 0 {
			within = fmt.Sprintf(" within %.3g%% margin", opts.Margin*100)
		}
		return res, fmt.Errorf("fit: %w on %s%s (smallest needs %s)", ErrNothingFits,
			res.GPU, within, units.Bytes(res.Smallest))
	}
	res.Explanation = explain(res, arch)
	return res, nil
}

// screen estimates every configuration of the search space on allocated
// memory with a typical allocator overhead, on every CPU (the estimates are
// independent; an 8-GPU search holds some 180; the workers take indices
// from a channel, as allocsim's Tune does), in the space's order; the
// best are re-checked with the replay by Fit. A configuration the model
// refuses is left out.
func screen(ctx context.Context, specs []memmodel.Spec, capacity int64, margin float64) ([]Candidate, error) {
	done := make([]*Candidate, len(specs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(specs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if ctx.Err() != nil {
					continue
				}
				s := specs[i]
				r, err := memmodel.Estimate(s, memmodel.Options{Steps: 1, SkipReserved: true, Warm: true})
				if err != nil {
					continue
				}
				c := candidate(s, r, capacity, margin)
				c.ProcessHi += int64(0.08 * float64(r.PeakAllocated))
				c.decide(capacity, margin)
				done[i] = &c
			}
		}()
	}
	for i := range specs {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var all []Candidate
	for _, c := range done {
		if c != nil {
			all = append(all, *c)
		}
	}
	return all, nil
}

func candidate(s memmodel.Spec, r *memmodel.Result, capacity int64, margin float64) Candidate {
	c := Candidate{Precision: s.Precision, Checkpoint: s.Checkpoint, MicroBatch: s.Batch, Accum: s.Accum,
		Strategy: s.Parallel.Strategy, ChannelsLast: s.ChannelsLast, Process: r.SteadyProcess, ProcessHi: r.ProcessHigh, StepTime: r.StepTime,
		Throughput: r.SamplesPerSec, Spec: s}
	c.Verdict.Confidence = r.Confidence
	c.decide(capacity, margin)
	return c
}

// decide judges the candidate on its band's top against the capacity less
// the margin (memmodel.Budget).
func (c *Candidate) decide(capacity int64, margin float64) {
	c.Verdict = memmodel.DecideWithin(c.Process, c.ProcessHi, capacity, margin, c.Verdict.Confidence)
	c.Fits = c.Verdict.Fits
}

func smallest(all []Candidate) int64 {
	var m int64 = -1
	for _, c := range all {
		if m < 0 || c.ProcessHi < m {
			m = c.ProcessHi
		}
	}
	return m
}

package plan

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/vramkit/vramkit/internal/memmodel"
	"github.com/vramkit/vramkit/internal/units"
)

// Change is a change to the training itself, one Fit never makes on its
// own because it alters the numerics, what is trained or the hardware,
// tried when nothing fits as asked.
type Change struct {
	Change string `json:"change"`
	// Caveat is what the change costs besides memory.
	Caveat string `json:"caveat"`
	// Best is the fastest configuration that fits with the change; nil
	// when even the change leaves nothing that fits, and Smallest is then
	// the least band top it reaches.
	Best     *Candidate `json:"best,omitempty"`
	Smallest int64      `json:"smallest_high_bytes,omitempty"`
}

// loraRank is the rank a LoRA fine-tune is tried at when nothing fits:
// the common default of PEFT recipes.
const loraRank = 16

// changes searches, each in its own Fit, the changes that apply to base:
// the optimizer's 8-bit twin, pure bfloat16 training, a LoRA and a QLoRA fine-tune,
// and more of the same GPU (the fewest of 2, 4, 8 or 16, above the GPUs
// given, that divides the global batch and fits, every sharding strategy
// searched; else the most tried). They run concurrently; the order is fixed.
func changes(ctx context.Context, base memmodel.Spec, arch memmodel.Arch, bf16 bool, opts FitOptions) []Change {
	type try struct {
		c    Change
		spec memmodel.Spec
		only []string
		gpus []int
	}
	var tries []try
	sub := opts
	sub.asIs = true
	if o, err := memmodel.LookupOptimizer(base.Optimizer); err == nil && o.Quantised != "" {
		s := base
		s.Optimizer = o.Quantised
		tries = append(tries, try{c: Change{Change: fmt.Sprintf("optimizer %s (its state in 8 bits)", o.Quantised),
			Caveat: "block-wise quantised state; usually matches the full-precision optimizer, but check the loss curve"}, spec: s})
	}
	if bf16 && base.LoRA == nil && base.Quant == "" {
		tries = append(tries, try{c: Change{Change: "precision bf16 (weights, gradients and optimizer state in bfloat16, no float32 master copy)",
			Caveat: "updates smaller than bfloat16's resolution of a weight are lost unless the optimizer compensates (Kahan summation, stochastic rounding)"},
			spec: base, only: []string{"bf16"}})
	}
	switch {
	case base.LoRA == nil && arch.Attention():
		s := base
		s.LoRA = &memmodel.LoRA{Rank: loraRank}
		tries = append(tries, try{c: Change{Change: fmt.Sprintf("LoRA rank %d on the family's default target modules", loraRank),
			Caveat: "trains adapters, not the model: a different fine-tune"}, spec: s})
		q := s
		q.Quant = "nf4"
		tries = append(tries, try{c: Change{Change: fmt.Sprintf("QLoRA: LoRA rank %d over the base weights in 4-bit NF4 (bitsandbytes)", loraRank),
			Caveat: "trains adapters over a quantised base: a different fine-tune, and dequantising costs step time"}, spec: q})
	case base.LoRA != nil && base.Quant == "" && arch.Attention():
		// a LoRA fine-tune that does not fit was offered only the 8-bit
		// optimizer and more GPUs, not the 4-bit base that shrinks the
		// weights it is stuck on (llama3-8b rank 16 on a T4)
		q := base
		q.Quant = "nf4"
		tries = append(tries, try{c: Change{Change: fmt.Sprintf("QLoRA: the same LoRA rank %d over the base weights in 4-bit NF4 (bitsandbytes)", base.LoRA.Rank),
			Caveat: "the frozen base quantised: dequantising costs step time, and the adapters train against a 4-bit base"}, spec: q})
	}
	if base.Parallel.TP <= 1 && base.Parallel.PP <= 1 {
		// data-parallel and sharded strategies on more of the same GPU
		var more []int
		for _, n := range []int{2, 4, 8, 16} {
			if n > base.Parallel.GPUs {
				more = append(more, n)
			}
		}
		if len(more) > 0 {
			tries = append(tries, try{spec: base, gpus: more})
		}
	}
	out := make([]Change, len(tries))
	keep := make([]bool, len(tries))
	var wg sync.WaitGroup
	for i, t := range tries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := sub
			o.precisions = t.only
			if t.gpus == nil {
				out[i], keep[i] = t.c, true
				res, err := Fit(ctx, t.spec, o)
				if err == nil {
					out[i].Best = res.Best
				} else if res != nil {
					out[i].Smallest = res.Smallest
				} else {
					keep[i] = false
				}
				return
			}
			for _, n := range t.gpus {
				if opts.GlobalBatch%n != 0 {
					continue
				}
				s := t.spec
				s.Parallel.GPUs, s.Parallel.Strategy = n, cmp.Or(opts.Strategy, "ddp")
				res, err := Fit(ctx, s, o)
				if res == nil {
					return
				}
				searched := "every sharding strategy"
				if opts.Strategy != "" {
					searched = opts.Strategy
				}
				out[i], keep[i] = Change{Change: fmt.Sprintf("%d × %s, %s", n, res.GPU, searched),
					Caveat: "more GPUs; sharded strategies add communication", Best: res.Best, Smallest: res.Smallest}, true
				if err == nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	var kept []Change
	for i := range out {
		if keep[i] {
			kept = append(kept, out[i])
		}
	}
	return kept
}

// WriteNoFitText renders a search in which nothing fits: the smallest
// need, then each change that was tried and what it makes fit.
func WriteNoFitText(w io.Writer, res *FitResult) {
	fmt.Fprintf(w, "searched %d configurations for global batch %d on %d × %s%s (budget %s)%s: none fits; the smallest needs %s at its band's top\n",
		res.Searched, res.GlobalBatch, res.GPUs, res.GPU, groups(res), units.Bytes(res.Budget), hostNote(res), units.Bytes(res.Smallest))
	if len(res.Changes) == 0 {
		return
	}
	fmt.Fprintf(w, "\nchanges to the training that were tried:\n")
	for _, c := range res.Changes {
		fmt.Fprintf(w, "  %s\n", c.Change)
		if c.Best == nil {
			fmt.Fprintf(w, "    still does not fit: the smallest needs %s\n", units.Bytes(c.Smallest))
			continue
		}
		fmt.Fprintf(w, "    fits: %s\n    %s; step %.3f s, %s samples/s\n", describe(*c.Best),
			strings.TrimSpace(c.Best.Verdict.Text), c.Best.StepTime, units.Rate(c.Best.Throughput))
		fmt.Fprintf(w, "    caveat: %s\n", c.Caveat)
	}
}

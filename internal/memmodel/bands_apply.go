package memmodel

import (
	"fmt"
	"math"
	"strings"

	"github.com/vramkit/vramkit/internal/units"
)

// bands sets r's bands from the embedded table (see BandTable).
func (c *config) bands(r *Result) { c.bandsFrom(embeddedBands(), r) }

func (c *config) bandsFrom(t *BandTable, r *Result) {
	applyAllowance(t.Allowance, r)
	risk, riskWhy := t.Risk(c.bandClasses())
	cb, used, why := t.bandFor(c.bandClasses(), risk)
	// techniques modelled from library source (4-bit weights, compile,
	// low-rank what-ifs) are no class of the table: their stated widening
	// goes on top of the class band
	notes, w := c.techniqueNotes(t)
	if w > 0 {
		cb.Reserved, cb.Allocated = widen(cb.Reserved, w), widen(cb.Allocated, w)
	}
	if risk > 0 {
		// the level's band beside level 0's, both with the techniques'
		// widening: the note says how much wider the level makes it
		plain, _, _ := t.bandFor(c.bandClasses(), 0)
		if w > 0 {
			plain.Reserved = widen(plain.Reserved, w)
		}
		why = append([]string{riskNote(riskWhy, risk, cb.Reserved, plain.Reserved)}, why...)
	}
	if u := c.arch.family().Unmeasured; u != "" {
		notes = append(notes, u)
	}
	r.Notes = append(r.Notes, notes...)
	r.Confidence = t.Confidence
	r.BandClasses = used
	r.AllocatedBand = scale(r.PeakAllocated, cb.Allocated)
	r.ReservedBand = scale(r.PeakReserved, cb.Reserved)
	if r.ReservedAllowance > 0 {
		// the allowance's fixed bytes stand for a segment or two a real
		// program may not make: the low end is taken from the figure
		// without them, which matters where they are a large share of a
		// small run's peak (BERT-tiny: 28 MiB of its 0.33 GiB)
		r.ReservedBand.Low = min(r.ReservedBand.Low, scale(r.PeakReserved-t.Allowance.Bytes, cb.Reserved).Low)
	}
	if v := r.LogitsSplitReserved + t.Allowance.Of(r.LogitsSplitReserved); v > r.PeakReserved {
		// a known alternative placement: where the GPU took it often
		// enough on comparable runs, the band reaches the variant's
		// prediction times the same top ratio (bench/bands scores each
		// row against this top, so the runs it explains do not widen
		// their classes)
		sr := t.SplitReach(c.bandClasses())
		switch hi := scale(v, cb.Reserved).High; {
		case sr.Reach && hi > r.ReservedBand.High:
			r.ReservedBand.High = hi
			r.Notes = append(r.Notes, fmt.Sprintf("the reserved band's top allows for %s, if cuBLAS's backward workspace splits a freed fp32 logits block (seen on %s)", units.Bytes(v), sr))
		case !sr.Reach && v > r.ReservedBand.High:
			// (a variant the band already holds needs no note)
			r.Notes = append(r.Notes, fmt.Sprintf("reserved could reach %s if cuBLAS's backward workspace splits a freed fp32 logits block; not in the band: seen on %s", units.Bytes(v), sr))
		}
	}
	if r.ReleaseReserved > 0 {
		// the coin NCCL tosses for DDP (generateSchedule): the bands'
		// low ends are the release figures' (bench/bands scores each row
		// against them, so runs that released do not widen their classes)
		v := r.ReleaseReserved + t.Allowance.Of(r.ReleaseReserved)
		r.ReservedBand.Low = min(r.ReservedBand.Low, scale(v, cb.Reserved).Low)
		r.AllocatedBand.Low = min(r.AllocatedBand.Low, scale(r.ReleaseAllocated, cb.Allocated).Low)
		r.Notes = append(r.Notes, fmt.Sprintf("the bands' low ends allow for %s reserved (%s allocated): the peak when NCCL lets DDP's construction-time gradient buffer go as the buckets are rebuilt, as 12 of 17 runs measured did", units.Bytes(v), units.Bytes(r.ReleaseAllocated)))
	}
	// reserved memory is never below allocated, at any instant nor at
	// the peak: a reserved band that starts (or ends) below the allocated
	// one's says something the allocator cannot do (helper-117's audit:
	// llama3-8b FSDP on four A100-40s printed allocated 35.4–39.4 GiB,
	// reserved 34.6–54.2 GiB)
	r.ReservedBand.Low = max(r.ReservedBand.Low, r.AllocatedBand.Low)
	r.ReservedBand.High = max(r.ReservedBand.High, r.AllocatedBand.High)
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
	host, pos := 0, math.Inf(-1)
	if d := r.StepDetail; d != nil {
		host, pos = StepHostLevel(d.HostS, d.GPUS), StepHostPosition(d.HostS, d.GPUS)
	}
	b, used := t.StepBand(c.bandClasses(), pos)
	if b == [2]float64{} {
		return // no step-time rows: keep the step-time model's own band
	}
	r.StepTimeBandClasses = used
	if c.spec.Compile {
		var note string
		b, note = compiledStepBand(c.convNet(), b)
		r.Notes = append(r.Notes, note)
	}
	if t.MaxStepSeq > 0 && !c.arch.Vision() && c.seq > int64(t.MaxStepSeq) {
		b = widen(b, unmeasuredWiden)
		r.Notes = append(r.Notes, fmt.Sprintf("no timed step ran sequences longer than %d tokens (this one: %d): step-time band widened by %.0f%% each side", t.MaxStepSeq, c.seq, 100*unmeasuredWiden))
	}
	r.StepTimeBand = [2]float64{r.StepTime * b[0], r.StepTime * b[1]}
	if host > 0 {
		r.Notes = append(r.Notes, stepHostNote(r.StepDetail, host, b))
	}
}

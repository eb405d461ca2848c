package memmodel

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/vramkit/vramkit/internal/gpu"
)

// The band lookup: which classes a configuration's band rests on and the
// envelope of their bands.

// bandFor is the envelope of the bands of the classes that set a
// configuration apart, which classes it rests on (with their row counts)
// and the reasons for any widening: the least certain thing about a
// configuration sets its band. A class holding more than half of all rows
// (a default value: no LoRA, no parallelism, the GPU everything was
// measured on) says little about the configuration and is left out; when
// no class is left, the pooled band applies. A dimension value with too
// few held-out rows adds the pooled band widened by a stated amount.
//
// Taking only the most specific class instead covered fewer rows than the
// stated confidence when each row was left out in turn (bench/bands).
func (t *BandTable) bandFor(classes []string, risk int) (cb ClassBand, used []string, why []string) {
	set := BandSet{Pooled: t.Pooled, Classes: t.Classes}
	ckpt := Checkpointed(classes)
	return set.bandFor(classes, t.MinRows, func(b ClassBand) [2][2]float64 {
		r := b.Reserved
		if risk > 0 && len(b.ReservedRisk) >= risk {
			r = b.ReservedRisk[risk-1]
		}
		if ckpt && risk < len(b.ReservedCheckpointLow) && b.ReservedCheckpointLow[risk] > 0 {
			r[0] = b.ReservedCheckpointLow[risk]
		}
		return [2][2]float64{r, b.Allocated}
	}, true)
}

// Band is the band of a configuration of classes (as BandClasses names
// them) on peak reserved and peak allocated memory, as ratios
// measured/predicted, and the classes it rests on: what plan applies
// before technique widenings. bench/bands calls it to measure coverage
// with each row left out.
func (t *BandTable) Band(classes []string) (reserved, allocated [2]float64, basis []string) {
	risk, _ := t.Risk(classes)
	return t.RiskBand(classes, risk)
}

// RiskBand is Band with the configuration's risk given (bench/bands
// scores each row with the risk it had when it was first seen).
func (t *BandTable) RiskBand(classes []string, risk int) (reserved, allocated [2]float64, basis []string) {
	cb, used, _ := t.bandFor(classes, risk)
	return cb.Reserved, cb.Allocated, used
}

// StepBand is Band for step time, at a host position (StepHostPosition):
// each class's band between its host levels' (stepLevelWeights),
// geometric between two levels' ends.
func (t *BandTable) StepBand(classes []string, pos float64) ([2]float64, []string) {
	if t.StepTimePooled.StepTime == [2]float64{} {
		return [2]float64{}, nil
	}
	lo, hi, w := stepLevelWeights(pos)
	set := BandSet{Pooled: t.StepTimePooled, Classes: t.StepTime}
	cb, used, _ := set.bandFor(classes, t.MinRows, func(b ClassBand) [2][2]float64 {
		a, z := b.stepLevel(lo), b.stepLevel(hi)
		return [2][2]float64{{geoBetween(a[0], z[0], w), geoBetween(a[1], z[1], w)}}
	}, false)
	return cb.StepTime, used
}

// geoBetween is a^(1−w)·z^w, or a where either is not positive (a class
// without a band of its own).
func geoBetween(a, z, w float64) float64 {
	if a <= 0 || z <= 0 {
		return a
	}
	return a * math.Pow(z/a, w)
}

// stepLevel is the class's step band at host level l: StepTime at 0,
// StepTimeHost's above where the table has them.
func (b ClassBand) stepLevel(l int) [2]float64 {
	if l > 0 && len(b.StepTimeHost) >= l {
		return b.StepTimeHost[l-1]
	}
	return b.StepTime
}

// GenerateBand is Band for the inference planner's generate classes; ok
// is false when the table has no generate rows.
func (t *BandTable) GenerateBand(classes []string) (reserved, allocated [2]float64, basis, why []string, ok bool) {
	if t.Generate == nil || t.Generate.Pooled.N == 0 {
		return reserved, allocated, nil, nil, false
	}
	cb, used, why := t.Generate.bandFor(classes, t.MinRows, func(b ClassBand) [2][2]float64 { return [2][2]float64{b.Reserved, b.Allocated} }, true)
	return cb.Reserved, cb.Allocated, used, why, true
}

// bandFor is the envelope over classes of the bands get picks from each
// ClassBand (reserved and allocated, or step time); the result carries
// them in the same fields. memory says which fields: Reserved/Allocated or
// StepTime.
func (set BandSet) bandFor(classes []string, minRows int, get func(ClassBand) [2][2]float64, memory bool) (cb ClassBand, used []string, why []string) {
	var b [2][2]float64
	first := true
	var widenedFor []string // classes that took the widened pooled band
	take := func(v [2][2]float64) {
		if first {
			b, first = v, false
			return
		}
		b = [2][2]float64{envelope(b[0], v[0]), envelope(b[1], v[1])}
	}
	pooled := get(set.Pooled)
	for _, k := range classes {
		c, ok := set.Classes[k]
		switch {
		case ok && c.N >= minRows:
			if 2*c.N <= set.Pooled.N {
				take(get(c))
				used = append(used, fmt.Sprintf("%s (%d rows)", k, c.N))
			}
			continue
		case ok && c.N > 0 && (!memory || max(c.N, c.Measured) >= minRows):
			// too few rows to stand alone (for memory, of its own: its
			// technique runs were measured): the class's band (already
			// shrunk toward the pooled one) joined with the pooled band
			take(get(c))
			take(pooled)
			used = append(used, fmt.Sprintf("%s (%d rows, with the pooled %d)", k, c.N, set.Pooled.N))
			continue
		case ok && c.N > 0:
			// too few rows to know the class's spread (tensor parallelism:
			// +0.2% and +17% on its two runs): its band and the pooled
			// band widened as for a class with none, and it says so
			take(get(c))
			take([2][2]float64{widen(pooled[0], unmeasuredWiden), widen(pooled[1], unmeasuredWiden)})
			used = append(used, fmt.Sprintf("%s (%d rows)", k, c.N))
			why = append(why, fmt.Sprintf("%s: only %d held-out captures (%d needed to measure a spread), band widened by %.0f%% each side", k, max(c.N, c.Measured), minRows, 100*unmeasuredWiden))
			continue
		}
		if !memory && (strings.HasPrefix(k, "family=") || strings.HasPrefix(k, "optimizer=")) {
			// a family or optimizer changes step time less than an
			// unmeasured technique does: its per-op costs are measured
			continue
		}
		w, reason := unmeasuredWiden, "no held-out capture"
		if name, ok := strings.CutPrefix(k, "gpu="); ok {
			w, reason = scaledGPUWiden, "no capture on this GPU: its figures are scaled from the GPU table"
			if !memory {
				w = ScaledGPUStepWiden
			} else if ref := memoryTwin(name, set.Classes); ref != "" {
				w, reason = twinGPUWiden, "memory measured on "+ref+", which this GPU matches in architecture and SMs (the same kernels, workspaces and allocator: 91 workloads re-run on an H100 peaked within 0.9% of their H200 figures, testdata/late61)"
			}
		}
		take([2][2]float64{widen(pooled[0], w), widen(pooled[1], w)})
		widenedFor = append(widenedFor, k)
		why = append(why, fmt.Sprintf("%s: %s, band widened by %.0f%% each side", k, reason, 100*w))
	}
	switch {
	case first:
		b, used = pooled, []string{fmt.Sprintf("pooled (%d rows)", set.Pooled.N)}
	case len(used) == 0:
		// every class was a default or unmeasured: the band is the
		// pooled one widened, and says so (it named nothing: JSON's
		// band_classes was null for a generate plan on an RTX 4090)
		used = []string{fmt.Sprintf("pooled (%d rows, widened for %s)", set.Pooled.N, strings.Join(widenedFor, ", "))}
	}
	sort.Strings(used)
	if memory {
		cb.Reserved, cb.Allocated = b[0], b[1]
	} else {
		cb.StepTime = b[0]
	}
	return cb, used, why
}

// memoryTwin is the measured GPU (a gpu= class of classes) whose memory
// figures stand for GPU name's: the same compute capability and SM count,
// so the same cuBLAS workspaces, cuDNN choices and allocator. "" if none
// or name is not in the GPU table.
func memoryTwin(name string, classes map[string]ClassBand) string {
	g, err := gpu.Lookup(name)
	if err != nil || g.ComputeCapability == 0 {
		return ""
	}
	var twins []string
	for k := range classes {
		ref, ok := strings.CutPrefix(k, "gpu=")
		if !ok || ref == g.Name {
			continue
		}
		if r, err := gpu.Lookup(ref); err == nil && r.ComputeCapability == g.ComputeCapability && r.SMs == g.SMs {
			twins = append(twins, r.Name)
		}
	}
	sort.Strings(twins)
	if len(twins) == 0 {
		return ""
	}
	return twins[0]
}

func envelope(a, b [2]float64) [2]float64 {
	if b == [2]float64{} {
		return a
	}
	return [2]float64{math.Min(a[0], b[0]), math.Max(a[1], b[1])}
}

func widen(b [2]float64, w float64) [2]float64 {
	if b == [2]float64{} {
		return b
	}
	return [2]float64{math.Max(b[0]-w, 0), b[1] + w}
}

// scale applies a ratio band to a prediction.
func scale(v int64, b [2]float64) Band {
	return Band{int64(math.Floor(float64(v) * b[0])), int64(math.Ceil(float64(v) * b[1]))}
}

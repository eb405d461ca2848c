package main

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// techniqueDefaults are the values of the technique dimensions a plain
// run has: a row with any other value is a technique row.
var techniqueDefaults = map[string]string{"checkpoint": "none", "lora": "no", "parallel": "none", "optimizer": "adamw"}

// statClasses are the classes whose centre and spread a row's error
// counts toward. A technique row's error is the technique's: it counts
// toward its technique classes (and the GPU's), not toward its family,
// kind or precision, whose spread would otherwise carry every
// technique's misses to every plain run of the family.
// stats are statClasses when attr, else classes.
func stats(classes []string, attr bool) []string {
	if attr {
		return statClasses(classes)
	}
	return classes
}

func statClasses(classes []string) []string {
	tech := false
	for _, c := range classes {
		dim, val, _ := strings.Cut(c, "=")
		if d, ok := techniqueDefaults[dim]; (ok && val != d) || dim == "attn" || dim == "alloc_conf" || dim == "lengths" || c == "precision=bf16" {
			tech = true
		}
	}
	if !tech {
		return classes
	}
	var out []string
	for _, c := range classes {
		model := strings.HasPrefix(c, "family=") || strings.HasPrefix(c, "kind=") ||
			strings.HasPrefix(c, "precision=") && c != "precision=bf16"
		if !model {
			out = append(out, c)
		}
	}
	return out
}

// setFit is one set of per-class bands and the quantiles behind them.
type setFit struct {
	set memmodel.BandSet
	q   [2]float64   // of the main quantity
	qr  [][2]float64 // of the main quantity at risk levels 1, 2 (training memory)
	qa  [2]float64   // of allocated (memory sets)
	// qck are the low quantiles of checkpointed rows at each risk level
	// (NaN: the level's own; training memory only, nil elsewhere)
	qck  []float64
	pool locScale
}

// statLists are the classes each sample counts toward: with attr,
// statClasses, except that a model class no plain row has (ResNet-50 was
// captured only with checkpointing) counts every row of it.
func statLists(ss []sample, attr bool) [][]string {
	out := make([][]string, len(ss))
	has := map[string]bool{}
	for i, s := range ss {
		out[i] = stats(s.classes, attr)
		for _, c := range out[i] {
			has[c] = true
		}
	}
	for i, s := range ss {
		for _, c := range s.classes {
			if !has[c] {
				out[i] = append(out[i], c)
			}
		}
	}
	return out
}

// groupsOf indexes samples by the classes they count toward.
func groupsOf(st [][]string) groups {
	g := groups{}
	for i, cs := range st {
		g[""] = append(g[""], i)
		for _, c := range cs {
			g[c] = append(g[c], i)
		}
	}
	return g
}

// groupIDs numbers the rows of ss by their capture set (bySet) or each
// row apart (the leave-one-row-out rule of session 7).
func groupIDs(ss []sample, bySet bool) []int {
	ids := map[string]int{}
	out := make([]int, len(ss))
	for i, s := range ss {
		if !bySet {
			out[i] = i
			continue
		}
		id, ok := ids[s.group]
		if !ok {
			id = len(ids)
			ids[s.group] = id
		}
		out[i] = id
	}
	return out
}

// fitSet computes every class's band of ss. bySet says the shared
// quantiles standardise each row without its whole capture set (see
// sharedQuantiles), else without the row alone. alloc says whether xa is
// measured (memory sets); step whether the bands go in the StepTime
// field; attr whether technique rows count only toward their technique
// classes (statClasses: training memory, where it halved the bands of
// plain runs at the same leave-one-out coverage; step time, whose
// technique errors are not separate, and generate, which has no
// techniques, count every row toward all its classes).
func fitSet(ss []sample, minRows int, conf float64, bySet, alloc, step, attr bool) setFit {
	st := statLists(ss, attr)
	g := groupsOf(st)
	cls0 := make([][]string, len(ss))
	for i, s := range ss {
		cls0[i] = s.classes
	}
	all := groupsOf(cls0) // the split rate's rows: every row toward all its classes
	xs, xa, vs, fs := make([]float64, len(ss)), make([]float64, len(ss)), make([]float64, len(ss)), make([]float64, len(ss))
	vls, vla, fa := make([]float64, len(ss)), make([]float64, len(ss)), make([]float64, len(ss))
	rs, ra := make([]float64, len(ss)), make([]float64, len(ss)) // the errors left once variants are allowed for
	cls := make([][]string, len(ss))
	for i, s := range ss {
		xs[i], xa[i], vs[i], fs[i], cls[i] = s.x, s.xa, s.v, s.f, s.classes
		vls[i], vla[i], fa[i] = s.vl, s.vla, -s.vla
		rs[i], ra[i] = resid(s.x, s.v, s.vl), resid(s.xa, 0, s.vla)
	}
	grp := groupIDs(ss, bySet)
	// every quantity scores on first-sight errors where recorded
	// (firstsight.go). Step time did on its errors now until its bands
	// were split by host level (bands13): with 152 first-sight step
	// errors the host levels' own quantiles come from what plan printed
	// on a new configuration, the GPU-bound level's from 90 of them
	sc := make([]float64, len(ss))
	for i, s := range ss {
		sc[i] = s.score()
	}
	// training memory: by risk level (memmodel's bands_risk.go), the
	// checkpointed rows' low side by itself (memmodel's Checkpointed);
	// step time: by host level (memmodel's StepHostLevel)
	var risk []int
	var ckpt []bool
	if attr || step {
		risk = make([]int, len(ss))
		for i, s := range ss {
			risk[i] = s.risk
		}
	}
	if attr {
		ckpt = make([]bool, len(ss))
		for i, s := range ss {
			ckpt[i] = memmodel.Checkpointed(s.classes)
		}
	}
	// step time: each class keeps its centre (its bias: a class the
	// model under-predicts gets a higher top) and takes the pooled
	// spread. Its own spread times the shared quantiles counted the tail
	// twice: the quantiles' top (+7 spreads) is set by host-bound rows of
	// classes the model times closely, and times checkpointing's spread
	// (0.105) it put the checkpointed top at ×2.17 of the prediction,
	// where the largest checkpointed step time measured is ×1.45. With
	// the pooled spread, each capture set left out, the checkpointed
	// blind rows' median half-width is 41% (was 100%) with 15 of 16
	// inside (16), LoRA's 42% (97%) with 6 of 6; every blind row 112 of
	// 116 (111) and every row 200 of 210 (200). The cost: 4 of the 14
	// checkpointed development rows, over-predicted (measured 0.81–0.83×
	// the prediction), fall below the band's low end (0.84–0.87)
	q, ck := sharedQuantiles(xs, sc, vs, vls, fs, cls, st, grp, risk, ckpt, riskLevels, minRows, conf, !step, !step, step)
	f := setFit{q: q[0], qr: q[1:], pool: robustLS(rs)}
	if attr {
		f.qck = ck
	}
	poolA := robustLS(ra)
	if alloc {
		// the logits-split variant moves reserved memory only; DDP's
		// release figure both
		qa, _ := sharedQuantiles(xa, xa, make([]float64, len(xa)), vla, fa, cls, st, grp, nil, nil, 1, minRows, conf, true, false, false)
		f.qa = qa[0]
	}
	f.set.Classes = map[string]memmodel.ClassBand{}
	keys := make([]string, 0, len(g))
	for k := range g {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		idx := g[k]
		if step && k != "" && setsOf(idx, grp) < 2 {
			continue // one capture set's host is not the class's centre (dropOneSetClasses)
		}
		var x, r, a []float64
		var names []string
		for _, i := range idx {
			x, r, a = append(x, xs[i]), append(r, rs[i]), append(a, ra[i])
			names = append(names, ss[i].name)
		}
		ls := classLS(r, f.pool)
		if step {
			ls.s = math.Max(f.pool.s, minScale) // the pooled spread (see above)
		}
		cb := memmodel.ClassBand{N: len(idx), Centre: round4(ls.m), Scale: round4(ls.s)}
		cb.SplitRows, cb.SplitTaken = splitCounts(ss, all[k])
		var techIdx []int
		for _, i := range all[k] {
			if memmodel.SplitTechnique(ss[i].classes) {
				techIdx = append(techIdx, i)
			}
		}
		cb.SplitTechRows, cb.SplitTechTaken = splitCounts(ss, techIdx)
		cb.Measured = len(all[k])
		cb.MedianErr, cb.MedianAbsErr = errStats(x)
		ext := r // the cap by measured extremes: training memory only (see ratioBand)
		if !attr {
			ext = nil
		}
		band := ratioBand(ls, f.q, ext, f.pool)
		if step {
			cb.StepTime = band
		} else {
			cb.Reserved = band
		}
		for _, q := range f.qr {
			if step {
				cb.StepTimeHost = append(cb.StepTimeHost, ratioBand(ls, q, ext, f.pool))
				continue
			}
			cb.ReservedRisk = append(cb.ReservedRisk, ratioBand(ls, q, ext, f.pool))
		}
		if own := ckptLows(ls, f, ext); own != nil {
			cb.ReservedCheckpointLow = own
		}
		if alloc {
			exa := a
			if !attr {
				exa = nil
			}
			cb.Allocated = ratioBand(classLS(a, poolA), f.qa, exa, poolA)
		}
		if k == "" {
			f.set.Pooled = cb
			continue
		}
		sort.Strings(names)
		cb.Rows = names
		f.set.Classes[k] = cb
	}
	return f
}

// ckptLows are a class's low ends of a checkpointed configuration's
// reserved band at each risk level, 0 where the level's own applies; nil
// when no level has its own.
func ckptLows(ls locScale, f setFit, ext []float64) []float64 {
	var out []float64
	any := false
	for l, q := range f.qck {
		v := 0.0
		if !math.IsNaN(q) {
			qs := f.q
			if l > 0 {
				qs = f.qr[l-1]
			}
			v, any = ratioBand(ls, [2]float64{q, qs[1]}, ext, f.pool)[0], true
		}
		out = append(out, v)
	}
	if !any {
		return nil
	}
	return out
}

// splitCounts are how many of the rows idx of ss had the logits-split
// variant and how many of those took it.
func splitCounts(ss []sample, idx []int) (rows, taken int) {
	for _, i := range idx {
		if possible, took := ss[i].split(); possible {
			rows++
			if took {
				taken++
			}
		}
	}
	return rows, taken
}

// kind of set, for the table it goes in and the band it is read back with.
type kind int

const (
	memKind kind = iota
	stepKind
	genKind
)

// place puts a fitted set where t keeps sets of kind k.
func place(t *memmodel.BandTable, k kind, f setFit) {
	switch k {
	case memKind:
		t.Pooled, t.Classes = f.set.Pooled, f.set.Classes
		t.Quantiles["reserved"], t.Quantiles["allocated"] = roundQ(f.q), roundQ(f.qa)
		for i, q := range f.qr {
			t.Quantiles[fmt.Sprintf("reserved_risk%d", i+1)] = roundQ(q)
		}
		for i, q := range f.qck {
			if !math.IsNaN(q) {
				t.Quantiles[fmt.Sprintf("reserved_risk%d_checkpoint_low", i)] = roundQ([2]float64{q, q})
			}
		}
	case stepKind:
		t.StepTimePooled, t.StepTime = f.set.Pooled, f.set.Classes
		t.Quantiles["step_time"] = roundQ(f.q)
		for i, q := range f.qr {
			t.Quantiles[fmt.Sprintf("step_time_host%d", i+1)] = roundQ(q)
		}
	case genKind:
		set := f.set
		t.Generate = &set
		t.Quantiles["generate_reserved"], t.Quantiles["generate_allocated"] = roundQ(f.q), roundQ(f.qa)
	}
}

func roundQ(q [2]float64) [2]float64 { return [2]float64{round4(q[0]), round4(q[1])} }

// bandOf is the band plan applies to sample s with t, read back the way
// memmodel and infer read it: the main quantity's ratios, and the classes
// it rests on.
func bandOf(t *memmodel.BandTable, k kind, s sample) ([2]float64, []string) {
	classes, risk := s.classes, s.risk
	switch k {
	case stepKind:
		return t.StepBand(classes, s.host)
	case genKind:
		r, _, basis, _, _ := t.GenerateBand(classes)
		return r, basis
	}
	r, _, basis := t.RiskBand(classes, risk)
	return r, basis
}

// setsOf is how many capture sets the rows idx come from.
func setsOf(idx, grp []int) int {
	seen := map[int]bool{}
	for _, i := range idx {
		seen[grp[i]] = true
	}
	return len(seen)
}

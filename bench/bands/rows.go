package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/infer"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// row is one measured workload with the plan spec that describes it.
type row struct {
	Name   string
	Source string
	Spec   memmodel.Spec
	// measured figures; Process is NVML's process memory (0 if not
	// recorded)
	Allocated, Reserved, Process int64
}

// skipped is a row that has no plan spec, and why.
type skipped struct{ Name, Why string }

// loadSpecDir reads an unseen/blind-style set: results.jsonl rows whose
// plan specs are specs/NAME.json, and dist/*-r0.json rank-0 rows of
// multi-GPU runs (spec specs/dist-NAME.json).
func loadSpecDir(dir string) ([]row, []skipped, error) {
	rs, err := measured.ReadGTRows(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		return nil, nil, err
	}
	dist, _ := filepath.Glob(filepath.Join(dir, "dist", "*-r0.json"))
	for _, f := range dist {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		var r measured.GTRow
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", f, err)
		}
		r.Name = "dist-" + r.Name
		rs = append(rs, r)
	}
	var out []row
	var skip []skipped
	for _, r := range rs {
		f, err := os.Open(filepath.Join(dir, "specs", r.Name+".json"))
		if err != nil {
			skip = append(skip, skipped{r.Name, "no spec file"})
			continue
		}
		s, err := memmodel.ParseSpec(f)
		f.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", r.Name, err)
		}
		out = append(out, row{Name: r.Name, Source: dir, Spec: s, Allocated: r.MaxAllocated, Reserved: r.MaxReserved, Process: r.NVMLUsed})
	}
	return out, skip, nil
}

// loadGTDir reads a capture group of bench/gpu/gt (results.jsonl),
// translating each row into a plan spec.
func loadGTDir(dir string) ([]row, []skipped, error) {
	rs, err := measured.ReadGTRows(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		return nil, nil, err
	}
	var out []row
	var skip []skipped
	lesser := measured.LesserStages(rs)
	for _, r := range rs {
		s, why := measured.GTSpec(r)
		if lesser[r.Name] {
			why = "a pipeline stage below its run's fullest: plan's figure is the fullest stage's"
		}
		if why != "" {
			skip = append(skip, skipped{r.Name, why})
			continue
		}
		out = append(out, row{Name: r.Name, Source: dir, Spec: s, Allocated: r.MaxAllocated, Reserved: r.MaxReserved, Process: r.NVMLUsed})
	}
	return out, skip, nil
}

// load reads a set of either layout.
func load(dir string) ([]row, []skipped, error) {
	if _, err := os.Stat(filepath.Join(dir, "specs")); err == nil {
		return loadSpecDir(dir)
	}
	return loadGTDir(dir)
}

// predicted is a row next to its prediction.
type predicted struct {
	row
	classes []string
	res     *memmodel.Result
}

// predictAll predicts every row of dirs with the committed table; skip
// reports rows that have no spec or whose spec the planner rejects. The
// estimates run on every CPU (memmodel.Estimate shares nothing between
// calls; plan's search runs it the same way) and the rows come out in the
// order of the sets; rows without a spec are reported before the rows the
// planner rejects.
func predictAll(dirs []string, skip func(name, why string)) ([]predicted, error) {
	var todo []row
	seen := map[string]bool{}
	for _, d := range dirs {
		rows, skipped, err := load(d)
		if err != nil {
			return nil, err
		}
		for _, s := range skipped {
			skip(s.Name, s.Why)
		}
		for _, r := range rows {
			// one workload captured in two sets (ConvNeXt-T fp32 in
			// unseen and optim) is one row
			key := fmt.Sprint(r.Name, r.Reserved, r.Allocated)
			if seen[key] {
				continue
			}
			seen[key] = true
			todo = append(todo, r)
		}
	}
	res, errs := make([]*memmodel.Result, len(todo)), make([]error, len(todo))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(todo), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				res[i], errs[i] = memmodel.Estimate(todo[i].Spec, memmodel.DefaultOptions())
			}
		}()
	}
	for i := range todo {
		next <- i
	}
	close(next)
	wg.Wait()
	var out []predicted
	for i, r := range todo {
		if errs[i] != nil {
			skip(r.Name, errs[i].Error())
			continue
		}
		cl, _ := memmodel.BandClasses(r.Spec)
		out = append(out, predicted{r, cl, res[i]})
	}
	return out, nil
}

// memorySamples are the training rows' log errors of peak reserved and
// allocated, the range of process memory less what the table accounts
// for, and the rows taken from each set.
func memorySamples(root string, logf func(string, ...any)) ([]sample, [2]int64, map[string]int, error) {
	var dirs []string
	for _, s := range sets {
		dirs = append(dirs, rel(root, s.Dir))
	}
	ps, err := predictAll(dirs, func(name, why string) { logf("skip %-44s %s\n", name, why) })
	if err != nil {
		return nil, [2]int64{}, nil, err
	}
	fs, err := readFirstSight(root, trainingTable)
	if err != nil {
		return nil, [2]int64{}, nil, err
	}
	var out []sample
	var ctx [2]int64
	first := true
	counts := map[string]int{}
	for _, p := range ps {
		if p.Reserved <= 0 || p.Allocated <= 0 {
			continue
		}
		d, _ := filepath.Rel(root, p.Source)
		d = filepath.ToSlash(d)
		counts[d]++
		// the model's own figures: the committed table's allowance is
		// what this run derives afresh (calibrate adds it back)
		sm := sample{name: p.Name, classes: p.classes, held: allowanceSets[d], fixedLow: true, group: setGroup(d), seq: p.Spec.Seq,
			model: float64(p.res.ModelReserved), meas: float64(p.Reserved), variant: float64(p.res.LogitsSplitReserved),
			release: float64(p.res.ReleaseReserved), releaseAlloc: float64(p.res.ReleaseAllocated),
			xa:  math.Log(float64(p.Allocated) / float64(p.res.PeakAllocated)),
			gap: math.Log(float64(p.res.ModelReserved) / float64(p.res.PeakAllocated))}
		if sm.releaseAlloc > 0 {
			sm.vla = math.Log(sm.releaseAlloc / float64(p.res.PeakAllocated))
		}
		if r, ok := fs[p.Name]; ok && !splitMiss(sm.classes, r.x) && !releaseMiss(sm.classes, r.x) {
			sm.fs, sm.blind = r, true
		}
		sm.calibrate(memmodel.Allowance{})
		out = append(out, sm)
		if p.Process > 0 {
			c := p.Process - p.Reserved - p.res.Context - p.res.NCCL
			if first {
				ctx, first = [2]int64{c, c}, false
			}
			ctx = [2]int64{min(ctx[0], c), max(ctx[1], c)}
		}
	}
	// round outward to a MiB: the context is a handful of values
	ctx = [2]int64{ctx[0] >> 20 << 20, (ctx[1] + 1<<20 - 1) >> 20 << 20}
	return out, ctx, counts, nil
}

// stepSamples are the timed rows' log errors of step time.
func stepSamples(root string, logf func(string, ...any)) ([]sample, map[string]int, error) {
	fs, err := readFirstSightSteps(root)
	if err != nil {
		return nil, nil, err
	}
	var out []sample
	counts := map[string]int{}
	seen := map[string]bool{}
	for _, f := range timingFiles {
		ws, skipped, err := measured.ReadTimed(rel(root, f.Dir))
		if err != nil {
			return nil, nil, err
		}
		for _, s := range skipped {
			logf("skip timing %s\n", s)
		}
		for _, w := range ws {
			key := fmt.Sprint(w.Name, w.StepS)
			if seen[key] || w.StepS <= 0 {
				continue
			}
			seen[key] = true
			if w.Spec.Compile {
				// a compiled step's band is compile_step.go's stated
				// widening, not the class table (TestStepTimeLate24)
				logf("skip timing %s: compiled\n", w.Name)
				continue
			}
			o := memmodel.DefaultOptions()
			o.SkipReserved = true // step time does not depend on the replay
			res, err := memmodel.Estimate(w.Spec, o)
			if err != nil || res.StepTime <= 0 {
				logf("skip timing %s: %v\n", w.Name, err)
				continue
			}
			cl, _ := memmodel.BandClasses(w.Spec)
			// as plan places it (stepTimeBandFrom): GPU-bound without a detail
			sm := sample{name: w.Name, classes: cl, x: math.Log(w.StepS / res.StepTime), group: setGroup(f.Dir), seq: w.Spec.Seq,
				host: math.Inf(-1)}
			if d := res.StepDetail; d != nil {
				sm.host = memmodel.StepHostPosition(d.HostS, d.GPUS)
				sm.risk = memmodel.StepHostLevel(d.HostS, d.GPUS)
			}
			sm.xb, sm.blind = fs[w.Name]
			out = append(out, sm)
			counts[f.Dir]++
		}
	}
	return out, counts, nil
}

// genSamples are the generate rows' log errors of peak reserved and
// allocated against the inference planner.
func genSamples(root string) ([]sample, map[string]int, error) {
	fs, err := readFirstSight(root, generateTable)
	if err != nil {
		return nil, nil, err
	}
	var out []sample
	counts := map[string]int{}
	for _, g := range genSets {
		rs, err := measured.ReadGTRows(filepath.Join(rel(root, g.Dir), "results.jsonl"))
		if err != nil {
			return nil, nil, err
		}
		for _, r := range rs {
			if r.Kind != "gen" || r.Status != "ok" || r.MaxReserved <= 0 || r.Fraction > 0 {
				// a row under a memory fraction (late57's cap10g) says
				// how the allocator behaves at its cap, which
				// GenSpec does not carry: infer's late57 test holds it
				continue
			}
			s := measured.GenSpec(r)
			res, err := infer.Estimate(s)
			if errors.Is(err, infer.ErrSpec) {
				// a configuration plan refuses (late17's Phi-3 mini:
				// no Phi-3 decoder) prints no band, so it has no error
				// to add; infer's tests pin the refusal
				continue
			}
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", r.Name, err)
			}
			cl, err := infer.BandClasses(s)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", r.Name, err)
			}
			sm := sample{name: r.Name, classes: cl, held: g.AllowanceRows, group: setGroup(g.Dir), newTokens: r.NewTokens,
				model: float64(res.ModelReserved), meas: float64(r.MaxReserved),
				xa: math.Log(float64(r.MaxAllocated) / float64(res.PeakAllocated))}
			sm.fs, sm.blind = fs[r.Name]
			sm.calibrate(memmodel.Allowance{})
			out = append(out, sm)
			counts[g.Dir]++
		}
	}
	return out, counts, nil
}

// allowanceSets are the training sets whose rows derive the allowance.
var allowanceSets = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range sets {
		m[s.Dir] = s.AllowanceRows
	}
	return m
}()

// heldObs are the rows of ss (of kind k) that derive the allowance.
func heldObs(ss []sample, k kind) []obs {
	var out []obs
	for _, s := range ss {
		if s.held {
			o := obs{name: s.name, model: s.model, meas: s.meas}
			if k == genKind {
				o.maxOver = genMaxOver
			}
			out = append(out, o)
		}
	}
	return out
}

func logOf(v float64) float64 {
	if v <= 0 {
		return math.Inf(-1)
	}
	return math.Log(v)
}

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// row is one measured workload with the plan spec that describes it.
type row struct {
	Name   string
	Source string
	Spec   memmodel.Spec
	// measured figures; Process is NVML's process memory (0 if not
	// recorded), StepS the median step time (0 if not timed)
	Allocated, Reserved, Process int64
	StepS                        float64
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
	if tr, err := measured.ReadGTRows(filepath.Join(dir, "timing.jsonl")); err == nil {
		attachTiming(out, tr)
	}
	return out, skip, nil
}

// attachTiming sets StepS from timing rows of the same name: the median of
// the steps after the first two (warm-up).
func attachTiming(rows []row, timing []measured.GTRow) {
	by := map[string]float64{}
	for _, t := range timing {
		if t.Status != "ok" {
			continue
		}
		if s := stepMedian(t); s > 0 {
			by[strings.TrimPrefix(t.Name, "t-")] = s
		}
	}
	for i := range rows {
		rows[i].StepS = by[rows[i].Name]
	}
}

func stepMedian(t measured.GTRow) float64 {
	if t.StepMedianS > 0 {
		return t.StepMedianS
	}
	if len(t.IterS) < 4 {
		return 0
	}
	s := append([]float64(nil), t.IterS[2:]...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// loadGTDir reads a capture group of bench/gpu/gt (results.jsonl, and
// timing.jsonl for timing/), translating each row into a plan spec.
func loadGTDir(dir string) ([]row, []skipped, error) {
	path := filepath.Join(dir, "results.jsonl")
	if _, err := os.Stat(path); err != nil {
		path = filepath.Join(dir, "timing.jsonl")
	}
	rs, err := measured.ReadGTRows(path)
	if err != nil {
		return nil, nil, err
	}
	var out []row
	var skip []skipped
	for _, r := range rs {
		s, why := measured.GTSpec(r)
		if why != "" {
			skip = append(skip, skipped{r.Name, why})
			continue
		}
		rw := row{Name: r.Name, Source: dir, Spec: s, Allocated: r.MaxAllocated, Reserved: r.MaxReserved, Process: r.NVMLUsed}
		if r.Timing || r.StepMedianS > 0 {
			rw.StepS = stepMedian(r)
			rw.Allocated, rw.Reserved, rw.Process = 0, 0, 0 // timed alone, memory from other rows
		}
		out = append(out, rw)
	}
	return out, skip, nil
}

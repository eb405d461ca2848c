package main

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// memsetRow is one training step of a memory set (gt_work.py's families
// rows) beside the plan: measured over planned step, and whether the plan
// has it GPU-bound (its GPU time at least 1.5 times its host issue).
type memsetRow struct {
	name, group string
	ratio       float64
	gpuBound    bool
}

// memsetGroup names the technique a memory-set row tests, for the tally:
// the bitsandbytes paths apart (their Python is priced on its own), else
// the model's family.
func memsetGroup(r measured.GTRow, s memmodel.Spec) string {
	switch {
	case r.Quant != "":
		return "quant=" + r.Quant
	case r.Opt == "adamw8bit":
		return "opt=adamw8bit"
	}
	if s.Model != nil {
		if a, err := memmodel.Lookup(*s.Model); err == nil && a.Family != "" {
			return "family=" + a.Family
		}
	}
	return "model=" + r.Model
}

// readMemsets plans every single-GPU training row of files timed without
// history recording (no -snap run) over at least three iterations: the
// measured step is the faster of the second and third (the first warms
// up), with host costs h.
func readMemsets(files []string, h memmodel.HostCosts) ([]memsetRow, error) {
	var out []memsetRow
	for _, f := range files {
		rows, err := measured.ReadGTRows(f)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if r.Kind != "train" || len(r.IterS) < 3 || strings.Contains(r.Name, "snap") {
				continue
			}
			s, skip := measured.GTSpec(r)
			if skip != "" || s.Parallel.GPUs > 1 {
				continue
			}
			s.GPU = "h200"
			res, err := memmodel.Estimate(s, memmodel.Options{Steps: 2, SkipReserved: true, Warm: true, Host: h})
			if err != nil || res.StepDetail == nil {
				continue
			}
			m := math.Min(r.IterS[1], r.IterS[2])
			out = append(out, memsetRow{r.Name, memsetGroup(r, s), m / res.StepTime, res.StepDetail.GPUS >= 1.5*res.StepDetail.HostS})
		}
	}
	return out, nil
}

// printMemsets prints the memory sets' timed steps against the plan by
// group: a way to spot a technique whose time the plan misses (QLoRA's
// and 8-bit AdamW's bitsandbytes Python were found so), not an accuracy
// figure: the memory sets time two or three steps a run, on lent hosts of
// unknown speed, some in fp16 with GradScaler's and cuDNN's first steps
// inside them.
func printMemsets(files []string, h memmodel.HostCosts) error {
	if len(files) == 0 {
		files, _ = filepath.Glob("testdata/*/families/results.jsonl")
	}
	rows, err := readMemsets(files, h)
	if err != nil {
		return err
	}
	by := map[string][]float64{}
	var all []float64
	for _, r := range rows {
		all = append(all, r.ratio)
		k := r.group
		if r.gpuBound {
			k += " (GPU-bound)"
		}
		by[k] = append(by[k], r.ratio)
	}
	fmt.Printf("memory sets' timed steps (no history, the faster of steps 2 and 3): %d rows, median measured/planned %.2f\n", len(rows), measured.Median(all))
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return measured.Median(by[keys[i]]) > measured.Median(by[keys[j]]) })
	for _, k := range keys {
		xs := append([]float64(nil), by[k]...)
		sort.Float64s(xs)
		fmt.Printf("  %-44s %4d rows  median x%.2f  range x%.2f-x%.2f\n", k, len(xs), measured.Median(xs), xs[0], xs[len(xs)-1])
	}
	return nil
}

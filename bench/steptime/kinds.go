package main

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/vramkit/vramkit/bench/measured"
)

// The lent hosts price a step's host work by one table of costs per GPU
// (memmodel.LentHostCosts), the same for every kind of model. kindReport
// checks that on the absolute steps: their signed errors by the GPU whose
// host timed them, the walk's bound and whether the model is a
// convolutional net; and, because each file is one host of its own speed,
// the transformers' median error less the CNNs' within each file that
// timed both (the host's speed cancels). Session 63 found the lent H100
// hosts' files under-price the transformers against the CNNs in 14 of 15
// such files (a median 12 points) where the H200 hosts' are centred.

// stepBound classifies row r by the walk's prediction: "host-bound" when
// its host issue time is at least 1.5x its GPU time, "GPU-bound" the other
// way round, else "balanced".
func stepBound(r measured.StepRow) string {
	switch {
	case r.HostS >= 1.5*r.GPUS:
		return "host-bound"
	case r.GPUS >= 1.5*r.HostS:
		return "GPU-bound"
	}
	return "balanced"
}

// convKind reports whether row r is a convolutional net's (kind=cnn).
func convKind(r measured.StepRow) bool { return r.ModelKind == "cnn" }

// kindReport prints ev's step errors by GPU, bound and kind, and the
// within-file transformer-less-CNN medians by GPU.
func kindReport(ev measured.StepEval) {
	classes := map[string][]float64{}
	type fileKinds struct {
		gpu       string
		tfm, conv []float64
	}
	files := map[string]*fileKinds{}
	for _, r := range ev.Rows {
		kind := "transformer"
		if convKind(r) {
			kind = "cnn"
		}
		k := r.GPU + ", " + stepBound(r) + ", " + kind
		classes[k] = append(classes[k], r.Err)
		if stepBound(r) == "GPU-bound" {
			continue
		}
		f := files[fileKey(r)]
		if f == nil {
			f = &fileKinds{gpu: r.GPU}
			files[fileKey(r)] = f
		}
		if convKind(r) {
			f.conv = append(f.conv, r.Err)
		} else {
			f.tfm = append(f.tfm, r.Err)
		}
	}
	fmt.Printf("steps by the GPU whose host timed them, the walk's bound and the kind of model (signed error quartiles):\n")
	for _, k := range slices.Sorted(maps.Keys(classes)) {
		es := classes[k]
		sort.Float64s(es)
		fmt.Printf("  %-36s %4d steps, %+6.1f%% %+6.1f%% %+6.1f%%\n", k, len(es),
			100*quantile(es, 0.25), 100*quantile(es, 0.5), 100*quantile(es, 0.75))
	}
	diffs := map[string][]float64{}
	for _, f := range files {
		if len(f.tfm) == 0 || len(f.conv) == 0 {
			continue
		}
		diffs[f.gpu] = append(diffs[f.gpu], measured.Median(f.tfm)-measured.Median(f.conv))
	}
	if len(diffs) == 0 {
		return
	}
	fmt.Printf("host-bound and balanced steps, within one file: the transformers' median error less the CNNs':\n")
	for _, g := range slices.Sorted(maps.Keys(diffs)) {
		ds := diffs[g]
		neg := 0
		for _, d := range ds {
			if d < 0 {
				neg++
			}
		}
		fmt.Printf("  %-6s %3d files, %3d below zero, median %+.1f points\n", g, len(ds), neg, 100*measured.Median(ds))
	}
}

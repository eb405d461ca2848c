package main

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// printAcross pairs every workload of files (timed on another GPU, each
// named PREFIX-NAME after the workload NAME it re-runs) with NAME in the
// repository's sets, and prints the measured ratio of the two GPUs' step
// times next to the predicted one. Both sides are predicted with the same
// host costs, so the ratio's error is the GPU scaling's alone (the table's
// FLOP/s and bandwidth against the reference GPU's measured rates).
func printAcross(files []string, host memmodel.HostCosts) error {
	other, err := read(files, false)
	if err != nil {
		return err
	}
	ref := map[string]measured.Timed{}
	for _, st := range defaultSets() {
		ws, err := read(st.files, false)
		if err != nil {
			return err
		}
		for _, w := range ws {
			ref[w.Name] = w
		}
	}
	var pairs []measured.Timed
	var base []measured.Timed
	for _, w := range other {
		_, name, ok := strings.Cut(w.Name, "-")
		r, found := ref[name]
		if !ok || !found {
			fmt.Printf("unpaired %s\n", w.Name)
			continue
		}
		pairs, base = append(pairs, w), append(base, r)
	}
	eo, err := measured.EvalStepTimeWith(pairs, host)
	if err != nil {
		return err
	}
	eb, err := measured.EvalStepTimeWith(base, host)
	if err != nil {
		return err
	}
	if len(eo.Rows) != len(eb.Rows) {
		return fmt.Errorf("%d rows predicted on one GPU, %d on the other (a skipped workload)", len(eo.Rows), len(eb.Rows))
	}
	fmt.Printf("%-50s %-5s %-5s %9s %9s %8s %8s %7s\n", "workload", "gpu", "ref", "measured", "ref meas", "ratio", "pred", "err")
	var abs []float64
	for i, o := range eo.Rows {
		b := eb.Rows[i]
		m, p := o.Measured/b.Measured, o.Predicted/b.Predicted
		abs = append(abs, math.Abs(p/m-1))
		fmt.Printf("%-50s %-5s %-5s %8.1fms %8.1fms %8.3f %8.3f %+6.1f%%\n", o.Name, pairs[i].Spec.GPU, base[i].Spec.GPU,
			1e3*o.Measured, 1e3*b.Measured, m, p, 100*(p/m-1))
	}
	if len(abs) == 0 {
		return nil
	}
	sort.Float64s(abs)
	fmt.Printf("%d pairs: GPU-to-GPU ratio |error| median %.1f%%, max %.1f%%\n", len(abs), 100*abs[len(abs)/2], 100*abs[len(abs)-1])
	return nil
}

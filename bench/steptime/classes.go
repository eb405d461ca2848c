package main

import (
	"fmt"
	"sort"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// printClasses prints, for every timed workload of files, the measured
// step beside the walk's host time, GPU time and kernel count, and the
// walk's kernels and GPU time by class: what the walk thinks a step is
// made of where no kernel profile was taken (a blind timing set), so a
// miss can be put on the host or on a class of kernels before anyone
// profiles it.
func printClasses(files []string, host memmodel.HostCosts) error {
	ws, err := read(files, false)
	if err != nil {
		return err
	}
	fmt.Printf("%-44s %8s %8s %6s | %8s %8s %6s | %s\n", "workload", "meas ms", "pred ms", "err",
		"gpu ms", "host ms", "k pred", "measured step / model kernels (µs)")
	for _, w := range ws {
		r, err := estimate(w.Spec, host)
		if err != nil {
			fmt.Printf("%-44s %v\n", w.Name, err)
			continue
		}
		d := r.StepDetail
		fmt.Printf("%-44s %8.1f %8.1f %+5.0f%% | %8.1f %8.1f %6.0f | %5.1f\n", w.Name, 1e3*w.StepS, 1e3*r.StepTime,
			100*(r.StepTime/w.StepS-1), 1e3*d.GPUS, 1e3*d.HostS, d.Kernels, 1e6*w.StepS/d.Kernels)
		if m := w.PhaseS; m != [3]float64{} {
			p := d.PhaseS
			fmt.Printf("    host phases ms: forward %.1f (walk %.1f), backward %.1f (walk %.1f), optimizer %.1f (walk %.1f)\n",
				1e3*m[0], 1e3*p[0], 1e3*m[1], 1e3*p[1], 1e3*m[2], 1e3*p[2])
		}
		var names []string
		for k := range d.Classes {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			c := d.Classes[k]
			fmt.Printf("    %-10s kernels %6.0f   GPU ms %7.2f\n", k, c.Kernels, 1e3*c.GPUS)
		}
	}
	return nil
}

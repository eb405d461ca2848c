package main

import (
	"fmt"
	"sort"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// compareProfiles prints, for every profiled workload of dir, the
// predicted step next to the measured one and the model's host time, GPU
// time and kernels by class next to what torch.profiler counted.
func compareProfiles(dir string, host memmodel.HostCosts) error {
	ps, err := measured.ReadProfiles(dir)
	if err != nil {
		return err
	}
	fmt.Printf("%-40s %8s %8s %6s | %8s %8s %8s %8s | %6s %6s | %s\n", "workload", "meas ms", "pred ms", "err",
		"busy ms", "kern ms", "gpu ms", "host ms", "k prof", "k pred", "host µs/kernel: measured step/profiled kernels, model host/model kernels")
	for _, p := range ps {
		r, err := estimate(p.Spec, host)
		if err != nil {
			return fmt.Errorf("%s: %w", p.Name, err)
		}
		d := r.StepDetail
		fmt.Printf("%-40s %8.1f %8.1f %+5.0f%% | %8.1f %8.1f %8.1f %8.1f | %6.0f %6.0f | %5.1f %5.1f\n", p.Name, 1e3*p.StepS, 1e3*r.StepTime,
			100*(r.StepTime/p.StepS-1), 1e3*p.GPUBusyS, 1e3*p.KernelS(), 1e3*d.GPUS, 1e3*d.HostS, p.Kernels(), d.Kernels,
			1e6*p.StepS/p.Kernels(), 1e6*d.HostS/d.Kernels)
		var names []string
		seen := map[string]bool{}
		for k := range p.Classes {
			names, seen[k] = append(names, k), true
		}
		for k := range d.Classes {
			if !seen[k] {
				names = append(names, k)
			}
		}
		sort.Strings(names)
		for _, k := range names {
			pc, mc := p.Classes[k], d.Classes[k]
			fmt.Printf("    %-10s kernels %6.0f %6.0f   GPU ms %7.2f %7.2f\n", k, pc.Kernels, mc.Kernels, 1e3*pc.S, 1e3*mc.GPUS)
		}
	}
	return nil
}

// estimate plans s's step time on host (peak reserved skipped: only the
// walk is wanted).
func estimate(s memmodel.Spec, host memmodel.HostCosts) (*memmodel.Result, error) {
	opts := memmodel.DefaultOptions()
	opts.SkipReserved = true
	opts.Host = host
	return memmodel.Estimate(s, opts)
}

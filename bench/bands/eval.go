package main

import (
	"fmt"
	"github.com/vramkit/vramkit/bench/measured"
	"math"
	"sort"
)

// evalStats are one group's figures on evaluated rows.
type evalStats struct {
	n, inside int
	half, abs []float64
}

// evaluate predicts every row of dirs with the committed table and prints,
// overall and per class, how many measured peak reserved values fall inside
// the printed band, the median relative half-width of the band and the
// median |error|.
func evaluate(dirs []string) error {
	ps, err := predictAll(dirs, func(name, why string) { fmt.Printf("skip %-44s %s\n", name, why) })
	if err != nil {
		return err
	}
	all := &evalStats{}
	by := map[string]*evalStats{}
	fmt.Printf("%-46s %8s %8s %8s %8s  %s\n", "row", "alloc", "reserved", "band lo", "band hi", "inside")
	for _, p := range ps {
		if p.Reserved <= 0 {
			continue
		}
		pred := float64(p.res.PeakReserved)
		e := (pred - float64(p.Reserved)) / float64(p.Reserved)
		b := p.res.ReservedBand
		in := p.Reserved >= b.Low && p.Reserved <= b.High
		half := float64(b.High-b.Low) / 2 / pred
		ea := float64(p.res.PeakAllocated-p.Allocated) / float64(p.Allocated)
		fmt.Printf("%-46s %+7.1f%% %+7.1f%% %+7.1f%% %+7.1f%%  %v\n", p.Name, 100*ea, 100*e, 100*(float64(b.Low)/pred-1), 100*(float64(b.High)/pred-1), in)
		groups := append([]string{""}, p.classes...)
		for _, g := range groups {
			s := all
			if g != "" {
				if by[g] == nil {
					by[g] = &evalStats{}
				}
				s = by[g]
			}
			s.n++
			if in {
				s.inside++
			}
			s.half = append(s.half, half)
			s.abs = append(s.abs, math.Abs(e))
		}
	}
	show := func(name string, s *evalStats) {
		mh, ma := measured.Median(s.half), measured.Median(s.abs)
		ratio := math.Inf(1)
		if ma > 0 {
			ratio = mh / ma
		}
		fmt.Printf("%-34s %3d rows  inside %3.0f%%  median half-width %5.1f%%  median |err| %5.1f%%  ratio %4.1f\n",
			name, s.n, 100*float64(s.inside)/float64(s.n), 100*mh, 100*ma, ratio)
	}
	fmt.Println()
	show("all", all)
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		show(k, by[k])
	}
	return nil
}

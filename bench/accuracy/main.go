// Command accuracy prints vramkit's predicted peak allocated and reserved
// memory next to the measured values of every training row of a
// measured.jsonl, with signed errors, median and maximum |error| and the
// under-estimate rate.
//
//	go run ./bench/accuracy [-measured internal/memmodel/testdata/measured.jsonl]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/units"
)

func main() {
	path := flag.String("measured", "internal/memmodel/testdata/measured.jsonl", "ground-truth measured.jsonl")
	lengths := flag.String("lengths", "internal/memmodel/testdata/capture_lengths.json", "length schedules of the dynamic-padding rows (model/bBATCH/sSEQ/mode → lengths)")
	flag.Parse()
	if err := run(*path, *lengths); err != nil {
		fmt.Fprintln(os.Stderr, "accuracy:", err)
		os.Exit(1)
	}
}

func run(path, lengthsPath string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	rows, err := measured.ReadMeasured(f)
	if err != nil {
		return err
	}
	if data, err := os.ReadFile(lengthsPath); err == nil {
		var schedules map[string][]int
		if err := json.Unmarshal(data, &schedules); err != nil {
			return fmt.Errorf("%s: %w", lengthsPath, err)
		}
		for i := range rows {
			if rows[i].Mode != nil {
				rows[i].Lengths = schedules[rows[i].LengthsKey()]
			}
		}
	}
	cmp, err := measured.Compare(rows)
	if err != nil {
		return err
	}
	fmt.Printf("%-34s %11s %11s %8s   %11s %11s %8s\n", "workload", "pred alloc", "meas alloc", "err", "pred resv", "meas resv", "err")
	var ea, er, eaFixed, erFixed []float64
	for _, c := range cmp {
		mark := ""
		if c.VarLen {
			mark = "  (variable length: schedule replayed)"
		} else {
			eaFixed = append(eaFixed, c.ErrAlloc)
			erFixed = append(erFixed, c.ErrResv)
		}
		ea = append(ea, c.ErrAlloc)
		er = append(er, c.ErrResv)
		fmt.Printf("%-34s %11s %11s %+7.1f%%   %11s %11s %+7.1f%%%s\n", c.Name, units.Bytes(c.PredAlloc), units.Bytes(c.MeasAlloc),
			100*c.ErrAlloc, units.Bytes(c.PredResv), units.Bytes(c.MeasResv), 100*c.ErrResv, mark)
	}
	for _, s := range []struct {
		what     string
		errs     []float64
		fixedErr []float64
	}{{"allocated", ea, eaFixed}, {"reserved", er, erFixed}} {
		all, fixed := measured.Summarize(s.errs), measured.Summarize(s.fixedErr)
		fmt.Printf("%-9s all %d rows: median |err| %.1f%%, max %.1f%%, under-estimates %.0f%%; fixed-shape %d rows: median %.1f%%, max %.1f%%, under %.0f%%\n",
			s.what, all.N, 100*all.MedianAbs, 100*all.MaxAbs, 100*all.UnderRate, fixed.N, 100*fixed.MedianAbs, 100*fixed.MaxAbs, 100*fixed.UnderRate)
	}
	return nil
}

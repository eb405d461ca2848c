// Command steptime prints vramkit's predicted step time next to the time
// measured on the GPU for every workload of one or more timing.jsonl files,
// and the acceptance figures of issue 14 from that one run: median and
// maximum |error|, the error of the ratio between techniques on one model
// (AMP, checkpointing, LoRA, accumulation) and how often the faster of two
// configurations is predicted faster.
//
//	go run ./bench/steptime [FILE.jsonl ...]
//
// Without arguments it reads the development timings (the fixtures', the
// unseen and blind sets', testdata/captures/timing and compile).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

func main() {
	fit := flag.Bool("fit-host", false, "fit the host costs (memmodel.HostCosts) to the files instead of printing")
	hostJSON := flag.String("host", "", "host costs as memmodel.HostCosts JSON (default: the calibration machine's)")
	flag.Parse()
	host := memmodel.DefaultHostCosts()
	if *hostJSON != "" {
		if err := json.Unmarshal([]byte(*hostJSON), &host); err != nil {
			fmt.Fprintln(os.Stderr, "steptime: -host:", err)
			os.Exit(2)
		}
	}
	files := flag.Args()
	if len(files) == 0 {
		files = []string{"internal/memmodel/testdata/timing.jsonl", "testdata/unseen/timing.jsonl",
			"testdata/blind/timing.jsonl"}
		files = append(files, "testdata/captures/timing/timing.jsonl", "testdata/captures/compile/timing.jsonl")
	}
	if *fit {
		if err := fitHost(files); err != nil {
			fmt.Fprintln(os.Stderr, "steptime:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(files, host); err != nil {
		fmt.Fprintln(os.Stderr, "steptime:", err)
		os.Exit(1)
	}
}

func read(files []string, verbose bool) ([]measured.Timed, error) {
	var ws []measured.Timed
	for _, f := range files {
		w, skipped, err := measured.ReadTimed(f)
		if err != nil {
			return nil, err
		}
		for _, s := range skipped {
			if verbose {
				fmt.Printf("skipped %s\n", s)
			}
		}
		ws = append(ws, w...)
	}
	return ws, nil
}

func run(files []string, host memmodel.HostCosts) error {
	ws, err := read(files, true)
	if err != nil {
		return err
	}
	ev, err := measured.EvalStepTimeWith(ws, host)
	if err != nil {
		return err
	}
	for _, s := range ev.Skipped {
		fmt.Printf("skipped %s\n", s)
	}
	fmt.Printf("%-44s %-22s %9s %9s %8s\n", "workload", "file", "measured", "predicted", "err")
	for _, r := range ev.Rows {
		fmt.Printf("%-44s %-22s %8.1fms %8.1fms %+7.1f%%\n", r.Name, r.Source, 1e3*r.Measured, 1e3*r.Predicted, 100*r.Err)
	}
	fmt.Printf("\n%-13s %-40s %-34s %8s %8s %8s\n", "technique", "variant", "baseline", "measured", "predicted", "err")
	for _, p := range ev.Pairs {
		fmt.Printf("%-13s %-40s %-34s %8.2f %8.2f %+7.1f%%\n", p.Kind, p.Num, p.Den, p.Measured, p.Predicted, 100*p.Err())
	}
	st, pt := measured.Summarize(ev.Errs()), measured.Summarize(ev.PairErrs())
	inBand := 0
	for _, r := range ev.Rows {
		if r.InBand {
			inBand++
		}
	}
	within := 0
	for _, e := range ev.PairErrs() {
		if math.Abs(e) <= 0.10 {
			within++
		}
	}
	fmt.Printf("\nstep time: %d workloads, median |err| %.1f%% (target ≤10%%), max %.1f%% (≤25%%), under-estimates %.0f%%\n",
		st.N, 100*st.MedianAbs, 100*st.MaxAbs, 100*st.UnderRate)
	fmt.Printf("band: %d of %d measurements inside the predicted step-time band\n", inBand, len(ev.Rows))
	fmt.Printf("technique ratios: %d pairs, %d within 10%% (target all), median |err| %.1f%%, max %.1f%%\n",
		pt.N, within, 100*pt.MedianAbs, 100*pt.MaxAbs)
	fmt.Printf("ordering (pairs differing by > %.0f%%): same model %d/%d (%.0f%%, target ≥95%%), any two %d/%d (%.0f%%)\n",
		100*measured.OrderNoise, ev.Ordered, ev.Compared, pct(ev.Ordered, ev.Compared), ev.AllOrdered, ev.AllCompared, pct(ev.AllOrdered, ev.AllCompared))
	return nil
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

// Command bands measures vramkit's prediction error on captures the model
// was not built on and writes the uncertainty table plan embeds
// (internal/memmodel/bands.json): per class of workload (family, kind,
// precision, checkpointing, LoRA, optimizer, parallelism, GPU) the band
// that holds the measured peak reserved and allocated memory, and the step
// time, at the stated confidence. Regenerate it when captures or the model
// change:
//
//	go run ./bench/bands                    # write internal/memmodel/bands.json
//	go run ./bench/bands -eval testdata/heldout/optim,testdata/heldout/sharded1
//
// -eval predicts other rows with the committed table and reports how many
// measurements fall inside the printed band and the median band half-width
// against the median |error| of each class (issue 18's acceptance).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// sets are the capture sets the table is built from, and how far each was
// held out when the table was computed.
var sets = []memmodel.BandSource{
	{Dir: "testdata/unseen", HeldOut: "captured after the model was written; used to adjust it since"},
	{Dir: "testdata/blind", HeldOut: "captured after the model was adjusted on unseen; used to adjust it since"},
	{Dir: "testdata/captures/optim", HeldOut: "captured 2026-12-01; development set of this round (others tune on it)"},
	{Dir: "testdata/captures/families", HeldOut: "captured 2026-12-01; development set of the families work"},
	{Dir: "testdata/captures/sharded1", HeldOut: "captured 2026-12-01; development set of the sharding work"},
	{Dir: "testdata/captures/oom", HeldOut: "captured 2026-12-01 (ViT script, the rows that ran)"},
	{Dir: "testdata/captures/compile", HeldOut: "captured 2026-12-01 (eager rows)"},
	{Dir: "testdata/captures/timing", HeldOut: "captured 2026-12-01; step times only"},
}

func main() {
	out := flag.String("out", "internal/memmodel/bands.json", "table to write")
	conf := flag.Float64("confidence", 0.95, "probability the bands cover")
	minRows := flag.Int("min-rows", 3, "held-out rows a class needs to be used")
	eval := flag.String("eval", "", "comma-separated capture sets to evaluate with the committed table instead")
	flag.Parse()
	var err error
	if *eval != "" {
		err = evaluate(strings.Split(*eval, ","))
	} else {
		err = build(*out, *conf, *minRows)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bands:", err)
		os.Exit(1)
	}
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

func predictAll(dirs []string) ([]predicted, error) {
	var out []predicted
	for _, d := range dirs {
		rows, skip, err := load(d)
		if err != nil {
			return nil, err
		}
		for _, s := range skip {
			fmt.Printf("skip %-44s %s\n", s.Name, s.Why)
		}
		for _, r := range rows {
			res, err := memmodel.Estimate(r.Spec, memmodel.DefaultOptions())
			if err != nil {
				fmt.Printf("skip %-44s %v\n", r.Name, err)
				continue
			}
			cl, _ := memmodel.BandClasses(r.Spec)
			out = append(out, predicted{r, cl, res})
		}
	}
	return out, nil
}

func logRatio(meas, pred float64) float64 { return math.Log(meas / pred) }

func build(path string, conf float64, minRows int) error {
	var dirs []string
	for _, s := range sets {
		dirs = append(dirs, s.Dir)
	}
	ps, err := predictAll(dirs)
	if err != nil {
		return err
	}
	t := memmodel.BandTable{Confidence: conf, MinRows: minRows, Classes: map[string]memmodel.ClassBand{},
		StepTime: map[string]memmodel.ClassBand{}}
	z := zScore(conf)
	var xr, xa, xs []float64
	var names, snames []string
	byClass := map[string][]int{}
	byStep := map[string][]int{}
	ctx := []int64{}
	count := map[string]int{}
	for i, p := range ps {
		count[p.Source]++
		if p.Reserved > 0 {
			xr = append(xr, logRatio(float64(p.Reserved), float64(p.res.PeakReserved)))
			xa = append(xa, logRatio(float64(p.Allocated), float64(p.res.PeakAllocated)))
			names = append(names, p.Name)
			for _, c := range p.classes {
				byClass[c] = append(byClass[c], i)
			}
			if p.Process > 0 {
				ctx = append(ctx, p.Process-p.Reserved-p.res.Context-p.res.NCCL)
			}
		}
		if p.StepS > 0 && p.res.StepTime > 0 {
			xs = append(xs, logRatio(p.StepS, p.res.StepTime))
			snames = append(snames, p.Name)
			for _, c := range p.classes {
				byStep[c] = append(byStep[c], i)
			}
		}
	}
	for _, s := range sets {
		s.Rows = count[s.Dir]
		t.Sources = append(t.Sources, s)
	}
	mr, sr := robust(xr)
	ma, sa := robust(xa)
	pr, pa := [2]float64{mr, sr}, [2]float64{ma, sa}
	t.Pooled = classBand(names, xr, xa, pr, pa, z)
	t.Pooled.Rows = nil
	for c, idx := range byClass {
		var r, a []float64
		var n []string
		for _, i := range idx {
			p := ps[i]
			r = append(r, logRatio(float64(p.Reserved), float64(p.res.PeakReserved)))
			a = append(a, logRatio(float64(p.Allocated), float64(p.res.PeakAllocated)))
			n = append(n, p.Name)
		}
		t.Classes[c] = classBand(n, r, a, pr, pa, z)
	}
	if len(xs) > 0 {
		m, s := robust(xs)
		t.StepTimePooled = stepBand(snames, xs, m, s, z)
		t.StepTimePooled.Rows = nil
		for c, idx := range byStep {
			var x []float64
			var n []string
			for _, i := range idx {
				x = append(x, logRatio(ps[i].StepS, ps[i].res.StepTime))
				n = append(n, ps[i].Name)
			}
			t.StepTime[c] = stepBand(n, x, m, s, z)
		}
	}
	sort.Slice(ctx, func(i, j int) bool { return ctx[i] < ctx[j] })
	if len(ctx) > 0 {
		// round outward to a MiB: the context is a handful of values
		t.ContextLow, t.ContextHigh = ctx[0]>>20<<20, (ctx[len(ctx)-1]+1<<20-1)>>20<<20
	}
	data, err := json.MarshalIndent(t, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Printf("%d memory rows, %d timed rows, %d classes: pooled reserved median |err| %.1f%%, band ×%.3f–×%.3f; context %+d..%+d MiB\n",
		len(xr), len(xs), len(t.Classes), 100*t.Pooled.MedianAbsErr, t.Pooled.Reserved[0], t.Pooled.Reserved[1], t.ContextLow>>20, t.ContextHigh>>20)
	printClasses(t)
	fmt.Println("wrote", path)
	return nil
}

// stepBand is classBand for step times.
func stepBand(names []string, xs []float64, m, s, z float64) memmodel.ClassBand {
	cb := classBand(names, xs, nil, [2]float64{m, s}, [2]float64{}, z)
	cb.StepTime, cb.Reserved = cb.Reserved, [2]float64{}
	return cb
}

func printClasses(t memmodel.BandTable) {
	keys := make([]string, 0, len(t.Classes))
	for k := range t.Classes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Printf("%-34s %3s %9s %9s   %-15s %s\n", "class", "n", "med err", "med |err|", "reserved band", "step-time band")
	for _, k := range keys {
		c := t.Classes[k]
		st := ""
		if s, ok := t.StepTime[k]; ok {
			st = fmt.Sprintf("×%.2f–×%.2f (n %d)", s.StepTime[0], s.StepTime[1], s.N)
		}
		fmt.Printf("%-34s %3d %+8.1f%% %8.1f%%   ×%.3f–×%.3f  %s\n", k, c.N, 100*c.MedianErr, 100*c.MedianAbsErr, c.Reserved[0], c.Reserved[1], st)
	}
}

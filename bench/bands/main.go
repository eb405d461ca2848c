// Command bands measures vramkit's prediction error on captures the model
// was not built on and writes the uncertainty table plan embeds
// (internal/memmodel/bands.json). First the allowance on peak reserved
// for allocations the model does not trace (allowance.go): from the
// held-out sets' rows (AllowanceRows), training and generate each, the
// allowance Bytes + Ratio × the model's figure with the smallest median
// |error| whose under-estimate rate, each row left out of the derivation
// in turn, is at most 15%. Then, on the model's figure plus that
// allowance (what plan prints and decides on), per class of workload (family, kind,
// precision, checkpointing, LoRA, optimizer, parallelism, attention, GPU)
// the band that holds the measured peak reserved and allocated memory, and
// the step time, at the stated confidence; and per class of generate
// workload (family, precision, cache) the band of the inference planner.
// The shared quantiles behind every peak reserved band (training and
// generate) are scored on each blind row's error at first sight
// (firstsight.go); training's per risk level (risk.go, memmodel's
// bands_risk.go: a kind captured without a first-sight miss over 3%, a
// new technique mix or a kind that missed, a family's first precision),
// each level's from its own rows; each row standardised by its
// classes without its whole capture set: the error on a new configuration,
// which the current models' errors on sets they were fixed on understate.
// It prints the calculation: per class the rows, the median error, the
// band, and with each capture set left out of the whole computation in
// turn (the allowance included) the band each of its rows would have had
// (its median half-width, the ratio of that to the median |error|, and how
// many rows fell inside); and that backtest per capture set, with session
// 7's rule (each row left out alone, scored on its error now) beside it,
// and the first-sight misses by side of the band per risk level and
// checkpointing (tails.go).
//
// One command regenerates the table when captures or the model change
// (internal/memmodel's TestBandsTableFresh fails until it is run):
//
//	go run ./bench/bands                    # write internal/memmodel/bands.json
//	go run ./bench/bands -out /dev/null     # print the calculation only
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
	"runtime/pprof"
	"strings"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// method is the table's one-line description.
const method = "per class: exp(centre + scale×q), centre and scale the median and median absolute deviation of ln(measured/predicted) shrunk toward the pooled with the weight of 4 rows; q the order statistics at the confidence of every row's error (peak reserved: at first sight where recorded) standardised by its classes without its capture set (studentised split conformal); training peak reserved: q per risk level (memmodel's BandTable.Risk), each from its own rows, a checkpointed configuration's low q from the level's checkpointed rows where they are 19 or more; step time: each class's centre with the pooled spread, q per host level (memmodel's StepHostLevel); a q within two ranks of the end taken as the Harrell-Davis estimate"

func main() {
	out := flag.String("out", "internal/memmodel/bands.json", "table to write")
	root := flag.String("root", ".", "repository root the capture sets are under")
	conf := flag.Float64("confidence", 0.95, "probability the bands cover")
	minRows := flag.Int("min-rows", 3, "held-out rows a class needs to be used")
	dump := flag.String("dump", "", "write each row's leave-set-out band to DUMP.K.tsv (K: 0 training, 1 step time, 2 generate)")
	eval := flag.String("eval", "", "comma-separated capture sets to evaluate with the committed table instead")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the run to this file")
	flag.Parse()
	var err error
	if *cpuprofile != "" {
		stop, perr := startProfile(*cpuprofile)
		if perr != nil {
			fmt.Fprintln(os.Stderr, "bands:", perr)
			os.Exit(1)
		}
		defer stop()
	}
	if *eval != "" {
		err = evaluate(strings.Split(*eval, ","))
	} else {
		err = write(*root, *out, *conf, *minRows, *dump)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bands:", err)
		os.Exit(1)
	}
}

// startProfile starts a CPU profile written to path; stop ends it.
func startProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

func write(root, path string, conf float64, minRows int, dump string) error {
	t, err := build(root, conf, minRows, true, dump)
	if err != nil {
		return err
	}
	data, err := encode(t)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	fmt.Println("wrote", path)
	return nil
}

// encode is the table as committed.
func encode(t *memmodel.BandTable) ([]byte, error) {
	data, err := json.MarshalIndent(t, "", " ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// build predicts every row of the sets under root and computes the table;
// verbose prints the calculation.
//
// dump, when not empty, is where the leave-set-out bands of each kind of
// row go (DUMP.K.tsv, dumpBands), for analysis outside the program.
func build(root string, conf float64, minRows int, verbose bool, dump string) (*memmodel.BandTable, error) {
	logf := func(format string, a ...any) {
		if verbose {
			fmt.Printf(format, a...)
		}
	}
	t := &memmodel.BandTable{Confidence: conf, MinRows: minRows, Method: method, Quantiles: map[string][2]float64{}}
	mem, ctx, counts, err := memorySamples(root, logf)
	if err != nil {
		return nil, err
	}
	for _, s := range sets {
		s.Rows = counts[s.Dir]
		t.Sources = append(t.Sources, s)
	}
	step, scounts, err := stepSamples(root, logf)
	if err != nil {
		return nil, err
	}
	for _, s := range step {
		t.MaxStepSeq = max(t.MaxStepSeq, s.seq)
	}
	for _, s := range timingFiles {
		s.Rows = scounts[s.Dir]
		t.Sources = append(t.Sources, s)
	}
	gen, gcounts, err := genSamples(root)
	if err != nil {
		return nil, err
	}
	for _, s := range genSets {
		s.Rows = gcounts[s.Dir]
		t.Sources = append(t.Sources, s)
	}
	t.ContextLow, t.ContextHigh = ctx[0], ctx[1]
	for _, s := range mem {
		t.MaxSeq = max(t.MaxSeq, s.seq)
	}
	// the allowance first: the reserved bands are of the figure with it
	var genAllowance *memmodel.Allowance
	for _, a := range []struct {
		ss    []sample
		title string
		to    func(memmodel.Allowance)
		k     kind
	}{
		{mem, "allowance on peak reserved, training", func(v memmodel.Allowance) { t.Allowance = v }, memKind},
		{gen, "allowance on peak reserved, generate", func(v memmodel.Allowance) { genAllowance = &v }, genKind},
	} {
		v, err := allowanceOf(a.ss, a.k)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a.title, err)
		}
		if inc, ok := keepIncumbent(incumbentAllowance(a.k), heldObs(a.ss, a.k), underTarget); ok {
			v = inc
		}
		a.to(v)
		for i := range a.ss {
			a.ss[i].calibrate(v)
		}
		if verbose {
			printAllowance(a.title, heldObs(a.ss, a.k), v)
		}
	}
	// risk after calibration: the first-sight errors it records are of
	// the figure with the allowance
	markRisk(mem)
	t.Kinds = kindsOf(mem)
	lso := map[kind][][2]float64{} // each kind's leave-set-out bands, for the acceptance table
	for _, p := range []struct {
		k     kind
		ss    []sample
		title string
	}{
		{memKind, mem, "peak reserved, training (plan)"},
		{stepKind, step, "step time, training (plan)"},
		{genKind, gen, "peak reserved, generate (plan --task generate)"},
	} {
		if len(p.ss) == 0 {
			continue
		}
		f := fitSet(p.ss, minRows, conf, true, p.k != stepKind, p.k == stepKind, p.k == memKind)
		place(t, p.k, f)
		if verbose {
			bands, reach, err := leaveSetOut(p.ss, p.k, minRows, conf, true)
			if err != nil {
				return nil, err
			}
			// session 7's rule: each row left out alone, scored on its error now
			old := make([]sample, len(p.ss))
			for i, s := range p.ss {
				s.blind = false
				old[i] = s
			}
			rowwise, _, err := leaveSetOut(old, p.k, minRows, conf, false)
			if err != nil {
				return nil, err
			}
			lso[p.k] = bands
			if dump != "" {
				if err := dumpBands(fmt.Sprintf("%s.%d.tsv", dump, p.k), p.ss, bands); err != nil {
					return nil, err
				}
			}
			printBacktest(p.title, backtest(p.ss, rowwise, bands))
			if p.k == memKind {
				printRiskSummary(riskSummary(p.ss, bands))
				printTails(tails(p.ss, bands))
			}
			printReport(fmt.Sprintf("%s: %d rows, shared quantiles q %+.2f…%+.2f", p.title, len(p.ss), f.q[0], f.q[1]),
				report(p.ss, f, bands, reach, p.k == stepKind), minRows)
			printRows(p.ss, bands, t, p.k)
		}
	}
	if verbose {
		printAcceptance(acceptance(mem, gen, step, lso))
	}
	if t.Generate != nil {
		t.Generate.Allowance = genAllowance
		for _, s := range gen {
			t.Generate.MaxNewTokens = max(t.Generate.MaxNewTokens, s.newTokens)
		}
	}
	logf("\nprocess memory less peak reserved, the GPU table's CUDA context and NCCL: %+d..%+d MiB\n", t.ContextLow>>20, t.ContextHigh>>20)
	return t, nil
}

// printRows lists each row's error and its leave-set-out band, and the
// classes that band rests on in the table built from every row.
func printRows(ss []sample, bands [][2]float64, t *memmodel.BandTable, k kind) {
	fmt.Printf("\n%-52s %8s %9s %8s   %-17s %s\n", "row", "err", "meas/pred", "variant", "LSO band", "inside  band rests on (all rows)")
	for i, s := range ss {
		b := bands[i]
		in := s.x >= logOf(b[0]) && s.x <= logOf(b[1])
		_, basis := bandOf(t, k, s)
		v := "-" // the variant's prediction over the prediction, where it has one
		if s.v > 0 {
			v = fmt.Sprintf("×%.4f", math.Exp(s.v))
		}
		fmt.Printf("%-52s %+7.2f%% %8.4f %8s   ×%.3f…×%.3f  %-6v  %s\n", s.name, 100*errOf(s.x), math.Exp(s.x), v, b[0], b[1], in, strings.Join(basis, ", "))
	}
}

func rel(root, dir string) string { return filepath.Join(root, dir) }

// dumpBands writes one line per sample: name, group, blind, risk, x, xb,
// and its leave-set-out band (ratios), classes, host (step time).
func dumpBands(path string, ss []sample, bands [][2]float64) error {
	var b strings.Builder
	for i, s := range ss {
		fmt.Fprintf(&b, "%s\t%s\t%v\t%d\t%.6f\t%.6f\t%.6f\t%.6f\t%s\t%.4f\n", s.name, s.group, s.blind, s.risk, s.x, s.xb, bands[i][0], bands[i][1], strings.Join(s.classes, ","), s.host)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

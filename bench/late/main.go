// Command late evaluates vramkit on the late blind set (testdata/late,
// captured on the H200 after this round's models were final) and prints
// the tables of testdata/late/RESULTS.md: training rows (families/, oom/, sharded/)
// against the training planner, generate rows against the inference
// planner, and the inference --fit answers against the batches that ran.
//
//	go run ./bench/late            # from the repository root
//	go run ./bench/late -dir testdata/late
//
// It builds every spec with bench/measured's GTSpec and GenSpec, the same
// translation bench/bands and the tests use, and changes no model.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/infer"
	"github.com/vramkit/vramkit/internal/memmodel"
)

func main() {
	dir := flag.String("dir", "testdata/late", "late blind set")
	flag.Parse()
	if err := run(os.Stdout, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "late:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, dir string) error {
	// read is a group's rows; a set without the group has none
	read := func(g string) ([]measured.GTRow, bool, error) {
		path := filepath.Join(dir, g, "results.jsonl")
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, false, nil
		}
		rs, err := measured.ReadGTRows(path)
		return rs, err == nil, err
	}
	var train []measured.GTRow
	for _, g := range []string{"families", "oom", "sharded"} {
		rs, _, err := read(g)
		if err != nil {
			return err
		}
		train = append(train, rs...)
	}
	if err := trainTable(w, train); err != nil {
		return err
	}
	// compiled steps (compile/, where a set has them): plan --compile
	if comp, ok, err := read("compile"); err != nil {
		return err
	} else if ok {
		if err := compileTable(w, comp); err != nil {
			return err
		}
	}
	if gen, ok, err := read("generate"); err != nil {
		return err
	} else if ok {
		if err := genTable(w, gen); err != nil {
			return err
		}
	}
	if fit, ok, err := read("fit"); err != nil {
		return err
	} else if ok {
		return fitTable(w, fit)
	}
	return nil
}

func gib(b int64) float64 { return float64(b) / (1 << 30) }

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "**no**"
}

// summary prints median/max |error|, the under-estimates and the rows
// more than 2% low of one column of signed errors.
func summary(w io.Writer, what string, errs []float64) {
	st := measured.Summarize(errs)
	under, far := 0, 0
	for _, e := range errs {
		if e < 0 {
			under++
		}
		if e < -0.02 {
			far++
		}
	}
	fmt.Fprintf(w, "- %s: median |err| %.2f%%, max |err| %.2f%%, under-estimates %d of %d (%d more than 2%% low)\n",
		what, 100*st.MedianAbs, 100*st.MaxAbs, under, len(errs), far)
}

// peakTable collects the rows of one predicted-vs-measured table of peak
// allocated and reserved memory: training and generate print the same columns.
type peakTable struct {
	w          io.Writer
	ea, er     []float64
	outA, outR int
	refused    int
}

func newPeakTable(w io.Writer, title string) *peakTable {
	fmt.Fprintln(w, title)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| row | pred alloc GiB | meas alloc GiB | alloc err | in band | pred resv GiB | meas resv GiB | resv err | resv band GiB | in band |")
	fmt.Fprintln(w, "|---|---:|---:|---:|:-:|---:|---:|---:|---|:-:|")
	return &peakTable{w: w}
}

// add prints one row: predictions and bands against the measured peaks.
func (t *peakTable) add(name string, predA, predR, measA, measR int64, bandA, bandR memmodel.Band) {
	a, rs := measured.Rel(predA, measA), measured.Rel(predR, measR)
	ia, ir := measured.InBand(measA, bandA), measured.InBand(measR, bandR)
	if !ia {
		t.outA++
	}
	if !ir {
		t.outR++
	}
	t.ea, t.er = append(t.ea, a), append(t.er, rs)
	fmt.Fprintf(t.w, "| %s | %.3f | %.3f | %+.2f%% | %s | %.3f | %.3f | %+.2f%% | %.2f–%.2f | %s |\n",
		name, gib(predA), gib(measA), 100*a, yes(ia),
		gib(predR), gib(measR), 100*rs, gib(bandR.Low), gib(bandR.High), yes(ir))
}

// finish prints the error summaries and the out-of-band counts.
func (t *peakTable) finish() {
	fmt.Fprintln(t.w)
	summary(t.w, "allocated", t.ea)
	summary(t.w, "reserved", t.er)
	fmt.Fprintf(t.w, "- outside the printed band: allocated %d of %d, reserved %d of %d\n", t.outA, len(t.ea), t.outR, len(t.er))
	fmt.Fprintf(t.w, "- refused by plan: %d\n\n", t.refused)
}

func trainTable(w io.Writer, rows []measured.GTRow) error {
	return planTable(w, "## Training rows (families/, oom/, sharded/) — memmodel.Estimate, as `plan` prints it", rows, measured.GTSpec)
}

// compileTable scores compiled training rows as plan --compile plans them
// (GTSpec leaves them out of the class tables: their band is compile.go's);
// the group's uncompiled baselines are planned as they ran.
func compileTable(w io.Writer, rows []measured.GTRow) error {
	return planTable(w, "## Compiled rows (compile/) — memmodel.Estimate with compile, as `plan --compile` prints it", rows,
		func(r measured.GTRow) (memmodel.Spec, string) {
			if !r.Compile { // the group's eager baseline (gt_jobs' compile pairs) is planned as it ran
				return measured.GTSpec(r)
			}
			r.Compile = false
			s, why := measured.GTSpec(r)
			s.Compile = true
			return s, why
		})
}

// planTable scores rows planned from the spec specOf gives each (a
// non-empty reason skips the row).
func planTable(w io.Writer, title string, rows []measured.GTRow, specOf func(measured.GTRow) (memmodel.Spec, string)) error {
	t := newPeakTable(w, title)
	for _, r := range rows {
		s, why := specOf(r)
		if why != "" {
			fmt.Fprintf(w, "| %s | skipped: %s |\n", r.Name, why)
			continue
		}
		res, err := memmodel.Estimate(s, memmodel.DefaultOptions())
		if err != nil {
			// a refusal is a result too (issue 13: every refusal names what
			// is unsupported): print it and score the rows that plan accepts
			fmt.Fprintf(w, "| %s | refused: %v |\n", r.Name, err)
			t.refused++
			continue
		}
		t.add(r.Name, res.PeakAllocated, res.PeakReserved, r.MaxAllocated, r.MaxReserved, res.AllocatedBand, res.ReservedBand)
	}
	t.finish()
	return nil
}

func genTable(w io.Writer, rows []measured.GTRow) error {
	t := newPeakTable(w, "## Generate rows (generate/) — infer.Estimate, as `plan --task generate` prints it")
	for _, r := range rows {
		if r.Kind != "gen" || r.Status != "ok" {
			fmt.Fprintf(w, "| %s | skipped: status %s |\n", r.Name, r.Status)
			continue
		}
		if r.Fraction > 0 {
			// plan has no key for a memory fraction: such a row is
			// replayed under its capacity by its set's own test
			fmt.Fprintf(w, "| %s | skipped: memory fraction %g |\n", r.Name, r.Fraction)
			continue
		}
		res, err := infer.Estimate(measured.GenSpec(r))
		if err != nil {
			// a configuration plan refuses is a result, as in trainTable
			fmt.Fprintf(w, "| %s | refused: %v |\n", r.Name, err)
			t.refused++
			continue
		}
		t.add(r.Name, res.PeakAllocated, res.PeakReserved, r.MaxAllocated, r.MaxReserved, res.AllocatedBand, res.ReservedBand)
	}
	t.finish()
	return nil
}

// fitTable prints, per model, infer.Fit's answer as `plan --task generate
// --fit` gives it (margin 0, the CLI's default: the answer is the largest
// batch whose process band's top fits the GPU) and, per batch that ran,
// the point prediction next to what the GPU did.
func fitTable(w io.Writer, rows []measured.GTRow) error {
	fmt.Fprintln(w, "## Inference --fit (fit/) — infer.Fit as `plan --task generate --fit` runs it (margin 0), and each batch that ran")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| row | batch | fit answer | pred resv GiB | meas resv GiB | resv err | pred process GiB (band) | NVML process GiB | capacity GiB | predicted fits | GPU |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---|---:|---:|:-:|:-:|")
	opts := infer.DefaultFitOptions()
	opts.Margin = 0
	for _, r := range rows {
		s := measured.GenSpec(r)
		fr, err := infer.Fit(context.Background(), s, opts)
		if err != nil {
			return fmt.Errorf("%s: fit: %w", r.Name, err)
		}
		res, err := infer.Estimate(s)
		if err != nil {
			return fmt.Errorf("%s: %w", r.Name, err)
		}
		fmt.Fprintf(w, "| %s | %d | %d | %.2f | %.2f | %+.2f%% | %.2f (%.2f–%.2f) | %.2f | %.2f | %v | %s |\n",
			r.Name, r.B, fr.Value, gib(res.PeakReserved), gib(r.MaxReserved), 100*measured.Rel(res.PeakReserved, r.MaxReserved),
			gib(res.Process), gib(res.ProcessBand.Low), gib(res.ProcessBand.High), gib(r.NVMLUsed), gib(res.Capacity), res.Fits, r.Status)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "An oom row's max_reserved and NVML figure are what the process held when the allocation failed, not the peak it needed.")
	fmt.Fprintln(w)
	return nil
}

// Command lint measures vramkit lint against a corpus of real public
// PyTorch training code (corpus.txt, rebuilt by build-corpus.sh) and a
// human verdict on every finding (verdicts.tsv).
//
// It lints the corpus in-process with every rule, hints included, and
// prints, for each set of repositories — "dev" (judged while the rules were
// written), "unseen1" to "unseen9" (each judged once, with the rules
// final; see corpus.txt) — precision per severity (a finding
// is right when its verdict is "real"; "debatable" counts against), the
// precision of what the default output shows (hints are opt-in), findings
// with no verdict yet, verdicts whose finding went away, recall on the
// hand-labelled positives of positives.tsv, and the speed in lines per
// second.
//
//	go run ./bench/lint                 # corpus in /tmp/vramkit-lint-corpus
//	go run ./bench/lint -rebuild        # run build-corpus.sh first
//	go run ./bench/lint -unjudged       # print new findings as verdict rows to fill in
//	go run ./bench/lint -cpuprofile cpu.out  # profile the timed runs (go tool pprof)
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/vramkit/vramkit/internal/lint"
	"github.com/vramkit/vramkit/internal/lint/pyparse"
	"github.com/vramkit/vramkit/internal/lint/rules"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench/lint:", err)
		os.Exit(1)
	}
}

func run(args []string, w io.Writer) error {
	here := benchDir()
	fs := flag.NewFlagSet("bench/lint", flag.ContinueOnError)
	corpus := fs.String("corpus", "/tmp/vramkit-lint-corpus", "corpus directory (build-corpus.sh output)")
	rebuild := fs.Bool("rebuild", false, "rebuild the corpus with build-corpus.sh first")
	verdictPath := fs.String("verdicts", filepath.Join(here, "verdicts.tsv"), "verdicts file")
	positivePath := fs.String("positives", filepath.Join(here, "positives.tsv"), "hand-labelled positives")
	retiredPath := fs.String("retired", filepath.Join(here, "retired.tsv"), "verdicts of findings the rules no longer report")
	unjudged := fs.Bool("unjudged", false, "print findings without a verdict as rows for verdicts.tsv")
	dump := fs.Bool("dump", false, "print every finding of the sets with its verdict")
	repeat := fs.Int("repeat", 3, "timed runs (the fastest is reported)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the timed runs to this file")
	sets := fs.String("sets", "dev,unseen1,unseen2,unseen3,unseen4,unseen5,unseen6,unseen7,unseen8,unseen9", "comma-separated corpus sets to report")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *rebuild {
		cmd := exec.Command(filepath.Join(here, "build-corpus.sh"))
		cmd.Env = append(os.Environ(), "OUT="+*corpus)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("build-corpus.sh: %w", err)
		}
	}
	verdicts, err := readVerdicts(*verdictPath)
	if err != nil {
		return err
	}
	positives, err := readPositives(*positivePath)
	if err != nil {
		return err
	}
	retired, err := readRetired(*retiredPath)
	if err != nil {
		return err
	}
	files, err := lint.Collect([]string{*corpus})
	if err != nil {
		return fmt.Errorf("corpus: %w (run with -rebuild)", err)
	}
	lines, err := countLines(files)
	if err != nil {
		return err
	}
	opts := lint.Options{Rules: rules.All(), Parse: pyparse.Parse, Hints: true}
	if *cpuprofile != "" {
		pf, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer pf.Close()
		if err := pprof.StartCPUProfile(pf); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(lint.GCPercent)) // as the CLI runs
	}
	var res *lint.Result
	best, bestCPU := time.Duration(1<<62), time.Duration(1<<62)
	for i := 0; i < max(1, *repeat); i++ {
		start, cpu0 := time.Now(), cpuTime()
		res, err = lint.RunFiles(context.Background(), opts, files, false)
		if err != nil {
			return err
		}
		best = min(best, time.Since(start))
		bestCPU = min(bestCPU, cpuTime()-cpu0)
	}
	findings := make([]finding, 0, len(res.Diagnostics))
	for _, d := range res.Diagnostics {
		// A hint rule's findings and a rule's per-finding hints are both
		// marked on the diagnostic.
		findings = append(findings, newFinding(*corpus, d, d.Hint))
	}
	if *unjudged {
		for _, f := range findings {
			if _, ok := verdicts[f.key()]; !ok && strings.Contains(","+*sets+",", ","+f.set+",") {
				fmt.Fprintf(w, "%s\t%s\t%s\t?\t%s\n", f.file, f.line, f.code, f.msg)
			}
		}
		return nil
	}
	if *dump {
		for _, f := range findings {
			if strings.Contains(","+*sets+",", ","+f.set+",") {
				v := verdicts[f.key()]
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%v\t%s\t%s\t%s\n", f.file, f.line, f.code, f.severity, f.hint, v.verdict, f.pattern+" "+template(f.msg), v.reason)
			}
		}
		return nil
	}
	// The CPU time says what the wall time would be on an idle machine
	// (the wall time suffers when other work shares the cores).
	fmt.Fprintf(w, "corpus: %d files, %d lines; lint (all rules, hints on): %v wall = %.0f lines/s on %d CPUs; %v CPU = %.0f lines per CPU-second\n\n",
		len(files), lines, best.Round(time.Millisecond), float64(lines)/best.Seconds(), runtime.GOMAXPROCS(0),
		bestCPU.Round(time.Millisecond), float64(lines)/bestCPU.Seconds())
	for _, set := range strings.Split(*sets, ",") {
		report(w, set, findings, verdicts, positives)
	}
	policy(w, strings.Split(*sets, ","), findings, verdicts, retired)
	return nil
}

// benchDir is bench/lint in the source tree, found from the working
// directory (the repository root or bench/lint itself).
func benchDir() string {
	if _, err := os.Stat("corpus.txt"); err == nil {
		return "."
	}
	return filepath.Join("bench", "lint")
}

// countLines counts the lines of Python the corpus holds: .py files and
// the code cells of notebooks.
func countLines(files []string) (int, error) {
	n := 0
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			return 0, err
		}
		if strings.HasSuffix(p, ".ipynb") {
			n += notebookLines(b)
			continue
		}
		n += strings.Count(string(b), "\n")
	}
	return n, nil
}

type stat struct{ real, false_, debatable, unjudged int }

func (s stat) judged() int { return s.real + s.false_ + s.debatable }

func (s stat) String() string {
	p := "-"
	if s.judged() > 0 {
		p = fmt.Sprintf("%.1f%%", 100*float64(s.real)/float64(s.judged()))
	}
	return fmt.Sprintf("%4d findings: %3d real, %3d false, %3d debatable, %3d unjudged; precision %s",
		s.judged()+s.unjudged, s.real, s.false_, s.debatable, s.unjudged, p)
}

func (s *stat) add(v string) {
	switch v {
	case "real":
		s.real++
	case "false":
		s.false_++
	case "debatable":
		s.debatable++
	default:
		s.unjudged++
	}
}

func report(w io.Writer, set string, findings []finding, verdicts map[string]verdict, positives []positive) {
	var bySev = map[string]*stat{"error": {}, "warning": {}, "info": {}}
	byRule := map[string]*stat{}
	var warnErr, shown, hint stat
	seen := map[string]bool{}
	for _, f := range findings {
		if f.set != set {
			continue
		}
		v := verdicts[f.key()].verdict
		seen[f.key()] = true
		if byRule[f.code] == nil {
			byRule[f.code] = &stat{}
		}
		byRule[f.code].add(v)
		if f.hint {
			hint.add(v)
			continue
		}
		bySev[f.severity].add(v)
		shown.add(v)
		if f.severity != "info" {
			warnErr.add(v)
		}
	}
	stale := 0
	for k, v := range verdicts {
		if v.set == set && !seen[k] {
			stale++
		}
	}
	fmt.Fprintf(w, "== %s ==\n", set)
	fmt.Fprintf(w, "warnings+errors   %v\n", warnErr)
	fmt.Fprintf(w, "default output    %v\n", shown)
	for _, s := range []string{"error", "warning", "info"} {
		fmt.Fprintf(w, "  %-15s %v\n", s, *bySev[s])
	}
	fmt.Fprintf(w, "hints (--hints)   %v\n", hint)
	codes := make([]string, 0, len(byRule))
	for c := range byRule {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, c := range codes {
		fmt.Fprintf(w, "  %-15s %v\n", c, *byRule[c])
	}
	fmt.Fprintf(w, "verdicts whose finding is gone: %d\n", stale)
	recall(w, set, findings, positives)
	fmt.Fprintln(w)
}

func recall(w io.Writer, set string, findings []finding, positives []positive) {
	found := map[string]bool{}
	for _, f := range findings {
		found[f.key()] = true
	}
	byRule := map[string][2]int{}
	var missed []string
	for _, p := range positives {
		if p.set != set {
			continue
		}
		c := byRule[p.code]
		c[1]++
		if found[p.key()] {
			c[0]++
		} else {
			missed = append(missed, fmt.Sprintf("%s:%s %s (%s)", p.file, p.line, p.code, p.note))
		}
		byRule[p.code] = c
	}
	codes := make([]string, 0, len(byRule))
	for code := range byRule {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	for _, code := range codes {
		c := byRule[code]
		fmt.Fprintf(w, "recall %s on labelled positives: %d/%d = %.0f%%\n", code, c[0], c[1], 100*float64(c[0])/float64(c[1]))
	}
	for _, m := range missed {
		fmt.Fprintf(w, "  missed %s\n", m)
	}
}

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// templateRe finds the parts of a message that name the code it is about
// (identifiers, calls, numbers, quoted values), so that findings of one
// sub-pattern share a template.
var templateRe = regexp.MustCompile("`[^`]*`|\"[^\"]*\"|'[^']*'|[A-Za-z_][A-Za-z0-9_.]*\\([^()]*\\)|\\b[a-z_][a-z0-9_]*\\.[A-Za-z0-9_.]+|\\b\\d+\\b")

func template(msg string) string { return templateRe.ReplaceAllString(msg, "_") }

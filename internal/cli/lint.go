package cli

import (
	"context"
	"fmt"
	"github.com/vramkit/vramkit/internal/allocsim"
	"os"
	"path/filepath"
	"strings"

	"github.com/vramkit/vramkit/internal/lint"
	"github.com/vramkit/vramkit/internal/lint/pyparse"
	"github.com/vramkit/vramkit/internal/lint/rules"
)

func newLintCommand() *Command {
	c := &Command{
		Name:    "lint",
		Formats: "text (default), json or sarif, on stdout",
		Usage:   "lint [--format text|json|sarif] [--fail-on error|warning|info|none] [--fix] [--diff] [--select CODES] [--disable CODES] [--hints] [PATH...]",
		Short:   "find GPU-memory pitfalls in PyTorch training scripts",
		Long: `lint checks Python files, Jupyter notebooks (.ipynb, reported as cell:line) and
shell scripts (for PYTORCH_CUDA_ALLOC_CONF values) for patterns that waste or
leak GPU memory: a loss summed with its graph, evaluation without no_grad,
retries inside an out-of-memory except, deprecated torch.cuda.amp, invalid
allocator settings, and more. PATHs are files or directories (walked
recursively, honouring .gitignore); the default is the current directory.

Each finding names a rule (VK001...), its memory effect and a one-line fix.
Hints are opt-in: --hints, or name their rule in --select. They are
DataLoader num_workers (VK008), DataParallel (VK014), findings that
cost no GPU memory (VK001 without retain_graph: the total keeps graph nodes
in host memory) and patterns that were too often wrong on real code.
--fix applies the safe rewrites in place and --diff prints them as a diff
without writing; a file whose rewrite would not parse is left alone, and
notebooks are never rewritten.

Rules are turned off with "# vramkit: ignore[VK003]" on (or just above) a
line, "# vramkit: ignore-file[VK003]" anywhere in a file, or in
pyproject.toml:

    [tool.vramkit]
    disable = ["VK007", "VK008"]
    fail-on = "error"
    exclude = ["legacy/"]

Exit status: 1 when findings at or above --fail-on (default warning) remain
(with --diff: when a fix is pending), 0 otherwise, 2 for usage errors.
Use --list-rules for the rules and --explain CODE for one rule's details.`,
	}
	c.Run = func(ctx context.Context, env *Env, args []string) error { return runLint(ctx, env, c, args) }
	return c
}

// allocConfValidator checks PYTORCH_CUDA_ALLOC_CONF values with the
// simulator's parser, which follows PyTorch 2.11's rules and error texts.
func allocConfValidator(s string) error {
	_, err := allocsim.ParseConfig(s)
	return err
}

func runLint(ctx context.Context, env *Env, c *Command, args []string) error {
	fs := newFlagSet(c, env.Stderr)
	format := addFormat(fs, "text", "json", "sarif")
	failOn := fs.String("fail-on", "", "lowest severity that makes the exit status 1: error|warning|info|none (default warning, or pyproject's fail-on)")
	fix := fs.Bool("fix", false, "apply the safe rewrites to the files")
	diff := fs.Bool("diff", false, "print the safe rewrites as a unified diff instead of writing them")
	selectCodes := fs.String("select", "", "comma-separated rule codes or names to run (default all)")
	disable := fs.String("disable", "", "comma-separated rule codes or names to turn off")
	listRules := fs.Bool("list-rules", false, "list the rules and exit")
	explain := fs.String("explain", "", "print the documentation of one rule (code or name) and exit")
	jobs := fs.Int("jobs", 0, "files checked in parallel (default: number of CPUs)")
	hints := fs.Bool("hints", false, "also show the opt-in hints (VK008 num_workers, VK014 DataParallel, findings that cost no GPU memory, low-precision patterns)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkFormat(*format, "text", "json", "sarif"); err != nil {
		return err
	}
	all := rules.All()
	if *listRules {
		return lint.WriteRules(env.Stdout, all)
	}
	if *explain != "" {
		for _, r := range append(all, lint.ParseError) {
			if strings.EqualFold(r.Code, *explain) || r.Name == *explain {
				return lint.WriteExplain(env.Stdout, r)
			}
		}
		return usagef("no rule %q (see --list-rules)", *explain)
	}
	selected, err := selectRules(all, *selectCodes)
	if err != nil {
		return err
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	threshold, err := failThreshold(*failOn, paths[0])
	if err != nil {
		return err
	}
	opts := lint.Options{Rules: selected, Parse: pyparse.Parse, AllocConf: allocConfValidator, Jobs: *jobs, Disable: splitList(*disable),
		Hints: *hints || *selectCodes != ""} // a rule named in --select runs
	files, err := lint.Collect(paths)
	if err != nil {
		return err
	}
	// The run allocates a tree per file and drops it at once: a sparser
	// GC costs little memory and about 15% less CPU.
	defer gcFor(lint.GCPercent)()
	res, err := lint.RunFiles(ctx, opts, files, *fix || *diff)
	if err != nil {
		return err
	}
	diags := res.Diagnostics
	if *fix || *diff {
		diags, err = applyFixes(ctx, env, opts, res, files, *fix, *diff)
		if err != nil {
			return err
		}
		if *diff && !*fix {
			return nil // applyFixes chose the exit status
		}
	}
	switch *format {
	case "json":
		err = lint.WriteJSON(env.Stdout, diags, len(files), selected, Version)
	case "sarif":
		err = lint.WriteSARIF(env.Stdout, diags, selected, Version)
	default:
		err = lint.WriteText(env.Stdout, diags, len(files))
	}
	if err != nil {
		return err
	}
	for _, d := range diags {
		if threshold > 0 && d.Severity >= threshold {
			return &ExitError{Code: 1}
		}
	}
	return nil
}

// applyFixes rewrites (with fix) or diffs (with diff) every file that has
// safe rewrites, and returns the findings left afterwards.
func applyFixes(ctx context.Context, env *Env, opts lint.Options, res *lint.Result, files []string, fix, diff bool) ([]lint.Diagnostic, error) {
	byFile := map[string][]lint.Diagnostic{}
	for _, d := range res.Diagnostics {
		byFile[d.Path] = append(byFile[d.Path], d)
	}
	var changed []string
	fixedCount := 0
	for _, path := range files {
		f := res.Source(path)
		if f == nil || len(byFile[path]) == 0 {
			continue
		}
		r := lint.Fix(opts.Parse, f, byFile[path])
		if r.Reason != "" {
			fmt.Fprintf(env.Stderr, "%s: %s\n", path, r.Reason)
			continue
		}
		if r.New == nil {
			continue
		}
		if diff {
			fmt.Fprint(env.Stdout, lint.UnifiedDiff(filepath.ToSlash(path), r.Old, r.New))
		}
		if fix {
			st, err := os.Stat(path)
			if err != nil {
				return nil, err
			}
			if err := os.WriteFile(path, r.New, st.Mode().Perm()); err != nil {
				return nil, err
			}
		}
		changed = append(changed, path)
		fixedCount += len(r.Fixed)
	}
	verb := "would fix"
	if fix {
		verb = "fixed"
	}
	fmt.Fprintf(env.Stderr, "vramkit lint: %s %s in %s\n", verb, plural(fixedCount, "finding", "findings"), plural(len(changed), "file", "files"))
	if !fix {
		if len(changed) > 0 {
			return nil, &ExitError{Code: 1}
		}
		return nil, nil
	}
	// Report what is left: the unchanged files' findings as they were, the
	// rewritten files checked again.
	again := map[string]bool{}
	for _, p := range changed {
		again[p] = true
	}
	var left []lint.Diagnostic
	for _, d := range res.Diagnostics {
		if !again[d.Path] {
			left = append(left, d)
		}
	}
	if len(changed) > 0 {
		res2, err := lint.RunFiles(ctx, opts, changed, false)
		if err != nil {
			return nil, err
		}
		left = append(left, res2.Diagnostics...)
	}
	return left, nil
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

func selectRules(all []*lint.Rule, sel string) ([]*lint.Rule, error) {
	names := splitList(sel)
	if len(names) == 0 {
		return all, nil
	}
	var out []*lint.Rule
	for _, n := range names {
		found := false
		for _, r := range all {
			if strings.EqualFold(r.Code, n) || r.Name == n {
				out = append(out, r)
				found = true
			}
		}
		if !found {
			return nil, usagef("--select: no rule %q (see --list-rules)", n)
		}
	}
	return out, nil
}

// failThreshold turns --fail-on (or pyproject's fail-on, or the default
// "warning") into a severity; 0 means never fail.
func failThreshold(flagValue, firstPath string) (lint.Severity, error) {
	v := flagValue
	if v == "" {
		dir := firstPath
		if st, err := os.Stat(firstPath); err == nil && !st.IsDir() {
			dir = filepath.Dir(firstPath)
		}
		if cfg, err := lint.FindConfig(dir); err == nil && cfg.FailOn != "" {
			v = cfg.FailOn
		}
	}
	if v == "" {
		v = "warning"
	}
	if v == "none" {
		return 0, nil
	}
	s, err := lint.ParseSeverity(v)
	if err != nil {
		if flagValue == "" {
			return 0, fmt.Errorf("pyproject.toml [tool.vramkit] fail-on: %w", err)
		}
		return 0, usagef("--fail-on: %v", err)
	}
	return s, nil
}

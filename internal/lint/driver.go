package lint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// ParseError is the pseudo-rule that reports files vramkit could not read
// as Python (or as a notebook). Such files get no other findings, since
// rules on a broken tree would guess, and the run goes on.
var ParseError = &Rule{
	Code: "VK000", Name: "parse-error", Severity: Error,
	Summary: "the file is not valid Python 3 (or not a valid notebook), so it was not checked",
	Doc: `vramkit parses Python 3.8–3.13 (and 3.14 t-strings) with tree-sitter.
Unbalanced brackets, a broken def, merge-conflict markers, binary data, or an
.ipynb that is not JSON stop the check of that one file; every other file is
still checked. The message names the first line tree-sitter could not read.
(The grammar is lenient: much Python 2 code, such as print statements,
parses and is checked.)

Disable it (disable = ["VK000"]) to let such files pass silently.`,
}

// Options configure a lint run.
type Options struct {
	Rules     []*Rule
	Parse     ParseFunc
	AllocConf AllocConfValidator
	// Config, when set, is used for every file instead of the nearest
	// pyproject.toml.
	Config *Config
	// Disable lists rule codes or names turned off on top of each file's
	// pyproject.toml (the CLI's --disable).
	Disable []string
	// Jobs is the number of files checked at once; 0 means GOMAXPROCS.
	Jobs int
	// Hints turns on the opt-in rules (Rule.Hint) among Rules and the
	// findings other rules report as hints (Diagnostic.Hint).
	Hints bool
}

// MaxSource is the largest source checked: a .py file, or the code cells
// of a notebook. Real training scripts are far smaller; anything bigger is
// generated or data, and parsing it would cost seconds and hundreds of
// megabytes.
const MaxSource = 2 << 20

// MaxNotebook is the largest .ipynb file read. Notebooks carry their
// outputs (images, tables) in the file, so the file may be much larger
// than its code; the code is held to MaxSource once extracted.
const MaxNotebook = 64 << 20

// notSource says why src cannot be Python source (or a notebook), or "".
// It is checked before parsing, so a binary or huge file costs one look
// at its first bytes, not a parse.
func notSource(src []byte, limit int) string {
	head := src[:min(len(src), 8<<10)]
	ctl := 0
	for _, c := range head {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' {
			ctl++
		}
	}
	if bytes.IndexByte(head, 0) >= 0 || ctl*20 > len(head) {
		return "binary data, not text"
	}
	if len(src) > limit {
		return fmt.Sprintf("%d bytes is more than the %d MiB vramkit reads as source; generated or data file?", len(src), limit>>20)
	}
	return ""
}

// GCPercent is the garbage-collector target a lint run is best run with
// (runtime/debug.SetGCPercent): each file's tree is garbage as soon as
// its rules have run, so collecting less often saves about 15% of the CPU
// (bench/lint, 269k lines) for a few tens of megabytes more heap.
const GCPercent = 300

// Result is the outcome of a run.
type Result struct {
	Diagnostics []Diagnostic `json:"diagnostics"`
	Files       int          `json:"files"`
	// sources keeps, for RunFiles with keep, the parsed files that have
	// something to fix.
	sources map[string]*File
}

// Source returns the parsed file for a path checked by RunFiles with keep
// set, or nil when the file has nothing to fix.
func (r *Result) Source(path string) *File { return r.sources[path] }

// Run checks the paths (files or directories, walked recursively honouring
// .gitignore) and returns every finding, sorted by file and position.
func Run(ctx context.Context, opts Options, paths []string) (*Result, error) {
	files, err := Collect(paths)
	if err != nil {
		return nil, err
	}
	return RunFiles(ctx, opts, files, false)
}

// RunFiles checks a list of files. With keep, the parsed files stay in the
// result (Result.Source) for fixing.
func RunFiles(ctx context.Context, opts Options, files []string, keep bool) (*Result, error) {
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	type out struct {
		diags []Diagnostic
		file  *File
	}
	results := make([]out, len(files))
	cfgs := &configCache{m: map[string]*Config{}, fixed: opts.Config}
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				path := files[i]
				cfg, err := cfgs.get(filepath.Dir(path))
				if err != nil {
					results[i].diags = []Diagnostic{fileError(path, err)}
					continue
				}
				src, err := os.ReadFile(path)
				if err != nil {
					results[i].diags = []Diagnostic{fileError(path, err)}
					continue
				}
				d, f := Check(opts, cfg, path, src)
				results[i] = out{diags: d}
				if keep && fixable(d) {
					results[i].file = f
				}
			}
		}()
	}
	var cerr error
feed:
	for i := range files {
		select {
		case next <- i:
		case <-ctx.Done():
			cerr = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	if cerr != nil {
		return nil, cerr
	}
	res := &Result{Files: len(files)}
	if keep {
		res.sources = map[string]*File{}
	}
	for i, r := range results {
		res.Diagnostics = append(res.Diagnostics, r.diags...)
		if keep && r.file != nil {
			res.sources[files[i]] = r.file
		}
	}
	return res, nil
}

// Check lints one file's contents. The kind of file follows the name:
// .ipynb is a notebook, .sh/.bash a shell script, anything else Python.
// It also returns the parsed file (nil when it could not be parsed).
func Check(opts Options, cfg *Config, path string, src []byte) ([]Diagnostic, *File) {
	if cfg == nil {
		cfg = &Config{}
	}
	if len(opts.Disable) > 0 {
		c := *cfg
		c.Disable = append(append([]string(nil), cfg.Disable...), opts.Disable...)
		cfg = &c
	}
	limit := MaxSource
	if strings.EqualFold(filepath.Ext(path), ".ipynb") {
		limit = MaxNotebook
	}
	if why := notSource(src, limit); why != "" {
		if cfg.Disabled(ParseError) {
			return nil, nil
		}
		return []Diagnostic{fileError(path, errors.New(why))}, nil
	}
	var f *File
	switch strings.ToLower(filepath.Ext(path)) {
	case ".sh", ".bash":
		f = NewFile(path, src, nil)
		for i, start := range f.lines {
			text := f.LineText(i + 1)
			f.Shell = append(f.Shell, Span{start, start + len(text), text})
		}
	case ".ipynb":
		nb, err := loadNotebook(src)
		if err == nil && len(nb.src) > MaxSource {
			err = fmt.Errorf("its code cells hold %d bytes, more than the %d MiB vramkit reads as source", len(nb.src), MaxSource>>20)
		}
		if err != nil {
			return []Diagnostic{fileError(path, err)}, nil
		}
		root, err := opts.Parse(nb.src)
		f = NewFile(path, nb.src, root)
		f.Cells, f.Shell = nb.cells, nb.shell
		if err != nil {
			return syntaxDiag(f, err), nil
		}
	default:
		root, err := opts.Parse(src)
		f = NewFile(path, src, root)
		if err != nil {
			return syntaxDiag(f, err), nil
		}
	}
	sup := readSuppressions(f)
	var active []*Rule
	for _, r := range opts.Rules {
		if !cfg.Disabled(r) && (f.Root != nil || r.Shell) && (!r.Hint || opts.Hints) {
			active = append(active, r)
		}
	}
	found := runRules(opts, f, active)
	var diags []Diagnostic
	for i, r := range active {
		for _, d := range found[i] {
			if d.Hint && !opts.Hints {
				continue
			}
			if d.Code != r.Code || !sup.covers(r, f.Line(d.off)) {
				diags = append(diags, d)
			}
		}
	}
	if f.Root == nil || f.Cells != nil {
		// Edits are offsets into Src, which for a notebook is not the file.
		for i := range diags {
			diags[i].Edits = nil
		}
	}
	sort.SliceStable(diags, func(i, j int) bool {
		if diags[i].off != diags[j].off {
			return diags[i].off < diags[j].off
		}
		return diags[i].Code < diags[j].Code
	})
	if cfg.Disabled(ParseError) {
		diags = slicesDelete(diags, ParseError.Code)
	}
	return diags, f
}

func fixable(diags []Diagnostic) bool {
	for _, d := range diags {
		if len(d.Edits) > 0 {
			return true
		}
	}
	return false
}

func slicesDelete(diags []Diagnostic, code string) []Diagnostic {
	out := diags[:0]
	for _, d := range diags {
		if d.Code != code {
			out = append(out, d)
		}
	}
	return out
}

// parallelRulesFrom is the source size from which one file's rules run
// on several goroutines: big files are where a single file's latency
// matters, and small ones are already checked in parallel with each other.
const parallelRulesFrom = 64 << 10

// runRules runs the rules over f and returns each rule's findings.
func runRules(opts Options, f *File, rules []*Rule) [][]Diagnostic {
	found := make([][]Diagnostic, len(rules))
	run := func(i int) {
		p := &Pass{File: f, Rule: rules[i], AllocConf: opts.AllocConf}
		if err := runRule(rules[i], p); err != nil {
			found[i] = []Diagnostic{fileError(f.Path, err)}
			return
		}
		found[i] = p.diags
	}
	workers := runtime.GOMAXPROCS(0)
	if len(f.Src) < parallelRulesFrom || workers < 2 {
		for i := range rules {
			run(i)
		}
		return found
	}
	var wg sync.WaitGroup
	next := make(chan int, len(rules))
	for i := range rules {
		next <- i
	}
	close(next)
	for range min(workers, len(rules)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				run(i)
			}
		}()
	}
	wg.Wait()
	return found
}

// runRule runs one rule and turns a panic into an error, so that a rule
// bug costs one finding, not the run.
func runRule(r *Rule, p *Pass) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("internal error in %s (%s): %v; please report it", r.Code, r.Name, v)
		}
	}()
	r.Run(p)
	return nil
}

func syntaxDiag(f *File, err error) []Diagnostic {
	var se *SyntaxError
	if !errors.As(err, &se) {
		return []Diagnostic{fileError(f.Path, err)}
	}
	p := &Pass{File: f, Rule: ParseError}
	p.ReportRange(se.Offset, se.Offset, "cannot check this file: "+se.Msg+"; other files are still checked",
		"fix the syntax (vramkit reads Python 3.8–3.13)")
	return p.diags
}

// fileError reports a file that could not be read or parsed at all.
func fileError(path string, err error) Diagnostic {
	return Diagnostic{
		Path: path, Start: Position{Line: 1, Col: 1}, End: Position{Line: 1, Col: 1},
		Code: ParseError.Code, Rule: ParseError.Name, Severity: ParseError.Severity,
		Message: "cannot check this file: " + err.Error(), URL: ParseError.URL(),
	}
}

// configCache finds each directory's pyproject.toml once.
type configCache struct {
	mu    sync.Mutex
	m     map[string]*Config
	fixed *Config
}

func (c *configCache) get(dir string) (*Config, error) {
	if c.fixed != nil {
		return c.fixed, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cfg, ok := c.m[dir]; ok {
		return cfg, nil
	}
	cfg, err := FindConfig(dir)
	if err != nil {
		return nil, err
	}
	c.m[dir] = &cfg
	return &cfg, nil
}

package lint

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Summary counts findings by severity.
type Summary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
	Fixable  int `json:"fixable"`
}

// Summarize counts the findings.
func Summarize(diags []Diagnostic) Summary {
	var s Summary
	for _, d := range diags {
		switch d.Severity {
		case Error:
			s.Errors++
		case Warning:
			s.Warnings++
		case Info:
			s.Infos++
		}
		if len(d.Edits) > 0 {
			s.Fixable++
		}
	}
	return s
}

// String is the one-line count of findings by severity.
func (s Summary) String() string {
	n := s.Errors + s.Warnings + s.Infos
	var parts []string
	for _, p := range []struct {
		n    int
		name string
	}{{s.Errors, "error"}, {s.Warnings, "warning"}, {s.Infos, "info"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, plural(p.n, p.name)))
		}
	}
	out := fmt.Sprintf("%d %s", n, plural(n, "finding"))
	if len(parts) > 0 {
		out += " (" + strings.Join(parts, ", ") + ")"
	}
	return out
}

func plural(n int, word string) string {
	if n == 1 || word == "info" {
		return word
	}
	return word + "s"
}

// Location prints where a finding is: path:line:col, or for a notebook
// path:cell N:line:col.
func (d Diagnostic) Location() string {
	if d.Start.Cell > 0 {
		return fmt.Sprintf("%s:cell %d:%d:%d", d.Path, d.Start.Cell, d.Start.Line, d.Start.Col)
	}
	return fmt.Sprintf("%s:%d:%d", d.Path, d.Start.Line, d.Start.Col)
}

// WriteText prints one finding per entry: the location, code, severity
// and message on one line, and the one-line fix indented below it; then a
// summary line.
func WriteText(w io.Writer, diags []Diagnostic, files int) error {
	for _, d := range diags {
		sev := d.Severity.String()
		if d.Hint {
			sev += " (hint)"
		}
		fmt.Fprintf(w, "%s: %s %s: %s\n", d.Location(), d.Code, sev, d.Message)
		if d.Fix != "" {
			tag := ""
			if len(d.Edits) > 0 {
				tag = " [--fix]"
			}
			fmt.Fprintf(w, "    fix: %s%s\n", d.Fix, tag)
		}
	}
	s := Summarize(diags)
	fixable := ""
	if s.Fixable > 0 {
		fixable = fmt.Sprintf("; %d fixable with --fix", s.Fixable)
	}
	_, err := fmt.Fprintf(w, "%s in %d %s%s\n", s, files, plural(files, "file"), fixable)
	return err
}

// jsonReport is the --format json document.
type jsonReport struct {
	Tool        string         `json:"tool"`
	Version     string         `json:"version"`
	Files       int            `json:"files"`
	Summary     Summary        `json:"summary"`
	Diagnostics []jsonFinding  `json:"diagnostics"`
	Rules       []jsonRuleInfo `json:"rules"`
}

type jsonFinding struct {
	Diagnostic
	Fixable bool `json:"fixable"`
}

type jsonRuleInfo struct {
	Code     string   `json:"code"`
	Name     string   `json:"name"`
	Severity Severity `json:"severity"`
	Summary  string   `json:"summary"`
	Fixable  bool     `json:"fixable"`
	URL      string   `json:"url"`
}

// WriteJSON prints the findings, their summary and the rules that ran as
// one JSON document.
func WriteJSON(w io.Writer, diags []Diagnostic, files int, rules []*Rule, version string) error {
	rep := jsonReport{Tool: "vramkit lint", Version: version, Files: files, Summary: Summarize(diags),
		Diagnostics: []jsonFinding{}}
	for _, d := range diags {
		rep.Diagnostics = append(rep.Diagnostics, jsonFinding{d, len(d.Edits) > 0})
	}
	for _, r := range rules {
		rep.Rules = append(rep.Rules, jsonRuleInfo{r.Code, r.Name, r.Severity, r.Summary, r.Fixable, r.URL()})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// WriteRules prints the rule table of --list-rules, the parse-error
// pseudo-rule last.
func WriteRules(w io.Writer, all []*Rule) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CODE\tSEVERITY\tFIX\tNAME\tSUMMARY")
	for _, r := range append(all, ParseError) {
		fixable := ""
		if r.Fixable {
			fixable = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Code, r.Severity, fixable, r.Name, r.Summary)
	}
	return tw.Flush()
}

// WriteExplain prints one rule's documentation, as --explain shows it.
func WriteExplain(w io.Writer, r *Rule) error {
	fixable := ""
	if r.Fixable {
		fixable = ", fixable with --fix"
	}
	_, err := fmt.Fprintf(w, "%s %s (%s%s)\n%s\n\n%s\n\n%s\n", r.Code, r.Name, r.Severity, fixable, r.Summary, r.Doc, r.URL())
	return err
}

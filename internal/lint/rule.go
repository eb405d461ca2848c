package lint

import (
	"fmt"
	"strings"
)

// Severity orders findings; --fail-on picks the lowest that fails a run.
type Severity int

// The severities, lowest first.
const (
	Info    Severity = iota + 1 // a pattern worth a look; does not fail a run by default
	Warning                     // likely costs memory or time
	Error                       // a bug (an OOM retry that cannot work, a misspelt attribute, an invalid setting) or a file that is not Python
)

// String is the severity as the text and SARIF outputs name it.
func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// MarshalText makes severities print as words in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// ParseSeverity reads "info", "warning" or "error".
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(s) {
	case "info":
		return Info, nil
	case "warning", "warn":
		return Warning, nil
	case "error":
		return Error, nil
	}
	return 0, fmt.Errorf("unknown severity %q (want info, warning or error)", s)
}

// DocsURL is where each rule's section of docs/lint.md lives; the anchor is
// the lower-cased code followed by the name.
const DocsURL = "https://github.com/vramkit/vramkit/blob/main/docs/lint.md"

// Rule is one check. Rules are plain values so the set is a slice the CLI,
// the docs generator and the tests all share.
type Rule struct {
	Code     string   // stable code, "VK001"
	Name     string   // kebab-case name, "loss-accumulated-with-graph"
	Severity Severity // default severity
	Summary  string   // one line: what is flagged and its memory effect
	// Doc is the long explanation: the pattern, why it costs memory, the
	// fix, and the known blind spots (what the rule does not see).
	Doc string
	// Fixable is true when some findings carry a safe automatic rewrite.
	Fixable bool
	// Shell is true for rules that also read shell code: .sh files and
	// notebook magics (File.Shell). Other rules never see a shell script.
	Shell bool
	// Hint marks an opt-in rule: advice that is right for some programs
	// and noise for others (DataLoader tuning). It runs only when
	// Options.Hints is set (--hints) or the rule is selected by name.
	Hint bool
	// Patterns is the reporting policy per sub-pattern: the heuristic path
	// that produced a finding (ReportPattern names it) decides its
	// severity and whether it is a hint, from how often findings of that
	// path were right on real code (bench/lint). A pattern not listed is
	// reported at the rule's Severity.
	Patterns map[string]Level
	Run      func(p *Pass)
}

// Level is how findings of one sub-pattern are reported.
type Level struct {
	Severity Severity `json:"severity"`
	// Hint puts the findings behind --hints (shown at info).
	Hint bool `json:"hint,omitempty"`
}

// URL is the rule's section in the docs.
func (r *Rule) URL() string {
	return DocsURL + "#" + strings.ToLower(r.Code) + "-" + r.Name
}

// Edit replaces Src[Start:End] with New.
type Edit struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	New   string `json:"new"`
}

// Diagnostic is one finding.
type Diagnostic struct {
	Path     string   `json:"path"`
	Start    Position `json:"start"`
	End      Position `json:"end"`
	Code     string   `json:"code"`
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	// Fix is a one-line human fix ("write total_loss += loss.item()").
	Fix string `json:"fix,omitempty"`
	// Edits, when present, are the safe rewrite --fix applies.
	Edits []Edit `json:"edits,omitempty"`
	URL   string `json:"url"`
	// Hint marks a finding that is advice rather than a memory cost (see
	// Pass.ReportHint), or a finding of a hint rule: it is shown only with
	// Options.Hints.
	Hint bool `json:"hint,omitempty"`
	// Pattern names the sub-pattern (the heuristic path) that produced the
	// finding, for rules that have several; see Rule.Patterns.
	Pattern string `json:"pattern,omitempty"`

	off int // byte offset in Src, for suppression and sorting
}

// Pass is what a rule sees while it runs over one file.
type Pass struct {
	File *File
	Rule *Rule
	// AllocConf validates PYTORCH_CUDA_ALLOC_CONF values; nil skips that check.
	AllocConf AllocConfValidator
	diags     []Diagnostic
}

// AllocConfValidator checks a PYTORCH_CUDA_ALLOC_CONF string the way
// PyTorch's parser does, returning its error.
type AllocConfValidator func(conf string) error

// Report records a finding on n. fix is the one-line suggestion; edits, if
// any, are the safe rewrite.
func (p *Pass) Report(n *Node, msg, fix string, edits ...Edit) {
	p.ReportRange(n.Start, n.End, msg, fix, edits...)
}

// ReportAs records a finding on n at a severity below the rule's own, for
// findings the file alone cannot prove (a helper whose callers live in
// other files). A severity above the rule's is capped at the rule's: the
// rule's severity is the most any of its findings claims.
func (p *Pass) ReportAs(sev Severity, n *Node, msg, fix string, edits ...Edit) {
	p.report(min(sev, p.Rule.Severity), n.Start, n.End, msg, fix, edits...)
}

// ReportHint records a finding on n as a hint, at info: the pattern is
// worth knowing but the finding costs no GPU memory (a running total that
// keeps graph nodes in host memory only). Hints are shown only when
// Options.Hints is set (--hints, or the rule named in --select), so a rule
// whose findings are sometimes a real cost and sometimes not keeps the
// default output to the costly ones.
func (p *Pass) ReportHint(n *Node, msg, fix string, edits ...Edit) {
	p.report(Info, n.Start, n.End, msg, fix, edits...)
	p.diags[len(p.diags)-1].Hint = true
}

// ReportPattern records a finding on n produced by the rule's sub-pattern
// pattern, at the level the rule's policy (Rule.Patterns) gives that
// pattern: its severity (at most the rule's), and behind --hints when the
// policy says so. A pattern the policy does not list is reported at the
// rule's severity.
func (p *Pass) ReportPattern(pattern string, n *Node, msg, fix string, edits ...Edit) {
	lv, ok := p.Rule.Patterns[pattern]
	if !ok {
		lv = Level{Severity: p.Rule.Severity, Hint: p.Rule.Hint}
	}
	p.report(min(lv.Severity, p.Rule.Severity), n.Start, n.End, msg, fix, edits...)
	d := &p.diags[len(p.diags)-1]
	d.Pattern = pattern
	d.Hint = d.Hint || lv.Hint
}

// ReportRange records a finding on Src[start:end].
func (p *Pass) ReportRange(start, end int, msg, fix string, edits ...Edit) {
	p.report(p.Rule.Severity, start, end, msg, fix, edits...)
}

func (p *Pass) report(sev Severity, start, end int, msg, fix string, edits ...Edit) {
	d := Diagnostic{
		Code: p.Rule.Code, Rule: p.Rule.Name, Severity: sev,
		Message: msg, Fix: fix, Edits: edits, URL: p.Rule.URL(), off: start, Hint: p.Rule.Hint,
	}
	d.Path = p.File.Path
	d.Start, d.End = p.File.Pos(start), p.File.Pos(end)
	p.diags = append(p.diags, d)
}

// SyntaxError says where a file stopped being Python. The driver reports
// it as VK000 and runs no rules on that file: rules on a broken tree would
// guess.
type SyntaxError struct {
	Offset int    // byte offset of the first error
	Msg    string // e.g. `unexpected "print x"`
}

// Error is the parser's message.
func (e *SyntaxError) Error() string { return e.Msg }

// ParseFunc parses Python source. On a syntax error it returns a
// *SyntaxError (the tree may then be nil).
type ParseFunc func(src []byte) (*Node, error)

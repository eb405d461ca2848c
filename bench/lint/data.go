package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/vramkit/vramkit/internal/lint"
)

// finding is one diagnostic keyed the way verdicts.tsv names it: the file
// relative to the corpus ("dev/owner+name/path.py"), the line ("12", or
// "cell 3:12" in a notebook) and the rule code.
type finding struct {
	set, file, line, code, severity, msg string
	pattern                              string
	hint                                 bool
}

func (f finding) key() string { return f.file + "\t" + f.line + "\t" + f.code }

func newFinding(corpus string, d lint.Diagnostic, hint bool) finding {
	rel, err := filepath.Rel(corpus, d.Path)
	if err != nil {
		rel = d.Path
	}
	rel = filepath.ToSlash(rel)
	line := fmt.Sprint(d.Start.Line)
	if d.Start.Cell > 0 {
		line = fmt.Sprintf("cell %d:%d", d.Start.Cell, d.Start.Line)
	}
	set, _, _ := strings.Cut(rel, "/")
	return finding{set: set, file: rel, line: line, code: d.Code, severity: d.Severity.String(), msg: d.Message, pattern: d.Pattern, hint: hint}
}

type verdict struct{ set, verdict, reason string }

// readVerdicts reads file, line, rule, verdict (real|false|debatable) and a
// reason, tab-separated; # starts a comment line.
func readVerdicts(path string) (map[string]verdict, error) {
	out := map[string]verdict{}
	err := readTSV(path, 5, func(f []string) error {
		switch f[3] {
		case "real", "false", "debatable":
		default:
			return fmt.Errorf("verdict %q (want real, false or debatable)", f[3])
		}
		set, _, _ := strings.Cut(f[0], "/")
		out[f[0]+"\t"+f[1]+"\t"+f[2]] = verdict{set: set, verdict: f[3], reason: f[4]}
		return nil
	})
	return out, err
}

// positive is a place where a rule should fire, labelled by hand.
type positive struct{ set, file, line, code, note string }

func (p positive) key() string { return p.file + "\t" + p.line + "\t" + p.code }

func readPositives(path string) ([]positive, error) {
	var out []positive
	err := readTSV(path, 4, func(f []string) error {
		set, _, _ := strings.Cut(f[0], "/")
		out = append(out, positive{set: set, file: f[0], line: f[1], code: f[2], note: f[3]})
		return nil
	})
	return out, err
}

func readTSV(path string, fields int, fn func([]string) error) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		t := sc.Text()
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		f := strings.SplitN(t, "\t", fields)
		if len(f) != fields {
			return fmt.Errorf("%s:%d: want %d tab-separated fields", path, n, fields)
		}
		if err := fn(f); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
	}
	return sc.Err()
}

// notebookLines counts the source lines of a notebook's code cells.
func notebookLines(b []byte) int {
	var nb struct {
		Cells []struct {
			CellType string          `json:"cell_type"`
			Source   json.RawMessage `json:"source"`
		} `json:"cells"`
	}
	if json.Unmarshal(b, &nb) != nil {
		return 0
	}
	n := 0
	for _, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		var lines []string
		if json.Unmarshal(c.Source, &lines) == nil {
			n += len(lines)
			continue
		}
		var s string
		if json.Unmarshal(c.Source, &s) == nil {
			n += strings.Count(s, "\n") + 1
		}
	}
	return n
}

package lint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// notebook is the Python view of an .ipynb file: its code cells joined,
// with IPython magics and shell escapes blanked out of the Python.
type notebook struct {
	src   []byte
	cells []Cell
	shell []Span
}

// Cell magics whose body is Python; a cell under any other cell magic
// (%%bash, %%html, %%writefile, ...) is not Python and is left out, except
// that %%bash, %%sh and %%script bodies are read as shell.
var pythonCellMagics = map[string]bool{"time": true, "timeit": true, "capture": true, "prun": true, "debug": true, "memit": true}
var shellCellMagics = map[string]bool{"bash": true, "sh": true, "script": true, "system": true}

// loadNotebook reads nbformat 4 JSON. Cells are numbered from 1 counting
// every cell, markdown included, in file order.
func loadNotebook(data []byte) (*notebook, error) {
	raw, err := readCells(data)
	if err != nil {
		return nil, fmt.Errorf("not a Jupyter notebook (nbformat 4 JSON): %w", err)
	}
	nb := &notebook{}
	var b bytes.Buffer
	line := 1
	for i, c := range raw {
		if c.kind != "code" {
			continue
		}
		lines := strings.Split(strings.Join(c.source, ""), "\n")
		if len(lines) > 0 && lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		if len(lines) == 0 {
			continue
		}
		cell := Cell{Index: i + 1, FirstLine: line}
		mode := "python"
		// a !shell or %magic line ending in a backslash continues on the
		// next line, which is the command's too, not Python
		magicCont := false
		for j, l := range lines {
			start := b.Len()
			text := l
			switch {
			case j == 0 && strings.HasPrefix(strings.TrimSpace(l), "%%"):
				name := strings.Fields(strings.TrimSpace(l)[2:])
				switch {
				case len(name) > 0 && pythonCellMagics[name[0]]:
				case len(name) > 0 && shellCellMagics[name[0]]:
					mode = "shell"
				default:
					mode = "other"
				}
				text = blankLine(l)
			case mode != "python":
				if mode == "shell" {
					nb.shell = append(nb.shell, Span{start, start + len(l), l})
				}
				text = blankLine(l)
			case magicCont || isMagic(l):
				nb.shell = append(nb.shell, Span{start, start + len(l), l})
				text = blankLine(l)
			}
			magicCont = text != l && mode == "python" && strings.HasSuffix(strings.TrimRight(l, " \t\r"), "\\")
			b.WriteString(text)
			b.WriteByte('\n')
			cell.JSONLines = append(cell.JSONLines, c.jsonLine(j))
			line++
		}
		nb.cells = append(nb.cells, cell)
	}
	nb.src = b.Bytes()
	return nb, nil
}

// isMagic reports whether a line is IPython syntax rather than Python:
// %magic, !shell, x = !shell, x = %magic, or a help query ending in "?".
func isMagic(l string) bool {
	t := strings.TrimSpace(l)
	if t == "" {
		return false
	}
	switch t[0] {
	case '%', '!', '?':
		return true
	}
	if strings.HasSuffix(t, "?") && !strings.Contains(t, "#") {
		return true
	}
	if name, rest, ok := strings.Cut(t, "="); ok && !strings.ContainsAny(name, "([{'\"") {
		rest = strings.TrimSpace(rest)
		if strings.HasPrefix(rest, "!") || strings.HasPrefix(rest, "%") {
			return true
		}
	}
	return isAutomagic(t)
}

// automagics are the line magics IPython runs without their % (automagic
// is on by default): "pip install -r requirements.txt" in a cell.
var automagics = map[string]bool{"pip": true, "conda": true, "cd": true, "mamba": true}

// isAutomagic reports whether t is an automagic command: one of the names
// followed by a word, which as Python would be a syntax error anyway.
func isAutomagic(t string) bool {
	name, rest, ok := strings.Cut(t, " ")
	if !ok || !automagics[name] {
		return false
	}
	rest = strings.TrimLeft(rest, " ")
	if rest == "" {
		return false
	}
	c := rest[0]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '/' || c == '~'
}

// blankLine turns a line into Python that does nothing and has the same
// length, so columns after it are unchanged: "pass#..." keeps any block it
// sits in non-empty; short lines become a comment.
func blankLine(l string) string {
	indent := len(l) - len(strings.TrimLeft(l, " \t"))
	body := l[indent:]
	switch {
	case len(body) >= 5:
		return l[:indent] + "pass#" + body[5:]
	case len(body) > 0:
		return l[:indent] + "#" + body[1:]
	}
	return l
}

type rawCell struct {
	kind   string
	source []string
	lines  []int // JSON line of each source string (list form)
	line   int   // JSON line of the source value
}

// jsonLine maps the j-th line of the cell to the JSON text. In the usual
// list form each line is its own string; otherwise the string's line is
// the best we know.
func (c rawCell) jsonLine(j int) int {
	if len(c.lines) == len(c.source) && c.kind == "code" {
		// Source strings normally hold exactly one line each.
		n := 0
		for i, s := range c.source {
			k := strings.Count(s, "\n")
			if !strings.HasSuffix(s, "\n") {
				k++
			}
			if j < n+k {
				return c.lines[i]
			}
			n += k
		}
	}
	return c.line
}

// readCells walks the notebook JSON with a token decoder so that it knows
// the line of each source string.
func readCells(data []byte) ([]rawCell, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	// lineAt counts newlines from where it last stopped: offsets only grow,
	// and counting from the start each time is quadratic in the notebook.
	off, line := 0, 1
	lineAt := func() int {
		end := int(dec.InputOffset())
		line += bytes.Count(data[off:end], []byte("\n"))
		off = end
		return line
	}
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	var cells []rawCell
	found := false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, err
		}
		if key != "cells" {
			if err := skipValue(dec); err != nil {
				return nil, err
			}
			continue
		}
		found = true
		if err := expectDelim(dec, '['); err != nil {
			return nil, err
		}
		for dec.More() {
			if err := expectDelim(dec, '{'); err != nil {
				return nil, err
			}
			var c rawCell
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				switch k {
				case "cell_type":
					if err := dec.Decode(&c.kind); err != nil {
						return nil, err
					}
				case "source":
					tok, err := dec.Token()
					if err != nil {
						return nil, err
					}
					c.line = lineAt()
					switch v := tok.(type) {
					case string:
						c.source = []string{v}
					case json.Delim:
						if v != '[' {
							return nil, errors.New("cell source is not a string or a list")
						}
						for dec.More() {
							var s string
							if err := dec.Decode(&s); err != nil {
								return nil, err
							}
							c.source = append(c.source, s)
							c.lines = append(c.lines, lineAt())
						}
						if _, err := dec.Token(); err != nil {
							return nil, err
						}
					default:
						return nil, errors.New("cell source is not a string or a list")
					}
				default:
					if err := skipValue(dec); err != nil {
						return nil, err
					}
				}
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			cells = append(cells, c)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
	}
	if !found {
		return nil, errors.New(`no "cells" list (nbformat 3 and older are not supported)`)
	}
	return cells, nil
}

func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err == io.EOF {
		return errors.New("unexpected end of JSON")
	}
	if err != nil {
		return err
	}
	if tok != d {
		return fmt.Errorf("expected %q, found %v", d, tok)
	}
	return nil
}

// skipValue reads past one value (outputs with embedded images are most
// of a notebook) without copying it.
func skipValue(dec *json.Decoder) error {
	return dec.Decode(&skipped{})
}

// skipped is a json.Unmarshaler that keeps nothing.
type skipped struct{}

func (*skipped) UnmarshalJSON([]byte) error { return nil }

package pyparse

// Large files are parsed in pieces on several cores. A piece boundary is
// the start of a line that certainly begins a new top-level statement:
// column 0, outside any bracket, string or backslash continuation, not a
// clause of the statement before (else, elif, except, finally) and not
// right after a decorator. The scan is a light tokenizer and can be fooled
// (a PEP 701 f-string nesting its own quotes, say); a piece that then
// fails to parse makes Parse parse the whole file, so a bad cut costs time,
// never correctness.

const (
	minPiece = 64 << 10 // bytes; below this one parser is faster
)

type span struct{ start, end int }

// split returns up to n pieces covering src.
func split(src []byte, n int) []span {
	if n > 4 {
		n = 4
	}
	if n < 2 || len(src) < 2*minPiece {
		return []span{{0, len(src)}}
	}
	if k := len(src) / minPiece; k < n {
		n = k
	}
	cuts := boundaries(src)
	out := make([]span, 0, n)
	start := 0
	for i := 1; i < n; i++ {
		want := len(src) * i / n
		best := -1
		for _, c := range cuts {
			if c > start && (best < 0 || abs(c-want) < abs(best-want)) {
				best = c
			}
		}
		if best <= start || best >= len(src) {
			continue
		}
		out = append(out, span{start, best})
		start = best
	}
	return append(out, span{start, len(src)})
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// boundaries lists the offsets of lines that begin a top-level statement.
func boundaries(src []byte) []int {
	var cuts []int
	depth := 0
	var quote byte // ' or " while in a string
	triple := false
	lineStart := true
	continued := false // previous line ended in a backslash
	afterDecorator := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if lineStart && quote == 0 {
			lineStart = false
			if depth == 0 && !continued && startsStatement(src[i:]) {
				if !afterDecorator {
					cuts = append(cuts, i)
				}
				afterDecorator = c == '@'
			}
			continued = false
		}
		if quote != 0 {
			switch {
			case c == '\\':
				i++ // an escaped character, perhaps a newline
			case c == '\n':
				if !triple { // unterminated: give up on this string
					quote = 0
					lineStart = true
				}
			case c == quote && !triple:
				quote = 0
			case c == quote && i+2 < len(src) && src[i+1] == quote && src[i+2] == quote:
				quote = 0
				i += 2
			}
			continue
		}
		switch c {
		case '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			lineStart = true
		case '\\':
			if i+1 < len(src) && src[i+1] == '\n' {
				continued = true
				i++
				lineStart = true
			}
		case '\n':
			lineStart = true
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		case '\'', '"':
			quote = c
			triple = i+2 < len(src) && src[i+1] == c && src[i+2] == c
			if triple {
				i += 2
			}
		}
	}
	return cuts
}

// startsStatement reports whether a line (at column 0) can begin a new
// top-level statement.
func startsStatement(line []byte) bool {
	if len(line) == 0 {
		return false
	}
	switch line[0] {
	case ' ', '\t', '\n', '\r', '#', ')', ']', '}', '\f':
		return false
	}
	for _, kw := range []string{"else", "elif", "except", "finally"} {
		if len(line) > len(kw) && string(line[:len(kw)]) == kw {
			next := line[len(kw)]
			if next == ':' || next == ' ' || next == '*' || next == '(' || next == '\t' {
				return false
			}
		}
	}
	return true
}

package pyparse

// tree-sitter-python 0.25 takes only a name, attribute or call after the
// star of a splat in an unparenthesised expression list:
// `return name, *(int(x) for x in m)` (litgpt's convert_hf_checkpoint.py),
// `a = 1, *(x)` and `a = 1, *[x]` are ERRORs, while `a = 1, *f(x)` and
// any splat inside brackets or a call parse. lint then skipped the whole
// file. parenSplats rewrites each such `*(...)` the same length, so a
// re-parse gives every other node the offsets of the source as written;
// Parse uses it only when the source as written fails and the rewrite
// parses cleanly.

// parenSplats returns src with every `*(` that follows a comma or
// `return`, `yield`, `in` or `=` (where `*` cannot multiply) after a space
// rewritten as a call of `_`: ` *(...)` becomes `*_(...)`, which the
// grammar takes (a splat of a call), one byte earlier, the parenthesised
// expression where it was. It reports whether it changed anything.
// Strings and comments are skipped.
func parenSplats(src []byte) ([]byte, bool) {
	var out []byte
	for i := 1; i < len(src); i++ {
		switch c := src[i]; {
		case c == '#':
			i = lineEnd(src, i) - 1
		case c == '"' || c == '\'':
			i = stringEnd(src, i) - 1
		case c == '*' && i+1 < len(src) && src[i+1] == '(' && (src[i-1] == ' ' || src[i-1] == '\t') && splatContext(src, i):
			if out == nil {
				out = append([]byte(nil), src...)
			}
			out[i-1], out[i] = '*', '_'
		}
	}
	return out, out != nil
}

// splatContext reports whether the `*` at i follows a comma, `=` (not
// `==`) or the keyword return, yield or in.
func splatContext(src []byte, i int) bool {
	j := i - 1
	for j >= 0 && (src[j] == ' ' || src[j] == '\t') {
		j--
	}
	if j < 0 {
		return false
	}
	switch src[j] {
	case ',':
		return true
	case '=':
		return j == 0 || !isOp(src[j-1])
	}
	end := j + 1
	for j >= 0 && isWord(src[j]) {
		j--
	}
	w := string(src[j+1 : end])
	return (w == "return" || w == "yield" || w == "in") && (j < 0 || !isWord(src[j]) && src[j] != '.')
}

// stringEnd is the index just past the string literal starting with the
// quote at i (single or triple quoted; a backslash escapes the next byte).
func stringEnd(src []byte, i int) int {
	q := src[i]
	triple := i+2 < len(src) && src[i+1] == q && src[i+2] == q
	j := i + 1
	if triple {
		j = i + 3
	}
	for j < len(src) {
		switch {
		case src[j] == '\\':
			j += 2
			continue
		case !triple && src[j] == '\n':
			return j
		case src[j] == q && (!triple || j+2 < len(src) && src[j+1] == q && src[j+2] == q):
			if triple {
				return j + 3
			}
			return j + 1
		}
		j++
	}
	return len(src)
}

func lineEnd(src []byte, i int) int {
	for i < len(src) && src[i] != '\n' {
		i++
	}
	return i
}

func isWord(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isOp(c byte) bool {
	switch c {
	case '=', '!', '<', '>', '+', '-', '*', '/', '%', '&', '|', '^', '@', ':':
		return true
	}
	return false
}

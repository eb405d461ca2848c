//go:build cgo

package pyparse

import (
	"errors"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/lint"
)

// TestParenthesisedSplat: a parenthesised star in an unparenthesised
// expression list (valid Python since 3.8, an ERROR to tree-sitter-python
// 0.25: litgpt's `return layer_name_template, *(int(x) for x in
// search_res[:num_matches])`) parses, and the expression under the star
// keeps its offsets in the source as written. A star that multiplies is
// left alone, and a real syntax error is still one.
func TestParenthesisedSplat(t *testing.T) {
	src := "def f(t, m):\n    return t, *(int(x) for x in m)\n\n\na = 1, *(b, c)\nfor q in 1, *(b):\n    d = 2 *(3)\n"
	root, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var gens []*lint.Node
	var walk func(n *lint.Node)
	walk = func(n *lint.Node) {
		if n.Kind == "generator_expression" {
			gens = append(gens, n)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(root)
	if len(gens) != 1 || src[gens[0].Start:gens[0].End] != "(int(x) for x in m)" {
		t.Fatalf("generator expressions %v in %s", gens, sexp([]byte(src), root))
	}
	if out, ok := parenSplats([]byte("d = 2 *(3)\ns = '1, *(2'  # , *(3\n")); ok {
		t.Errorf("rewrote a product, a string or a comment: %q", out)
	}
	_, err = Parse([]byte("a = 1, *(b\nc = (\n"))
	var se *lint.SyntaxError
	if !errors.As(err, &se) || !strings.Contains(se.Msg, "not valid Python 3 syntax") {
		t.Errorf("a real syntax error: %v", err)
	}
}

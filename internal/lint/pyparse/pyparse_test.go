//go:build cgo

package pyparse

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/lint"
)

// sexp prints a tree compactly: (kind field=... children).
func sexp(src []byte, n *lint.Node) string {
	var b strings.Builder
	var walk func(n *lint.Node)
	walk = func(n *lint.Node) {
		b.WriteString("(")
		if n.Field != "" {
			b.WriteString(n.Field + ":")
		}
		b.WriteString(n.Kind)
		if len(n.Children) == 0 {
			fmt.Fprintf(&b, " %q", src[n.Start:n.End])
		}
		for _, c := range n.Children {
			if c.Parent != n {
				b.WriteString(" BADPARENT")
			}
			b.WriteString(" ")
			walk(c)
		}
		b.WriteString(")")
	}
	walk(n)
	return b.String()
}

func TestParseShape(t *testing.T) {
	src := []byte("total += loss\nx = torch.zeros(3, device='cuda')\n")
	root, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	got := sexp(src, root)
	for _, want := range []string{
		`(augmented_assignment (left:identifier "total") (operator:+= "+=") (right:identifier "loss"))`,
		`(function:attribute (object:identifier "torch") (attribute:identifier "zeros"))`,
		`(keyword_argument (name:identifier "device") (value:string (string_start "'") (string_content "cuda") (string_end "'")))`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("tree lacks %s\n%s", want, got)
		}
	}
	if strings.Contains(got, `"("`) || strings.Contains(got, `","`) {
		t.Errorf("punctuation kept: %s", got)
	}
}

func TestModernSyntax(t *testing.T) {
	src := []byte(`type Vec[T] = list[T]

def first[T](xs: list[T]) -> T:
    return xs[0]

match cmd:
    case {"lr": float(lr)}:
        print(f"{cfg["lr"]:.3f}")
    case _:
        pass

async def f():
    async with lock:
        await g()

try:
    pass
except* ValueError:
    pass
`)
	if _, err := Parse(src); err != nil {
		t.Fatalf("3.12 syntax: %v", err)
	}
}

func TestSyntaxError(t *testing.T) {
	src := []byte("import torch\n\ndef f(:\n    pass\n")
	_, err := Parse(src)
	var se *lint.SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("want SyntaxError, got %v", err)
	}
	if line := strings.Count(string(src[:se.Offset]), "\n") + 1; line != 3 {
		t.Errorf("error on line %d, want 3 (%v)", line, se)
	}
}

// TestSplitMatchesWhole checks that the parallel parse of a long file
// gives exactly the tree of one parse.
func TestSplitMatchesWhole(t *testing.T) {
	src := []byte(strings.Repeat(sample, 400))
	parts := split(src, 4)
	if len(parts) < 2 {
		t.Fatalf("%d bytes not split", len(src))
	}
	got, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := parseChunk(src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := sexp(src, got), sexp(src, &whole.root[0]); a != b {
		t.Errorf("split parse differs from whole parse (%d vs %d bytes of s-expression)", len(a), len(b))
	}
}

func TestBoundaries(t *testing.T) {
	src := "import a\n@dec\ndef f():\n    s = '''\nx = 1\n'''\n    return (1,\n2)\nif x:\n    pass\nelse:\n    pass\ny = 'a\\\n'\nz = 1\n"
	var got []string
	for _, c := range boundaries([]byte(src)) {
		got = append(got, strings.SplitN(src[c:], "\n", 2)[0])
	}
	want := []string{"import a", "@dec", "if x:", "y = 'a\\", "z = 1"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("boundaries at %q, want %q", got, want)
	}
}

const sample = `
@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    s = """docstring
def not_a_def():
"""
    total = 0.0
    for x, y in loader:
        total += criterion(model(x), y).item()
    return total


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(10, 10)

    def forward(self, x):
        return self.fc(x)


if __name__ == "__main__":
    main()
else:
    pass
`

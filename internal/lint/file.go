package lint

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// File is one parsed Python source: a .py file, or the code cells of a
// notebook joined into one source (Cells maps lines back to cells). A File
// is read-only once NewFile (and the notebook or shell set-up in Check)
// returns, so rules may share it across goroutines.
type File struct {
	Path  string
	Src   []byte
	Root  *Node
	Cells []Cell // notebooks only
	// Shell lists the lines of shell code: every line of a shell script
	// (whose Root is nil), or the IPython magics and ! lines of a notebook
	// (which the Python source holds blanked out).
	Shell []Span

	lines     []int              // byte offset of each line start
	kinds     map[string][]*Node // every node by kind, in source order
	imports   map[string]string  // local name → qualified name
	gradOffAt map[*Node]int      // scope → first set_grad_enabled(False)
	calls     callIndex          // calls and other references by name
}

// Span is a line of shell code at Src[Start:End]. Text is the line as the
// shell sees it: for a notebook magic, Src holds a blanked-out copy.
type Span struct {
	Start, End int
	Text       string
}

// Cell is a notebook code cell: its 1-based index among all cells of the
// notebook, the first line (1-based) it occupies in File.Src, and for each
// of its lines the line of the .ipynb JSON text the line came from (0 when
// unknown).
type Cell struct {
	Index     int
	FirstLine int
	JSONLines []int
}

// NewFile indexes a parsed tree: nodes by kind, line starts and the import
// table.
func NewFile(path string, src []byte, root *Node) *File {
	f := &File{Path: path, Src: src, Root: root, kinds: map[string][]*Node{}}
	f.lines = append(f.lines, 0)
	for i, b := range src {
		if b == '\n' {
			f.lines = append(f.lines, i+1)
		}
	}
	var index func(n *Node)
	index = func(n *Node) {
		f.kinds[n.Kind] = append(f.kinds[n.Kind], n)
		for _, c := range n.Children {
			index(c)
		}
	}
	if root != nil {
		index(root)
	}
	f.imports = buildImports(f)
	f.gradOffAt = gradOffStatements(f)
	f.calls = buildCallIndex(f)
	return f
}

// Nodes returns every node of the kind, in source order.
func (f *File) Nodes(kind string) []*Node { return f.kinds[kind] }

// Text returns the source text of n.
func (f *File) Text(n *Node) string {
	if n == nil {
		return ""
	}
	return string(f.Src[n.Start:n.End])
}

// TextIs reports whether n's source text is s, without allocating.
func (f *File) TextIs(n *Node, s string) bool {
	return n != nil && n.End-n.Start == len(s) && string(f.Src[n.Start:n.End]) == s
}

// Position is a 1-based line and column (in Unicode code points). For
// notebooks Cell is the 1-based cell index and Line is within the cell.
type Position struct {
	Cell     int `json:"cell,omitempty"`
	Line     int `json:"line"`
	Col      int `json:"column"`
	JSONLine int `json:"-"` // notebooks: line in the .ipynb text, 0 if unknown
}

// Pos converts a byte offset of Src to a position.
func (f *File) Pos(off int) Position {
	line := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off }) - 1
	if line < 0 {
		line = 0
	}
	col := utf8.RuneCount(f.Src[f.lines[line]:off]) + 1
	p := Position{Line: line + 1, Col: col}
	if len(f.Cells) > 0 {
		i := sort.Search(len(f.Cells), func(i int) bool { return f.Cells[i].FirstLine > p.Line }) - 1
		if i >= 0 {
			c := f.Cells[i]
			p.Cell = c.Index
			p.Line = p.Line - c.FirstLine + 1
			if p.Line-1 < len(c.JSONLines) {
				p.JSONLine = c.JSONLines[p.Line-1]
			}
		}
	}
	return p
}

// LineText returns line (1-based, of Src) without its newline.
func (f *File) LineText(line int) string {
	if line < 1 || line > len(f.lines) {
		return ""
	}
	start := f.lines[line-1]
	end := len(f.Src)
	if line < len(f.lines) {
		end = f.lines[line] - 1
	}
	return strings.TrimRight(string(f.Src[start:end]), "\r")
}

// Line returns the 1-based line of Src holding the byte offset.
func (f *File) Line(off int) int {
	return sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off })
}

// Args splits a call's argument list into positional arguments and keyword
// argument values by name. star is true when the call passes *args or
// **kwargs, so a keyword that is missing here may still be given.
func (f *File) Args(call *Node) (pos []*Node, kw map[string]*Node, star bool) {
	kw = map[string]*Node{}
	al := call.Child("arguments")
	if al == nil || al.Kind != "argument_list" {
		return nil, kw, al != nil
	}
	for _, a := range al.Children {
		switch {
		case !a.Named || a.Kind == "comment":
		case a.Kind == "keyword_argument":
			kw[f.Text(a.Child("name"))] = a.Child("value")
		case a.Kind == "list_splat" || a.Kind == "dictionary_splat":
			star = true
		default:
			pos = append(pos, a)
		}
	}
	return pos, kw, star
}

// IsTrue reports whether n is the literal True.
func (f *File) IsTrue(n *Node) bool { return n != nil && n.Kind == "true" }

// IsFalse reports whether n is the literal False.
func (f *File) IsFalse(n *Node) bool { return n != nil && n.Kind == "false" }

// Method returns the method name and receiver when call is obj.name(...).
func (f *File) Method(call *Node) (name string, recv *Node) {
	fn := call.Child("function")
	if fn == nil || fn.Kind != "attribute" {
		return "", nil
	}
	return f.Text(fn.Child("attribute")), fn.Child("object")
}

// StringValue returns the contents of a plain string literal (not an
// f-, b- or t-string; escape sequences are left as written), or ok=false.
// Implicitly concatenated literals are joined.
func (f *File) StringValue(n *Node) (string, bool) {
	n = Unparen(n)
	if n == nil {
		return "", false
	}
	if n.Kind == "concatenated_string" {
		var b strings.Builder
		for _, c := range n.NamedChildren() {
			s, ok := f.StringValue(c)
			if !ok {
				return "", false
			}
			b.WriteString(s)
		}
		return b.String(), true
	}
	if n.Kind != "string" {
		return "", false
	}
	var b strings.Builder
	for _, c := range n.Children {
		switch c.Kind {
		case "string_start":
			if strings.ContainsAny(strings.ToLower(f.Text(c)), "fbt") {
				return "", false
			}
		case "string_content":
			b.WriteString(f.Text(c))
		case "interpolation":
			return "", false
		}
	}
	return b.String(), true
}

package lint

// Node is one node of a Python syntax tree. The parser glue (package
// pyparse) copies it out of tree-sitter, so node kinds and field names are
// those of the tree-sitter-python grammar ("call", "attribute",
// "keyword_argument"; fields "function", "arguments", ...). Anonymous nodes
// (punctuation, keywords) are kept only where the grammar gives them a
// field, which is how operators ("+=", "+", "not in") appear.
type Node struct {
	Kind     string // grammar node type
	Field    string // field name in the parent, or ""
	Named    bool   // false for operators and other anonymous tokens
	Start    int    // byte offset of the first byte in File.Src
	End      int    // byte offset just past the last byte
	Parent   *Node
	Children []*Node
}

// Child returns the first child held in field, or nil.
func (n *Node) Child(field string) *Node {
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		if c.Field == field {
			return c
		}
	}
	return nil
}

// NamedChildren returns the named children (expressions, statements),
// leaving out operators.
func (n *Node) NamedChildren() []*Node {
	if n == nil {
		return nil
	}
	out := make([]*Node, 0, len(n.Children))
	for _, c := range n.Children {
		if c.Named && c.Kind != "comment" {
			out = append(out, c)
		}
	}
	return out
}

// Is reports whether n is non-nil and of one of the kinds.
func (n *Node) Is(kinds ...string) bool {
	if n == nil {
		return false
	}
	for _, k := range kinds {
		if n.Kind == k {
			return true
		}
	}
	return false
}

// Walk calls fn for n and every node below it in source order. When fn
// returns false the children of that node are skipped.
func (n *Node) Walk(fn func(*Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	for _, c := range n.Children {
		c.Walk(fn)
	}
}

// Ancestor returns the closest proper ancestor of one of the kinds, or nil.
func (n *Node) Ancestor(kinds ...string) *Node {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Is(kinds...) {
			return p
		}
	}
	return nil
}

// Unparen strips parentheses: ((x)) → x.
func Unparen(n *Node) *Node {
	for n != nil && n.Kind == "parenthesized_expression" {
		inner := n.NamedChildren()
		if len(inner) != 1 {
			break
		}
		n = inner[0]
	}
	return n
}

package lint

// buildImports maps every name bound by an import anywhere in the file to
// the qualified name it stands for:
//
//	import torch as t                       t  → torch
//	import torch.nn                         torch → torch
//	from torch import nn                    nn → torch.nn
//	from torch.cuda.amp import GradScaler as GS   GS → torch.cuda.amp.GradScaler
//
// Scopes are ignored (an import inside a function counts for the whole
// file). A name bound to two different targets, as in the
// try/except ImportError fallback idiom, maps to "" so that nothing is
// resolved through it. Relative and wildcard imports bind nothing.
func buildImports(f *File) map[string]string {
	m := map[string]string{}
	bind := func(local, target string) {
		if old, ok := m[local]; ok && old != target {
			m[local] = ""
			return
		}
		m[local] = target
	}
	for _, st := range f.Nodes("import_statement") {
		for _, c := range st.Children {
			switch {
			case c.Field != "name":
			case c.Kind == "dotted_name":
				full := f.Text(c)
				root := full
				for i := 0; i < len(full); i++ {
					if full[i] == '.' {
						root = full[:i]
						break
					}
				}
				bind(root, root)
			case c.Kind == "aliased_import":
				bind(f.Text(c.Child("alias")), dotted(f, c.Child("name")))
			}
		}
	}
	for _, st := range f.Nodes("import_from_statement") {
		mod := st.Child("module_name")
		if mod == nil || mod.Kind != "dotted_name" {
			continue
		}
		base := dotted(f, mod)
		for _, c := range st.Children {
			switch {
			case c.Field != "name":
			case c.Kind == "dotted_name":
				name := dotted(f, c)
				bind(name, base+"."+name)
			case c.Kind == "aliased_import":
				bind(f.Text(c.Child("alias")), base+"."+dotted(f, c.Child("name")))
			}
		}
	}
	return m
}

// dotted returns a dotted_name's text without whitespace or comments.
func dotted(f *File, n *Node) string {
	if n == nil {
		return ""
	}
	if n.Kind != "dotted_name" {
		return f.Text(n)
	}
	s := ""
	for _, c := range n.NamedChildren() {
		if s != "" {
			s += "."
		}
		s += f.Text(c)
	}
	return s
}

// QualifiedName resolves an identifier or attribute chain through the
// import table: with "import torch as T", T.cuda.amp.autocast gives
// "torch.cuda.amp.autocast". It returns "" when the chain does not start at
// an imported name.
func (f *File) QualifiedName(n *Node) string {
	n = Unparen(n)
	if n == nil {
		return ""
	}
	switch n.Kind {
	case "identifier":
		return f.imports[f.Text(n)]
	case "attribute":
		base := f.QualifiedName(n.Child("object"))
		if base == "" {
			return ""
		}
		return base + "." + f.Text(n.Child("attribute"))
	}
	return ""
}

// Resolves reports whether n names one of the qualified names.
func (f *File) Resolves(n *Node, names ...string) bool {
	q := f.QualifiedName(n)
	if q == "" {
		return false
	}
	for _, s := range names {
		if q == s {
			return true
		}
	}
	return false
}

// CallTo reports whether call is a call of one of the qualified names and
// returns the name that matched.
func (f *File) CallTo(call *Node, names ...string) (string, bool) {
	if call == nil || call.Kind != "call" {
		return "", false
	}
	q := f.QualifiedName(call.Child("function"))
	for _, s := range names {
		if q == s {
			return q, true
		}
	}
	return "", false
}

// ImportedAs returns the qualified name a local name was imported as, or "".
func (f *File) ImportedAs(local string) string { return f.imports[local] }

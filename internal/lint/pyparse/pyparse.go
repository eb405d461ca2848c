//go:build cgo

// Package pyparse is the tree-sitter glue of vramkit lint: it parses
// Python 3 source with tree-sitter-python and copies the tree into
// lint.Node values, so that the rules never see cgo or tree-sitter's API.
//
// Versions are pinned in go.mod: go-tree-sitter v0.25.0 (language ABI
// 13–15) with tree-sitter-python v0.25.0 (ABI 15). The pairing is checked at
// start-up and reported as an error instead of a crash.
//
// Speed: one cgo call parses and one walks the tree in C; files over a few
// thousand lines are cut at top-level statements and the pieces parsed in
// parallel (see split.go).
package pyparse

import (
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/vramkit/vramkit/internal/lint"
)

type lintNode = lint.Node

// Parse parses Python source. When the source has a syntax error it
// returns the tree (which then holds ERROR nodes) and a *lint.SyntaxError,
// unless the error is tree-sitter-python's with a parenthesised star in an
// expression list, which it parses around (splat.go).
func Parse(src []byte) (*lint.Node, error) {
	root, err := parse(src)
	if _, syntax := err.(*lint.SyntaxError); syntax {
		if alt, ok := parenSplats(src); ok {
			if r, err := parse(alt); err == nil {
				return r, nil
			}
		}
	}
	return root, err
}

func parse(src []byte) (*lint.Node, error) {
	if lang.err != nil {
		return nil, lang.err
	}
	parts := split(src, runtime.GOMAXPROCS(0))
	chunks := make([]chunk, len(parts))
	errs := make([]error, len(parts))
	if len(parts) == 1 {
		chunks[0], errs[0] = parseChunk(src, 0)
	} else {
		var wg sync.WaitGroup
		for i, p := range parts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				chunks[i], errs[i] = parseChunk(src[p.start:p.end], p.start)
			}()
		}
		wg.Wait()
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	for _, c := range chunks {
		if c.hasError && len(chunks) > 1 {
			// A cut in the wrong place (or a real error): parse the whole
			// file so the error and the tree are exactly tree-sitter's.
			c, err := parseChunk(src, 0)
			if err != nil {
				return nil, err
			}
			chunks = []chunk{c}
			break
		}
	}
	root := merge(chunks, len(src))
	for _, c := range chunks {
		if c.hasError {
			return root, syntaxError(src, c.firstError)
		}
	}
	return root, nil
}

// merge joins the module nodes of consecutive chunks into one module.
func merge(chunks []chunk, size int) *lint.Node {
	if len(chunks) == 1 {
		return &chunks[0].root[0]
	}
	n := 0
	for _, c := range chunks {
		n += len(c.root[0].Children)
	}
	root := &lint.Node{Kind: "module", Named: true, End: size, Children: make([]*lint.Node, 0, n)}
	for _, c := range chunks {
		for _, k := range c.root[0].Children {
			k.Parent = root
			root.Children = append(root.Children, k)
		}
	}
	return root
}

// build turns the flat pre-order array from C into linked nodes. All nodes
// share one arena and all child lists one backing array.
func build(flat []cNode, base int) []lint.Node {
	arena := make([]lint.Node, len(flat))
	counts := make([]int32, len(flat))
	for i := 1; i < len(flat); i++ {
		counts[flat[i].parent]++
	}
	kids := make([]*lint.Node, len(flat))
	off := 0
	for i := range flat {
		f := &flat[i]
		nd := &arena[i]
		nd.Kind, nd.Named = lang.kind(uint16(f.sym))
		nd.Field = lang.fields[f.field]
		nd.Start, nd.End = base+int(f.start), base+int(f.end)
		c := int(counts[i])
		nd.Children = kids[off : off : off+c]
		off += c
		if i > 0 {
			p := &arena[f.parent]
			nd.Parent = p
			p.Children = append(p.Children, nd)
		}
	}
	return arena
}

// syntaxError describes the first error: its line and what stands there.
func syntaxError(src []byte, off int) error {
	if off < 0 || off > len(src) {
		off = 0
	}
	lineStart := strings.LastIndexByte(string(src[:off]), '\n') + 1
	lineEnd := strings.IndexByte(string(src[off:]), '\n')
	if lineEnd < 0 {
		lineEnd = len(src)
	} else {
		lineEnd += off
	}
	near := strings.TrimSpace(string(src[lineStart:lineEnd]))
	if len(near) > 60 {
		near = near[:57] + "..."
	}
	msg := "not valid Python 3 syntax"
	if near != "" {
		msg = fmt.Sprintf("not valid Python 3 syntax near %q", near)
	}
	return &lint.SyntaxError{Offset: off, Msg: msg}
}

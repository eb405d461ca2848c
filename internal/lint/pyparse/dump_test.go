//go:build cgo

package pyparse

import (
	"os"
	"testing"
)

// TestDump prints the tree of $PYPARSE_DUMP, for writing rules.
func TestDump(t *testing.T) {
	path := os.Getenv("PYPARSE_DUMP")
	if path == "" {
		t.Skip("set PYPARSE_DUMP=file.py to print its tree")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	root, err := Parse(src)
	if err != nil {
		t.Log(err)
	}
	t.Log(sexp(src, root))
}

//go:build !cgo

package pyparse

import (
	"errors"

	"github.com/vramkit/vramkit/internal/lint"
)

// Parse is unavailable without cgo: tree-sitter is a C library.
func Parse(src []byte) (*lint.Node, error) {
	return nil, errors.New("this vramkit was built without cgo, so lint cannot parse Python (tree-sitter is C); rebuild with CGO_ENABLED=1")
}

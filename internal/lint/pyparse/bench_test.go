//go:build cgo

package pyparse

import (
	"strings"
	"testing"
)

// BenchmarkParse parses about 10,000 lines: tree-sitter's parse, the walk
// in C and the copy into lint.Node values, without any rule.
func BenchmarkParse(b *testing.B) {
	n := 10000/strings.Count(sample, "\n") + 1
	src := []byte(strings.Repeat(sample, n))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

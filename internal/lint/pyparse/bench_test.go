package pyparse

import (
	"os"
	"testing"
)

func BenchmarkParseTmp(b *testing.B) {
	src, err := os.ReadFile("/tmp/proto/big.py")
	if err != nil {
		b.Skip()
	}
	for b.Loop() {
		if _, err := Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

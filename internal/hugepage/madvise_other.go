//go:build !linux

package hugepage

func madvise([]byte) {}

//go:build linux

package hugepage

import "syscall"

func madvise(b []byte) { _ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) }

// Package hugepage asks the kernel to back large, freshly made slices with
// transparent huge pages.
//
// A 1 GiB snapshot decodes into hundreds of megabytes of trace events (and
// analyze keeps as many bytes of requests), written once front to back.
// Faulting that memory in 4 KiB at a time costs one page fault per 4 KiB;
// with 2 MiB pages it costs one per 2 MiB. Linux backs anonymous memory
// with huge pages only where a program asks (transparent_hugepage set to
// "madvise", the usual default) and the Go runtime does not ask for its
// heap, so the few slices that matter ask here. Elsewhere Advise does
// nothing.
package hugepage

import "unsafe"

// Size is the transparent huge page size of x86-64 and arm64 Linux.
const Size = 2 << 20

// minBytes is the smallest slice worth advising: a few huge pages.
const minBytes = 4 * Size

// Advise asks for huge pages under the whole 2 MiB pages inside s's
// capacity. Call it right after make, before the slice is written. It is
// a hint: failure changes nothing but speed.
func Advise[T any](s []T) {
	var zero T
	size := uintptr(cap(s)) * unsafe.Sizeof(zero)
	if size < minBytes {
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(s[:cap(s)]))
	start := uintptr(p)
	lo := (start + Size - 1) &^ (Size - 1)
	hi := (start + size) &^ (Size - 1)
	if hi <= lo {
		return
	}
	madvise(unsafe.Slice((*byte)(unsafe.Add(p, lo-start)), hi-lo))
}

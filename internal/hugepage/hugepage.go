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

import (
	"reflect"
	"unsafe"
)

// Size is the transparent huge page size of x86-64 and arm64 Linux.
const Size = 2 << 20

// minBytes is the smallest slice worth advising: a few huge pages.
const minBytes = 4 * Size

// Advise asks for huge pages under the whole 2 MiB pages inside s's
// capacity. Call it right after make, before the slice is written. It is
// a hint: failure changes nothing but speed.
func Advise[T any](s []T) {
	var zero T
	adviseRange(unsafe.Pointer(unsafe.SliceData(s[:cap(s)])), uintptr(cap(s))*unsafe.Sizeof(zero))
}

// AdviseAny is Advise for a slice passed as an interface value, for a
// package that hands its slices to a hook without naming their types (or
// importing unsafe); anything but a slice is ignored.
func AdviseAny(slice any) {
	v := reflect.ValueOf(slice)
	if v.Kind() != reflect.Slice || v.Cap() == 0 {
		return
	}
	adviseRange(v.Slice(0, v.Cap()).UnsafePointer(), uintptr(v.Cap())*v.Type().Elem().Size())
}

// adviseRange advises the whole huge pages inside size bytes at p.
func adviseRange(p unsafe.Pointer, size uintptr) {
	if size < minBytes {
		return
	}
	start := uintptr(p)
	lo := (start + Size - 1) &^ (Size - 1)
	hi := (start + size) &^ (Size - 1)
	if hi <= lo {
		return
	}
	madvise(unsafe.Slice((*byte)(unsafe.Add(p, lo-start)), hi-lo))
}

//go:build cgo && linux

package nvml

import (
	"unsafe"

	gonvml "github.com/NVIDIA/go-nvml/pkg/nvml"
)

// unsafeSlice views go-nvml's ProcArray (a Go-allocated copy) as a slice.
func unsafeSlice(p *gonvml.ProcessDetail_v1, n int) []gonvml.ProcessDetail_v1 {
	return unsafe.Slice(p, n)
}

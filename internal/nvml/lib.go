// Package nvml is vramkit's narrow view of NVIDIA's management library:
// devices, memory (including the driver's reserve), per-process used
// memory, utilisation, names and UUIDs. Lib covers exactly the calls vramkit
// makes; Open returns the real library (github.com/NVIDIA/go-nvml, cgo) and
// Fake is a hand-written stand-in for tests and --fake-gpu demos.
//
// The traps listed in the design notes are handled here, once, so that
// callers see plain values: "not available" sentinels become Known=false,
// process lists that look scrambled (the _v3 struct-layout mismatch) are
// rejected with ErrScrambled, and a missing driver is ErrNoDriver with a
// message a user can act on.
package nvml

import (
	"errors"
	"fmt"
)

// Lib is the part of NVML vramkit uses. Device indices are NVML's (which
// follow PCI bus order, not necessarily CUDA's default order).
type Lib interface {
	// Init loads the library and must succeed before any other call.
	Init() error
	// Shutdown releases the library; it is safe to call after a failed Init.
	Shutdown() error
	// DriverVersion is the kernel driver's version string, e.g. "570.86.15".
	DriverVersion() (string, error)
	// DeviceCount is the number of GPUs visible to NVML.
	DeviceCount() (int, error)
	// DeviceInfo returns the static identity of device i.
	DeviceInfo(i int) (DeviceInfo, error)
	// Memory returns the memory counters of device i.
	Memory(i int) (Memory, error)
	// Utilization returns the last sampling period's utilisation of device i.
	Utilization(i int) (Utilization, error)
	// Processes lists the compute processes holding memory on device i.
	Processes(i int) ([]Process, error)
}

// DeviceInfo is a device's identity.
type DeviceInfo struct {
	Index int    `json:"index"`
	UUID  string `json:"uuid"`
	Name  string `json:"name"`
}

// Memory is a device's frame-buffer accounting in bytes. With the v2 query
// Used excludes Reserved (memory the driver and firmware keep for
// themselves); when only the v1 query works ReservedKnown is false and Used
// includes the reserve, as nvidia-smi's older output did.
type Memory struct {
	Total         uint64 `json:"total_bytes"`
	Reserved      uint64 `json:"reserved_bytes"`
	Free          uint64 `json:"free_bytes"`
	Used          uint64 `json:"used_bytes"`
	ReservedKnown bool   `json:"reserved_known"`
}

// Utilization is in percent (0–100) over NVML's last sampling period.
type Utilization struct {
	GPU    uint32 `json:"gpu_percent"`
	Memory uint32 `json:"memory_percent"`
}

// Process is one process holding memory on a device. PID is as the driver
// sees it: the host PID namespace, so inside a container it may name no
// local process. UsedKnown is false when the driver reports "not available"
// (Windows WDDM, some MIG setups); Used is then 0.
type Process struct {
	PID       uint32 `json:"pid"`
	Used      uint64 `json:"used_bytes"`
	UsedKnown bool   `json:"used_known"`
}

var (
	// ErrNoDriver means libnvidia-ml could not be loaded: no NVIDIA driver
	// on this machine, or the container lacks the driver's libraries.
	ErrNoDriver = errors.New("NVIDIA driver not found (libnvidia-ml.so.1 could not be loaded); is this a GPU machine with the driver installed, and does the container have the NVIDIA runtime?")
	// ErrNoCgo means this binary was built without cgo, which go-nvml needs.
	ErrNoCgo = errors.New("this vramkit was built without cgo, so it cannot talk to NVML; rebuild with CGO_ENABLED=1")
	// ErrNotSupported means the device or driver does not support a query.
	ErrNotSupported = errors.New("not supported by this device or driver")
	// ErrGPULost means the GPU fell off the bus or needs a reset.
	ErrGPULost = errors.New("GPU is lost or needs a reset")
	// ErrNoPermission means the caller lacks the privileges for a query.
	ErrNoPermission = errors.New("insufficient permissions")
	// ErrScrambled means a process list failed sanity checks, which is how
	// the driver/library struct-layout mismatch of
	// nvmlDeviceGetComputeRunningProcesses_v3 shows up (go-nvml #21, #75).
	ErrScrambled = errors.New("process list failed sanity checks (driver/NVML struct mismatch?)")
)

// notAvailable is NVML_VALUE_NOT_AVAILABLE (-1) as an unsigned 64-bit value.
const notAvailable = ^uint64(0)

// CheckProcesses applies the sanity checks that catch the _v3 layout
// mismatch: every PID must be non-zero and every known size at most the
// device's total. It also turns "not available" sizes into UsedKnown=false.
func CheckProcesses(ps []Process, total uint64) ([]Process, error) {
	out := make([]Process, 0, len(ps))
	for _, p := range ps {
		if p.Used == notAvailable {
			p.Used, p.UsedKnown = 0, false
		}
		if p.PID == 0 || (total > 0 && p.UsedKnown && p.Used > total) {
			return nil, fmt.Errorf("%w: pid %d with %d bytes on a %d-byte device", ErrScrambled, p.PID, p.Used, total)
		}
		out = append(out, p)
	}
	return out, nil
}

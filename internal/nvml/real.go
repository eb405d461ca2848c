//go:build cgo && linux

package nvml

import (
	"errors"
	"fmt"
	"sync"

	gonvml "github.com/NVIDIA/go-nvml/pkg/nvml"
)

// real is Lib over go-nvml, which dlopens libnvidia-ml.so.1 at Init, so the
// binary builds and starts on machines without a driver.
type real struct {
	lib gonvml.Interface

	mu      sync.Mutex
	handles map[int]gonvml.Device
	// noDetail records devices where GetRunningProcessDetailList is missing
	// (drivers before ~550), so we stop asking.
	noDetail map[int]bool
	// noV2 records devices where GetMemoryInfo_v2 is unsupported.
	noV2 map[int]bool
}

// Open returns the real NVML library. Call Init before use.
func Open() Lib {
	return &real{lib: gonvml.New(), handles: map[int]gonvml.Device{}, noDetail: map[int]bool{}, noV2: map[int]bool{}}
}

// wrap turns an NVML return code into an error with our sentinels.
func wrap(op string, r gonvml.Return) error {
	if r == gonvml.SUCCESS {
		return nil
	}
	var sentinel error
	switch r {
	case gonvml.ERROR_LIBRARY_NOT_FOUND, gonvml.ERROR_DRIVER_NOT_LOADED:
		sentinel = ErrNoDriver
	case gonvml.ERROR_NOT_SUPPORTED, gonvml.ERROR_FUNCTION_NOT_FOUND:
		sentinel = ErrNotSupported
	case gonvml.ERROR_GPU_IS_LOST, gonvml.ERROR_RESET_REQUIRED:
		sentinel = ErrGPULost
	case gonvml.ERROR_NO_PERMISSION:
		sentinel = ErrNoPermission
	}
	if sentinel != nil {
		return fmt.Errorf("nvml: %s: %w (%s)", op, sentinel, r.Error())
	}
	return fmt.Errorf("nvml: %s: %s", op, r.Error())
}

func (l *real) Init() error {
	if r := l.lib.Init(); r != gonvml.SUCCESS {
		if r == gonvml.ERROR_LIBRARY_NOT_FOUND || r == gonvml.ERROR_DRIVER_NOT_LOADED {
			return ErrNoDriver
		}
		return wrap("init", r)
	}
	return nil
}

func (l *real) Shutdown() error {
	r := l.lib.Shutdown()
	if r == gonvml.ERROR_UNINITIALIZED {
		return nil
	}
	return wrap("shutdown", r)
}

func (l *real) DriverVersion() (string, error) {
	v, r := l.lib.SystemGetDriverVersion()
	return v, wrap("driver version", r)
}

func (l *real) DeviceCount() (int, error) {
	n, r := l.lib.DeviceGetCount()
	return n, wrap("device count", r)
}

func (l *real) device(i int) (gonvml.Device, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if d, ok := l.handles[i]; ok {
		return d, nil
	}
	d, r := l.lib.DeviceGetHandleByIndex(i)
	if err := wrap(fmt.Sprintf("device %d", i), r); err != nil {
		return nil, err
	}
	l.handles[i] = d
	return d, nil
}

func (l *real) DeviceInfo(i int) (DeviceInfo, error) {
	d, err := l.device(i)
	if err != nil {
		return DeviceInfo{}, err
	}
	name, r := d.GetName()
	if err := wrap(fmt.Sprintf("device %d: name", i), r); err != nil {
		return DeviceInfo{}, err
	}
	uuid, r := d.GetUUID()
	if err := wrap(fmt.Sprintf("device %d: uuid", i), r); err != nil {
		return DeviceInfo{}, err
	}
	return DeviceInfo{Index: i, UUID: uuid, Name: name}, nil
}

func (l *real) Memory(i int) (Memory, error) {
	d, err := l.device(i)
	if err != nil {
		return Memory{}, err
	}
	l.mu.Lock()
	tryV2 := !l.noV2[i]
	l.mu.Unlock()
	if tryV2 {
		m, r := d.GetMemoryInfo_v2()
		if r == gonvml.SUCCESS {
			return Memory{Total: m.Total, Reserved: m.Reserved, Free: m.Free, Used: m.Used, ReservedKnown: true}, nil
		}
		if err := wrap("", r); !errors.Is(err, ErrNotSupported) {
			return Memory{}, wrap(fmt.Sprintf("device %d: memory", i), r)
		}
		l.mu.Lock()
		l.noV2[i] = true
		l.mu.Unlock()
	}
	m, r := d.GetMemoryInfo()
	if err := wrap(fmt.Sprintf("device %d: memory", i), r); err != nil {
		return Memory{}, err
	}
	return Memory{Total: m.Total, Free: m.Free, Used: m.Used}, nil
}

func (l *real) Utilization(i int) (Utilization, error) {
	d, err := l.device(i)
	if err != nil {
		return Utilization{}, err
	}
	u, r := d.GetUtilizationRates()
	if err := wrap(fmt.Sprintf("device %d: utilization", i), r); err != nil {
		return Utilization{}, err
	}
	return Utilization{GPU: u.Gpu, Memory: u.Memory}, nil
}

// Processes prefers nvmlDeviceGetRunningProcessDetailList, whose struct is
// versioned and so immune to the _v3 layout mismatch, and falls back to
// GetComputeRunningProcesses with sanity checks on older drivers.
func (l *real) Processes(i int) ([]Process, error) {
	d, err := l.device(i)
	if err != nil {
		return nil, err
	}
	total := uint64(0)
	if m, r := d.GetMemoryInfo(); r == gonvml.SUCCESS {
		total = m.Total
	}
	l.mu.Lock()
	tryDetail := !l.noDetail[i]
	l.mu.Unlock()
	if tryDetail {
		list, r := d.GetRunningProcessDetailList()
		if r == gonvml.SUCCESS {
			var ps []Process
			if list.NumProcArrayEntries > 0 && list.ProcArray != nil {
				for _, p := range unsafeSlice(list.ProcArray, int(list.NumProcArrayEntries)) {
					ps = append(ps, Process{PID: p.Pid, Used: p.UsedGpuMemory, UsedKnown: true})
				}
			}
			return checked(i, ps, total)
		}
		l.mu.Lock()
		l.noDetail[i] = true
		l.mu.Unlock()
	}
	infos, r := d.GetComputeRunningProcesses()
	if err := wrap(fmt.Sprintf("device %d: processes", i), r); err != nil {
		return nil, err
	}
	ps := make([]Process, 0, len(infos))
	for _, p := range infos {
		ps = append(ps, Process{PID: p.Pid, Used: p.UsedGpuMemory, UsedKnown: true})
	}
	return checked(i, ps, total)
}

func checked(i int, ps []Process, total uint64) ([]Process, error) {
	out, err := CheckProcesses(ps, total)
	if err != nil {
		return nil, fmt.Errorf("nvml: device %d: %w", i, err)
	}
	return out, nil
}

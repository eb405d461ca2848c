package nvml

import (
	"fmt"
	"sync"
)

// Fake is an in-memory Lib for tests and demos. Its fields may be changed
// between calls through the setter methods, which are safe for concurrent
// use with the Lib methods.
type Fake struct {
	mu      sync.Mutex
	driver  string
	gpus    []FakeGPU
	initErr error
	calls   int
}

// FakeGPU is one fake device. Err, when set, is returned by every query on
// the device (a GPU that fell off the bus); ProcErr only by Processes.
type FakeGPU struct {
	Info    DeviceInfo
	Memory  Memory
	Util    Utilization
	Procs   []Process
	Err     error
	ProcErr error
}

// NewFake returns a Fake with the given devices; their Info.Index is set to
// their position.
func NewFake(driver string, gpus ...FakeGPU) *Fake {
	f := &Fake{driver: driver}
	for i, g := range gpus {
		g.Info.Index = i
		f.gpus = append(f.gpus, g)
	}
	return f
}

// SetInitError makes Init fail with err (e.g. ErrNoDriver).
func (f *Fake) SetInitError(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.initErr = err
}

// Update calls fn with the device list under the lock, so a test or demo
// can change memory, processes or errors atomically.
func (f *Fake) Update(fn func(gpus []FakeGPU)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f.gpus)
}

// Calls is the number of Lib calls made so far.
func (f *Fake) Calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

// Init implements Lib.
func (f *Fake) Init() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	return f.initErr
}

// Shutdown implements Lib.
func (f *Fake) Shutdown() error { return nil }

// DriverVersion implements Lib.
func (f *Fake) DriverVersion() (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	return f.driver, nil
}

// DeviceCount implements Lib.
func (f *Fake) DeviceCount() (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	return len(f.gpus), nil
}

func (f *Fake) gpu(i int) (*FakeGPU, error) {
	f.calls++
	if i < 0 || i >= len(f.gpus) {
		return nil, fmt.Errorf("nvml: device %d: invalid index (have %d)", i, len(f.gpus))
	}
	g := &f.gpus[i]
	if g.Err != nil {
		return nil, fmt.Errorf("nvml: device %d: %w", i, g.Err)
	}
	return g, nil
}

// DeviceInfo implements Lib.
func (f *Fake) DeviceInfo(i int) (DeviceInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g, err := f.gpu(i)
	if err != nil {
		return DeviceInfo{}, err
	}
	return g.Info, nil
}

// Memory implements Lib.
func (f *Fake) Memory(i int) (Memory, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g, err := f.gpu(i)
	if err != nil {
		return Memory{}, err
	}
	return g.Memory, nil
}

// Utilization implements Lib.
func (f *Fake) Utilization(i int) (Utilization, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g, err := f.gpu(i)
	if err != nil {
		return Utilization{}, err
	}
	return g.Util, nil
}

// Processes implements Lib. Like the real library it runs the sanity
// checks, so tests can feed it scrambled lists.
func (f *Fake) Processes(i int) ([]Process, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g, err := f.gpu(i)
	if err != nil {
		return nil, err
	}
	if g.ProcErr != nil {
		return nil, fmt.Errorf("nvml: device %d: processes: %w", i, g.ProcErr)
	}
	ps, err := CheckProcesses(g.Procs, g.Memory.Total)
	if err != nil {
		return nil, fmt.Errorf("nvml: device %d: %w", i, err)
	}
	return ps, nil
}

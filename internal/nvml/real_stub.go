//go:build !cgo || !linux

package nvml

// Open returns a Lib whose Init explains why NVML is unavailable: go-nvml
// needs cgo and Linux.
func Open() Lib { return stub{} }

type stub struct{}

func (stub) Init() error                          { return ErrNoCgo }
func (stub) Shutdown() error                      { return nil }
func (stub) DriverVersion() (string, error)       { return "", ErrNoCgo }
func (stub) DeviceCount() (int, error)            { return 0, ErrNoCgo }
func (stub) DeviceInfo(int) (DeviceInfo, error)   { return DeviceInfo{}, ErrNoCgo }
func (stub) Memory(int) (Memory, error)           { return Memory{}, ErrNoCgo }
func (stub) Utilization(int) (Utilization, error) { return Utilization{}, ErrNoCgo }
func (stub) Processes(int) ([]Process, error)     { return nil, ErrNoCgo }

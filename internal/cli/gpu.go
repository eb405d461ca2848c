package cli

import (
	"errors"
	"fmt"
	"time"

	"github.com/vramkit/vramkit/internal/monitor"
	"github.com/vramkit/vramkit/internal/nvml"
)

// openGPU returns the NVML library and process table for watch and
// export: the real ones, or with fake the demo machine (3 fake H200s, one
// leaking process, one lost GPU) and its made-up processes.
func openGPU(fake bool) (nvml.Lib, monitor.Procs) {
	if !fake {
		return nvml.Open(), monitor.NewProcFS("/proc")
	}
	procs := monitor.StaticProcs{}
	for _, p := range nvml.DemoProcesses() {
		name := p.Command
		if i := indexSpace(name); i > 0 {
			name = name[:i]
		}
		procs[p.PID] = monitor.ProcInfo{PPID: 1, User: p.User, Name: name, Command: p.Command}
	}
	return nvml.NewDemo(time.Now), procs
}

func indexSpace(s string) int {
	for i, r := range s {
		if r == ' ' {
			return i
		}
	}
	return -1
}

// demoHint points a user without NVML at --fake-gpu, for the commands
// that have that flag (watch, export); nvml's errors do not name flags.
func demoHint(err error) error {
	if errors.Is(err, nvml.ErrNoDriver) || errors.Is(err, nvml.ErrNoCgo) {
		return fmt.Errorf("%w (try --fake-gpu for a demo)", err)
	}
	return err
}

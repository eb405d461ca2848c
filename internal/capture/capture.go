// Package capture runs a command under `vramkit run`: it injects the Python
// capture shim (package python) so PyTorch programs write memory snapshots
// at exit, at OOM and on SIGTERM, samples NVML for the command's process
// tree into a timeline, passes exit status, streams and signals through
// unchanged, and sums it all up in a Result.
package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/vramkit/vramkit/internal/monitor"
	"github.com/vramkit/vramkit/internal/nvml"
	"github.com/vramkit/vramkit/python"
)

// Options configure a capture. They back the flags of `vramkit run`.
type Options struct {
	// Out is the directory for snapshots, sidecars and the NVML timeline.
	Out string `json:"out"`
	// Interval is the NVML sampling period.
	Interval time.Duration `json:"interval"`
	// Context is what stack traces PyTorch records: "alloc" (allocations
	// only), "all" (allocations and frees) or "none".
	Context string `json:"context"`
	// Stacks is "python" (Python frames only) or "all" (adds C++ frames,
	// much slower to record and to dump).
	Stacks string `json:"stacks"`
	// MaxEntries bounds the alloc/free events PyTorch keeps per device.
	MaxEntries int `json:"max_entries"`
}

// DefaultOptions sample NVML twice a second and record allocation and free
// stacks (PyTorch's own default context) with Python frames only, keeping
// up to a million events.
func DefaultOptions() Options {
	return Options{Out: "", Interval: 500 * time.Millisecond, Context: "all", Stacks: "python", MaxEntries: 1_000_000}
}

// Validate checks option values.
func (o Options) Validate() error {
	switch o.Context {
	case "alloc", "all", "none":
	default:
		return fmt.Errorf("context must be alloc, all or none, not %q", o.Context)
	}
	switch o.Stacks {
	case "python", "all":
	default:
		return fmt.Errorf("stacks must be python or all, not %q", o.Stacks)
	}
	if o.Interval <= 0 {
		return fmt.Errorf("interval must be positive, not %v", o.Interval)
	}
	if o.MaxEntries <= 0 {
		return fmt.Errorf("max entries must be positive, not %d", o.MaxEntries)
	}
	if o.Out == "" {
		return fmt.Errorf("no output directory")
	}
	return nil
}

// Session is one `vramkit run`.
type Session struct {
	Opt  Options
	Argv []string // the command and its arguments
	// Lib is NVML; nil or failing means no timeline (the command still runs).
	Lib   nvml.Lib
	Procs monitor.Procs
	Now   func() time.Time
	// NewTicker makes the sampling ticker (monitor.NewTicker outside tests).
	NewTicker func(time.Duration) monitor.Ticker
	// The command's streams. An *os.File is handed to the child as is, so
	// a terminal stays a terminal.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Log receives vramkit's own notes (never the command's stdout).
	Log io.Writer
	// Signals are forwarded to the command; see ForwardTerminalSignals.
	Signals <-chan os.Signal
	// ForwardTerminalSignals says whether SIGINT and SIGQUIT are forwarded.
	// When vramkit runs in the terminal's foreground process group the
	// terminal already sent them to the command, and forwarding would
	// deliver a second Ctrl-C.
	ForwardTerminalSignals bool
	// Started, if set, is called with the command's PID once it runs.
	Started func(pid int)
}

// ErrStart wraps failures to start the command (exit status 127, as a
// shell would give).
var ErrStart = errors.New("cannot start command")

// Run runs the command to completion and returns what happened. An error
// means vramkit itself failed; the command's own failure is in Result.
func (s *Session) Run(ctx context.Context) (*Result, error) {
	if len(s.Argv) == 0 {
		return nil, fmt.Errorf("no command to run")
	}
	if err := s.Opt.Validate(); err != nil {
		return nil, err
	}
	out, err := prepareOut(s.Opt.Out)
	if err != nil {
		return nil, err
	}
	shimDir, err := os.MkdirTemp("", "vramkit-shim-")
	if err != nil {
		return nil, fmt.Errorf("capture: shim dir: %w", err)
	}
	defer os.RemoveAll(shimDir)
	if err := python.Install(shimDir); err != nil {
		return nil, err
	}

	cmd := exec.Command(s.Argv[0], s.Argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s.Stdin, s.Stdout, s.Stderr
	cmd.Env = childEnv(os.Environ(), shimDir, out, s.Opt)

	res := &Result{Command: s.Argv, Out: out, Options: s.Opt, GPUs: []GPUPeak{}, Ranks: []ShimReport{}, Files: []File{}}
	rec, err := newRecorder(out, s.Argv, s.Opt.Interval)
	if err != nil {
		return nil, err
	}
	defer rec.close()

	var sampler *monitor.Sampler
	if s.Lib != nil {
		sampler = monitor.NewSampler(s.Lib, s.Procs, s.Now)
		if err := sampler.Start(); err != nil {
			res.NVMLError = err.Error()
			fmt.Fprintf(s.Log, "vramkit: NVML unavailable, no GPU timeline: %v\n", err)
			sampler = nil
		} else {
			defer sampler.Close()
			rec.devices(sampler.Devices())
		}
	} else {
		res.NVMLError = "NVML disabled"
	}

	start := s.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrStart, err)
	}
	if s.Started != nil {
		s.Started(cmd.Process.Pid)
	}
	root := uint32(cmd.Process.Pid)

	sampCtx, stopSampling := context.WithCancel(context.Background())
	sampDone := make(chan struct{})
	if sampler != nil {
		go func() {
			defer close(sampDone)
			sampler.Run(sampCtx, s.NewTicker(s.Opt.Interval), func(x monitor.Sample) {
				rec.add(start, x, func(pid uint32) bool { return monitor.InTree(s.Procs, root, pid) })
			})
		}()
	} else {
		close(sampDone)
	}

	waitErr := make(chan error, 1)
	go func() { waitErr <- cmd.Wait() }()
	var werr error
wait:
	for {
		select {
		case sig := <-s.Signals:
			if s.forward(sig) {
				cmd.Process.Signal(sig) // the child may already be gone: ignore
			}
		case werr = <-waitErr:
			break wait
		}
	}
	// One last sample would see the tree gone; stop first.
	stopSampling()
	<-sampDone
	res.Duration = s.Now().Sub(start)
	res.ExitCode, res.Signal = exitStatus(cmd.ProcessState, werr)
	if err := rec.finish(res); err != nil {
		fmt.Fprintf(s.Log, "vramkit: %v\n", err)
	}
	res.collect()
	return res, nil
}

func (s *Session) forward(sig os.Signal) bool {
	if sig == syscall.SIGINT || sig == syscall.SIGQUIT {
		return s.ForwardTerminalSignals
	}
	return true
}

// exitStatus maps how the command ended to a shell-style status: its exit
// code, or 128+N when signal N killed it.
func exitStatus(ps *os.ProcessState, err error) (int, string) {
	if ps == nil {
		return 1, ""
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), ws.Signal().String()
	}
	return ps.ExitCode(), ""
}

// childEnv puts the shim first on PYTHONPATH (keeping the user's entries
// after it) and passes the options to it.
func childEnv(env []string, shimDir, out string, o Options) []string {
	pp := shimDir
	var kept []string
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case k == "PYTHONPATH":
			if v != "" {
				pp += string(os.PathListSeparator) + v
			}
		case strings.HasPrefix(k, "VRAMKIT_"):
		default:
			kept = append(kept, kv)
		}
	}
	return append(kept,
		"PYTHONPATH="+pp,
		"VRAMKIT_OUT="+out,
		"VRAMKIT_CONTEXT="+o.Context,
		"VRAMKIT_STACKS="+o.Stacks,
		"VRAMKIT_MAX_ENTRIES="+strconv.Itoa(o.MaxEntries),
	)
}

// prepareOut creates the output directory and refuses one holding an
// earlier run's snapshots, whose names the shim would have to dodge.
func prepareOut(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("capture: %w", err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return "", fmt.Errorf("capture: %w", err)
	}
	old, _ := filepath.Glob(filepath.Join(abs, "snapshot*.pickle"))
	if len(old) > 0 {
		return "", fmt.Errorf("capture: %s already holds snapshots from an earlier run (%s); choose another --out or remove them", dir, filepath.Base(old[0]))
	}
	return abs, nil
}

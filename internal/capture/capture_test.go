package capture

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/vramkit/vramkit/internal/monitor"
	"github.com/vramkit/vramkit/internal/nvml"
)

// python3 stands in for a training process; the fake torch under
// testdata/pylib stands in for PyTorch. The interpreter is resolved once
// to its real path, because wrappers such as pyenv's shim cost a second a
// start.
func python3(t *testing.T) string {
	t.Helper()
	pyOnce.Do(func() {
		p, err := exec.LookPath("python3")
		if err != nil {
			return
		}
		out, err := exec.Command(p, "-c", "import sys; print(sys.executable)").Output()
		if err == nil && strings.TrimSpace(string(out)) != "" {
			p = strings.TrimSpace(string(out))
		}
		pyPath = p
	})
	if pyPath == "" {
		t.Skip("python3 not found: the run end-to-end tests need it")
	}
	return pyPath
}

var (
	pyOnce sync.Once
	pyPath string
)

type run struct {
	res    *Result
	stdout string
	stderr string
	out    string
}

func session(t *testing.T, args ...string) (*Session, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	py := python3(t)
	abs, _ := filepath.Abs("testdata")
	t.Setenv("PYTHONPATH", filepath.Join(abs, "pylib")+string(os.PathListSeparator)+filepath.Join(abs, "usersite"))
	t.Setenv("PYTHONDONTWRITEBYTECODE", "1")
	opt := DefaultOptions()
	opt.Out = filepath.Join(t.TempDir(), "out")
	opt.Context = "alloc"
	var stdout, stderr bytes.Buffer
	s := &Session{
		Opt: opt, Argv: append([]string{py, filepath.Join(abs, "train_fake.py")}, args...),
		Procs: monitor.NewProcFS("/proc"), Now: time.Now, NewTicker: monitor.NewTicker,
		Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Log: &stderr,
	}
	return s, &stdout, &stderr
}

func (s *Session) mustRun(t *testing.T, stdout, stderr *bytes.Buffer) run {
	t.Helper()
	res, err := s.Run(context.Background())
	if err != nil {
		t.Fatalf("Run: %v\nstderr:\n%s", err, stderr)
	}
	return run{res, stdout.String(), stderr.String(), res.Out}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// fakeSettings unpickles the fake snapshot to see what the shim asked
// PyTorch to record.
func fakeSettings(t *testing.T, path string) map[string]any {
	t.Helper()
	out, err := exec.Command(python3(t), "-c", "import pickle,json,sys; print(json.dumps(pickle.load(open(sys.argv[1],'rb'))['fake']))", path).Output()
	if err != nil {
		t.Fatalf("unpickle %s: %v", path, err)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestRunExitCodeSnapshotAndUserSitecustomize(t *testing.T) {
	s, o, e := session(t, "ok", "7")
	r := s.mustRun(t, o, e)
	if r.res.ExitCode != 7 {
		t.Errorf("exit code %d, want 7", r.res.ExitCode)
	}
	if !strings.Contains(r.stdout, "shim=True usersite=1") {
		t.Errorf("stdout %q: the shim or the user's sitecustomize did not run", r.stdout)
	}
	if len(r.res.Ranks) != 1 || r.res.Ranks[0].Reason != "exit" || r.res.Ranks[0].Rank != nil {
		t.Fatalf("ranks = %+v", r.res.Ranks)
	}
	rk := r.res.Ranks[0]
	if d := rk.Devices; len(d) != 1 || d[0].MaxAllocatedBytes != 3<<20 {
		t.Errorf("devices = %+v, want a 3 MiB peak", d)
	}
	got := fakeSettings(t, filepath.Join(r.out, "snapshot.pickle"))
	h := got["history"].(map[string]any)
	if h["enabled"] != "all" || h["context"] != "alloc" || h["stacks"] != "python" || h["max_entries"] != float64(1_000_000) {
		t.Errorf("recorded with %v", h)
	}
	if got["allocated"] != float64(3<<20) {
		t.Errorf("snapshot taken with %v bytes allocated, want %d", got["allocated"], 3<<20)
	}
	for _, f := range []string{"snapshot.pickle", "snapshot.json", TimelineCSV, TimelineJSON} {
		if _, err := os.Stat(filepath.Join(r.out, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	if snaps := r.res.Snapshots(); len(snaps) != 1 || filepath.Base(snaps[0]) != "snapshot.pickle" {
		t.Errorf("Snapshots() = %v", snaps)
	}
}

func TestRunOOM(t *testing.T) {
	s, o, e := session(t, "oom")
	t.Setenv("FAKE_CUDA_LIMIT", "10485760")
	r := s.mustRun(t, o, e)
	if r.res.ExitCode != 1 {
		t.Errorf("exit code %d, want 1 (uncaught exception)", r.res.ExitCode)
	}
	if !strings.Contains(r.stderr, "OutOfMemoryError") {
		t.Errorf("the traceback did not reach stderr:\n%s", r.stderr)
	}
	rk := r.res.Ranks[0]
	if rk.Reason != "oom" || rk.OOM == nil || rk.OOM.AllocBytes != 1<<40 || rk.OOM.DeviceAllocatedBytes != 3<<20 {
		t.Fatalf("report = %+v, oom = %+v", rk, rk.OOM)
	}
	if rk.Exception == nil || !strings.HasPrefix(*rk.Exception, "OutOfMemoryError: CUDA out of memory") {
		t.Errorf("exception = %v", rk.Exception)
	}
	// The OOM snapshot is taken at the moment of OOM, with the memory that
	// caused it still allocated.
	if got := fakeSettings(t, filepath.Join(r.out, "snapshot-oom.pickle")); got["allocated"] != float64(3<<20) {
		t.Errorf("OOM snapshot: %v", got)
	}
	var sum bytes.Buffer
	WriteSummary(&sum, r.res, nil)
	for _, want := range []string{"exit status 1", "OUT OF MEMORY on cuda:0: asked for 1.00 TiB", "uncaught OutOfMemoryError", "snapshot-oom.pickle"} {
		if !strings.Contains(sum.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, sum.String())
		}
	}
}

func TestRunSignals(t *testing.T) {
	for _, tc := range []struct {
		sig      syscall.Signal
		forward  bool
		code     int
		reason   string
		finishes bool
	}{
		{syscall.SIGTERM, false, 128 + 15, "sigterm", true},
		{syscall.SIGINT, true, 128 + 2, "sigint", true},
	} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			ready := filepath.Join(t.TempDir(), "ready")
			s, o, e := session(t, "wait", ready)
			sigs := make(chan os.Signal, 1)
			s.Signals, s.ForwardTerminalSignals = sigs, tc.forward
			go func() {
				for i := 0; i < 500; i++ {
					if _, err := os.Stat(ready); err == nil {
						sigs <- tc.sig
						return
					}
					time.Sleep(10 * time.Millisecond)
				}
			}()
			r := s.mustRun(t, o, e)
			if r.res.ExitCode != tc.code || r.res.Signal == "" {
				t.Errorf("status %d (%q), want %d", r.res.ExitCode, r.res.Signal, tc.code)
			}
			if len(r.res.Ranks) != 1 || r.res.Ranks[0].Reason != tc.reason {
				t.Fatalf("ranks = %+v", r.res.Ranks)
			}
			if _, err := os.Stat(filepath.Join(r.out, "snapshot.pickle")); err != nil {
				t.Error("no snapshot after the signal")
			}
		})
	}
}

func TestForwardFilter(t *testing.T) {
	s := &Session{}
	if s.forward(syscall.SIGINT) || s.forward(syscall.SIGQUIT) {
		t.Error("terminal signals forwarded while in the foreground group")
	}
	if !s.forward(syscall.SIGTERM) || !s.forward(syscall.SIGHUP) {
		t.Error("SIGTERM/SIGHUP not forwarded")
	}
}

func TestRunRanks(t *testing.T) {
	s, o, e := session(t, "ranks", "2")
	r := s.mustRun(t, o, e)
	if r.res.ExitCode != 0 || len(r.res.Ranks) != 2 {
		t.Fatalf("status %d, ranks %+v\n%s", r.res.ExitCode, r.res.Ranks, r.stderr)
	}
	for i, rk := range r.res.Ranks {
		if rk.Rank == nil || *rk.Rank != string(rune('0'+i)) || rk.File != "snapshot-rank"+string(rune('0'+i))+".json" {
			t.Errorf("rank %d report = %+v", i, rk)
		}
	}
	for _, f := range []string{"snapshot-rank0.pickle", "snapshot-rank1.pickle"} {
		if fi, err := os.Stat(filepath.Join(r.out, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s missing or empty", f)
		}
	}
}

func TestRunNonTorchPassesStdin(t *testing.T) {
	s, o, e := session(t, "echo")
	s.Stdin = strings.NewReader("hello\n")
	r := s.mustRun(t, o, e)
	if !strings.HasSuffix(r.stdout, "hello\n") || r.res.ExitCode != 0 || len(r.res.Ranks) != 0 {
		t.Errorf("stdout %q status %d ranks %d", r.stdout, r.res.ExitCode, len(r.res.Ranks))
	}
	var sum bytes.Buffer
	WriteSummary(&sum, r.res, nil)
	if !strings.Contains(sum.String(), "no snapshot") {
		t.Errorf("summary:\n%s", sum.String())
	}
}

func TestRunRefusesOldOut(t *testing.T) {
	s, o, e := session(t, "ok", "0")
	s.mustRun(t, o, e)
	if _, err := s.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "earlier run") {
		t.Errorf("second run into the same --out: %v", err)
	}
}

func TestRunCommandNotFound(t *testing.T) {
	s, _, _ := session(t)
	s.Argv = []string{"/nonexistent/trainer"}
	if _, err := s.Run(context.Background()); err == nil {
		t.Error("no error for a missing command")
	}
}

// seqLib reports the child process with a different size on each sample.
type seqLib struct {
	*nvml.Fake
	mu   sync.Mutex
	pid  uint32
	used []uint64
	n    int
}

func (l *seqLib) Processes(i int) ([]nvml.Process, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	v := l.used[min(l.n, len(l.used)-1)]
	l.n++
	return []nvml.Process{{PID: l.pid, Used: v, UsedKnown: true}, {PID: 1, Used: 5 << 30, UsedKnown: true}}, nil
}

type manualTicker chan time.Time

func (m manualTicker) C() <-chan time.Time { return m }
func (m manualTicker) Stop()               {}

func TestRunNVMLTimeline(t *testing.T) {
	const gib = 1 << 30
	lib := &seqLib{Fake: nvml.NewFake("570", nvml.FakeGPU{
		Info:   nvml.DeviceInfo{UUID: "GPU-x", Name: "Fake H200"},
		Memory: nvml.Memory{Total: 140 * gib, Used: 10 * gib, Free: 130 * gib},
	}), used: []uint64{1 * gib, 3 * gib, 2 * gib}}
	ready := filepath.Join(t.TempDir(), "ready")
	s, o, e := session(t, "wait", ready)
	tick := make(manualTicker)
	sigs := make(chan os.Signal, 1)
	s.Lib, s.Signals = lib, sigs
	s.NewTicker = func(time.Duration) monitor.Ticker { return tick }
	s.Started = func(pid int) { lib.mu.Lock(); lib.pid = uint32(pid); lib.mu.Unlock() }
	go func() {
		for i := 0; i < 500; i++ {
			if _, err := os.Stat(ready); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		tick <- time.Now()
		tick <- time.Now()
		sigs <- syscall.SIGTERM
	}()
	r := s.mustRun(t, o, e)
	if r.res.Samples != 3 || len(r.res.GPUs) != 1 {
		t.Fatalf("%d samples, GPUs %+v", r.res.Samples, r.res.GPUs)
	}
	if g := r.res.GPUs[0]; g.PeakBytes != 3*gib || g.UUID != "GPU-x" {
		t.Errorf("peak = %+v, want 3 GiB on GPU-x (pid 1 is not ours)", g)
	}
	if rk := r.res.Ranks; len(rk) != 1 || rk[0].NVMLPeakBytes != 3*gib {
		t.Errorf("rank NVML peak = %+v", rk)
	}
	csv, _ := os.ReadFile(filepath.Join(r.out, TimelineCSV))
	if lines := strings.Count(string(csv), "\n"); lines != 4 {
		t.Errorf("CSV has %d lines, want header + 3:\n%s", lines, csv)
	}
	var tl Timeline
	readJSON(t, filepath.Join(r.out, TimelineJSON), &tl)
	if len(tl.Samples) != 3 || tl.Samples[1].GPUs[0].TreeUsed != 3*gib || len(tl.Samples[1].GPUs[0].Processes) != 1 {
		t.Errorf("timeline = %+v", tl.Samples)
	}
	var sum bytes.Buffer
	WriteSummary(&sum, r.res, func(p string, w io.Writer) error {
		_, err := fmt.Fprintf(w, "ANALYSIS OF %s\n", filepath.Base(p))
		return err
	})
	for _, want := range []string{"GPU 0 Fake H200: peak 3.00 GiB of 140 GiB", "ANALYSIS OF snapshot.pickle", "ended by sigterm", "killed by terminated (status 143)"} {
		if !strings.Contains(sum.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, sum.String())
		}
	}
}

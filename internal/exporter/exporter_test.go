package exporter

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"golang.org/x/crypto/bcrypt"

	"github.com/vramkit/vramkit/internal/monitor"
	"github.com/vramkit/vramkit/internal/nvml"
)

const gib = 1 << 30

func fakeMachine() *nvml.Fake {
	return nvml.NewFake("570.86.15",
		nvml.FakeGPU{
			Info:   nvml.DeviceInfo{UUID: "GPU-aaaa", Name: "NVIDIA H200"},
			Memory: nvml.Memory{Total: 140 * gib, Reserved: gib / 2, Used: 60 * gib, Free: 79*gib + gib/2, ReservedKnown: true},
			Util:   nvml.Utilization{GPU: 87},
			Procs: []nvml.Process{
				{PID: 4242, Used: 59 * gib, UsedKnown: true},
				{PID: 77, Used: ^uint64(0)}, // NVML "not available": no series
			},
		},
		nvml.FakeGPU{Info: nvml.DeviceInfo{UUID: "GPU-bbbb", Name: "NVIDIA H200"}, Err: nvml.ErrGPULost},
	)
}

var procs = monitor.StaticProcs{4242: {User: "alice", Name: "python3", Command: "python3 train.py --secret-token=x"}}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// fixedClock makes the scrape duration exactly 0.25 s.
func fixedClock() func() time.Time {
	t := time.Unix(0, 0)
	return func() time.Time { t = t.Add(250 * time.Millisecond); return t }
}

func TestExposition(t *testing.T) {
	s := monitor.NewSampler(fakeMachine(), procs, time.Now)
	c := NewCollector(s, DefaultOptions(), "test", quiet(), fixedClock())
	want, err := os.ReadFile("testdata/exposition.prom")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"vramkit_nvml_up", "vramkit_scrape_duration_seconds", "vramkit_gpu_info", "vramkit_gpu_up",
		"vramkit_gpu_memory_total_bytes", "vramkit_gpu_memory_used_bytes", "vramkit_gpu_memory_free_bytes",
		"vramkit_gpu_memory_reserved_bytes", "vramkit_gpu_utilization_ratio", "vramkit_process_gpu_memory_used_bytes"}
	if err := testutil.CollectAndCompare(c, bytes.NewReader(want), names...); err != nil {
		t.Error(err)
	}
	problems, err := testutil.CollectAndLint(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("promlint: %s: %s", p.Metric, p.Text)
	}
}

func TestNoProcessMetrics(t *testing.T) {
	s := monitor.NewSampler(fakeMachine(), procs, time.Now)
	c := NewCollector(s, Options{ProcessMetrics: false}, "test", quiet(), fixedClock())
	if n := testutil.CollectAndCount(c, "vramkit_process_gpu_memory_used_bytes"); n != 0 {
		t.Errorf("%d process series with ProcessMetrics off", n)
	}
}

// With no driver the exporter still answers, says so, and recovers once
// NVML can be loaded (a DaemonSet pod that starts before the driver).
func TestNoDriverThenRecovery(t *testing.T) {
	lib := fakeMachine()
	lib.SetInitError(nvml.ErrNoDriver)
	c := NewCollector(monitor.NewSampler(lib, procs, time.Now), DefaultOptions(), "test", quiet(), fixedClock())
	down := "# HELP vramkit_nvml_up 1 if NVML initialised and listed the GPUs on this scrape, else 0.\n# TYPE vramkit_nvml_up gauge\nvramkit_nvml_up 0\n"
	if err := testutil.CollectAndCompare(c, strings.NewReader(down), "vramkit_nvml_up", "vramkit_gpu_up"); err != nil {
		t.Error(err)
	}
	lib.SetInitError(nil)
	if n := testutil.CollectAndCount(c, "vramkit_gpu_up"); n != 2 {
		t.Errorf("after recovery: %d vramkit_gpu_up series, want 2", n)
	}
}

func TestServeWithBasicAuth(t *testing.T) {
	hash, err := bcrypt.GenerateFromPassword([]byte("s3cret"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "web.yml")
	if err := os.WriteFile(cfg, []byte("basic_auth_users:\n  prom: "+string(hash)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := NewCollector(monitor.NewSampler(fakeMachine(), procs, time.Now), DefaultOptions(), "test", quiet(), time.Now)
	h, err := Handler(Registry(c), "test")
	if err != nil {
		t.Fatal(err)
	}
	ls, err := Listen([]string{"127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ls, h, cfg, quiet()) }()
	url := "http://" + ls[0].Addr().String() + "/metrics"

	get := func(user, pass string) (int, string) {
		req, _ := http.NewRequest("GET", url, nil)
		if user != "" {
			req.SetBasicAuth(user, pass)
		}
		var resp *http.Response
		for i := 0; i < 50; i++ { // the server goroutine may not be accepting yet
			if resp, err = http.DefaultClient.Do(req); err == nil {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get("", ""); code != http.StatusUnauthorized {
		t.Errorf("no credentials: status %d, want 401", code)
	}
	if code, _ := get("prom", "wrong"); code != http.StatusUnauthorized {
		t.Errorf("wrong password: status %d, want 401", code)
	}
	code, body := get("prom", "s3cret")
	if code != http.StatusOK || !strings.Contains(body, `vramkit_gpu_memory_used_bytes{gpu="0",uuid="GPU-aaaa"} 6.442450944e+10`) {
		t.Errorf("status %d, body lacks the used-bytes series:\n%.2000s", code, body)
	}
	if strings.Contains(body, "secret-token") {
		t.Error("the command line leaked into labels; only the short name may be exported")
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve after cancel: %v", err)
	}
}

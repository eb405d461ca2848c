package analyze

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// TestOOMRequestBeyondGPU: testdata/unit/probe-default.pickle asks for
// 4 PiB once. PyTorch's own message (probe-log.txt) says the GPU had
// 139.80 GiB in all and 139.06 GiB free, so the GPU was not full: the
// request could never fit. The explanation said "the GPU was full"; it
// must say the request alone is beyond the device, and the byte figures
// must be PyTorch's.
func TestOOMRequestBeyondGPU(t *testing.T) {
	dir := filepath.Join("../../testdata", "unit")
	f, err := os.Open(filepath.Join(dir, "probe-log.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var triedGiB, totalGiB, freeGiB float64
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if msg, ok := strings.CutPrefix(sc.Text(), "OOM CUDA out of memory. "); ok {
			if _, err := fmt.Sscanf(msg, "Tried to allocate %f GiB. GPU 0 has a total capacity of %f GiB of which %f GiB is free.",
				&triedGiB, &totalGiB, &freeGiB); err != nil {
				t.Fatalf("%v: %q", err, msg)
			}
			break
		}
	}
	if totalGiB == 0 {
		t.Fatal("no OOM line in probe-log.txt")
	}
	s, err := snapshot.LoadFile(filepath.Join(dir, "probe-default.pickle"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Analyze(s, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	o := rep.Devices[0].OOM
	if o == nil {
		t.Fatal("no OOM found")
	}
	if o.Requested != int64(triedGiB*(1<<30)) {
		t.Errorf("requested %d, PyTorch tried %.2f GiB", o.Requested, triedGiB)
	}
	if got := float64(o.DeviceFree) / (1 << 30); got < freeGiB-0.01 || got > freeGiB+0.01 {
		t.Errorf("device free %.2f GiB, PyTorch %.2f GiB", got, freeGiB)
	}
	if float64(o.Requested) <= totalGiB*(1<<30) {
		t.Fatalf("request %d fits the GPU's %.2f GiB: not the case under test", o.Requested, totalGiB)
	}
	if o.Cause != CauseCapacity {
		t.Errorf("cause %q, want %q", o.Cause, CauseCapacity)
	}
	if strings.Contains(o.Explain, "GPU was full") || !strings.Contains(o.Explain, "more than the whole GPU") {
		t.Errorf("explanation %q: the GPU had %.2f of %.2f GiB free, the request alone cannot fit", o.Explain, freeGiB, totalGiB)
	}
}

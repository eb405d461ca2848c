package hugepage

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// TestAdviseKeepsData: advising a slice that already holds data (or is
// too small to advise) leaves every element as it was.
func TestAdviseKeepsData(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 3 << 20} {
		s := make([]int64, n, n+n/3)
		for i := range s {
			s[i] = int64(i) * 7
		}
		Advise(s)
		for i := range s {
			if s[i] != int64(i)*7 {
				t.Fatalf("n=%d: s[%d] = %d after Advise", n, i, s[i])
			}
		}
	}
}

// TestAdviseHugePages checks on Linux, where the kernel honours madvise,
// that an advised slice is in fact backed by huge pages once written: the
// process's AnonHugePages grows by at least most of it.
func TestAdviseHugePages(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("huge pages are a Linux hint")
	}
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !strings.Contains(string(mode), "[madvise]") && !strings.Contains(string(mode), "[always]") {
		t.Skip("transparent huge pages are off here")
	}
	before := anonHuge(t)
	s := make([]byte, 64<<20)
	Advise(s)
	for i := 0; i < len(s); i += 4096 {
		s[i] = 1
	}
	after := anonHuge(t)
	if got := after - before; got < 32<<20 {
		t.Errorf("writing 64 MiB of advised memory added only %d KiB of huge pages", got>>10)
	}
	runtime.KeepAlive(unsafe.SliceData(s))
}

func anonHuge(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		t.Skip("no smaps_rollup")
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "AnonHugePages:" {
			var kb int64
			for _, c := range f[1] {
				kb = kb*10 + int64(c-'0')
			}
			return kb << 10
		}
	}
	t.Skip("no AnonHugePages line")
	return 0
}

// TestAdviseAny: a slice handed over as an interface value is advised as
// Advise would (its huge pages appear once written), and values that are
// not slices are ignored.
func TestAdviseAny(t *testing.T) {
	AdviseAny(nil)
	AdviseAny(42)
	AdviseAny([]int32(nil))
	if runtime.GOOS != "linux" {
		t.Skip("huge pages are a Linux hint")
	}
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !strings.Contains(string(mode), "[madvise]") && !strings.Contains(string(mode), "[always]") {
		t.Skip("transparent huge pages are off here")
	}
	type pair struct{ a, b int64 }
	before := anonHuge(t)
	s := make([]pair, 0, 4<<20) // 64 MiB
	AdviseAny(s)
	s = s[:cap(s)]
	for i := 0; i < len(s); i += 256 {
		s[i].a = 1
	}
	after := anonHuge(t)
	if got := after - before; got < 32<<20 {
		t.Errorf("writing 64 MiB of advised memory added only %d KiB of huge pages", got>>10)
	}
	runtime.KeepAlive(unsafe.SliceData(s))
}

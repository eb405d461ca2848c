package hugepage

import (
	"os"
	"runtime"
	"slices"
	"strconv"
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
	checkAdvised(t, uintptr(unsafe.Pointer(unsafe.SliceData(s))), len(s), before)
	runtime.KeepAlive(unsafe.SliceData(s))
}

// checkAdvised fails unless the kernel records the huge-page advice on the
// middle of the n bytes at p (VmFlags "hg" in /proc/self/smaps): that the
// advice was given is deterministic, while how many huge pages the kernel
// can find at the moment depends on the machine's free memory, so the
// AnonHugePages growth since before is only logged.
func checkAdvised(t *testing.T, p uintptr, n int, before int64) {
	t.Helper()
	if !vmFlag(t, p+uintptr(n/2), "hg") {
		t.Errorf("the mapping of the advised slice carries no huge-page advice (VmFlags hg)")
	}
	t.Logf("writing %d MiB of advised memory added %d KiB of huge pages", n>>20, (anonHuge(t)-before)>>10)
}

// vmFlag reports whether the mapping holding address a lists flag in its
// VmFlags line of /proc/self/smaps.
func vmFlag(t *testing.T, a uintptr, flag string) bool {
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps")
	}
	in := false
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if lo, hi, ok := strings.Cut(f[0], "-"); ok && !strings.HasSuffix(f[0], ":") {
			x, err1 := strconv.ParseUint(lo, 16, 64)
			y, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				in = uint64(a) >= x && uint64(a) < y
				continue
			}
		}
		if in && f[0] == "VmFlags:" {
			return slices.Contains(f[1:], flag)
		}
	}
	t.Fatalf("address %#x is in no mapping of /proc/self/smaps", a)
	return false
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
	checkAdvised(t, uintptr(unsafe.Pointer(unsafe.SliceData(s))), len(s)*16, before)
	runtime.KeepAlive(unsafe.SliceData(s))
}

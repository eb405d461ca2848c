package rules

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vramkit/vramkit/internal/lint"
)

// realStyle returns the real-style Python scripts of testdata/real.
func realStyle(tb testing.TB) [][]byte {
	tb.Helper()
	paths, _ := filepath.Glob(filepath.Join("testdata", "real", "*.py"))
	var out [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		tb.Fatal("no real-style scripts")
	}
	return out
}

// bigFile concatenates the real-style scripts (renaming nothing: repeated
// definitions are legal Python) until it has at least n lines.
func bigFile(tb testing.TB, n int) []byte {
	var b strings.Builder
	lines := 0
	for i := 0; lines < n; i++ {
		for _, s := range realStyle(tb) {
			b.Write(s)
			b.WriteString("\n")
			lines += strings.Count(string(s), "\n") + 1
			if lines >= n {
				break
			}
		}
	}
	return []byte(b.String())
}

// BenchmarkLargeFile lints one 10,000-line file with every rule.
func BenchmarkLargeFile(b *testing.B) {
	src := bigFile(b, 10000)
	opts := options(All()...)
	b.SetBytes(int64(len(src)))
	cpu := cpuTime()
	for b.Loop() {
		diags, f := lint.Check(opts, nil, "big.py", src)
		if f == nil {
			b.Fatalf("did not parse: %v", diags)
		}
	}
	reportCPU(b, cpu)
}

// cpuTime is the process's user+system CPU time so far. Reported per
// operation next to the wall time, it shows how much of a slow result
// is other load on the machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e6, "cpu-ms/op")
}

// BenchmarkTree lints a tree of 1,000 files (real-style scripts with a
// changed header each, in 50 directories) from the directory walk on.
func BenchmarkTree(b *testing.B) {
	dir := b.TempDir()
	scripts := realStyle(b)
	lines := 0
	for i := 0; i < 1000; i++ {
		sub := filepath.Join(dir, fmt.Sprintf("pkg%02d", i%50))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			b.Fatal(err)
		}
		src := fmt.Sprintf("# file %d\n%s", i, scripts[i%len(scripts)])
		lines += strings.Count(src, "\n")
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("train_%04d.py", i)), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	opts := options(All()...)
	cpu := cpuTime()
	for b.Loop() {
		res, err := lint.Run(context.Background(), opts, []string{dir})
		if err != nil {
			b.Fatal(err)
		}
		if res.Files != 1000 {
			b.Fatalf("checked %d files", res.Files)
		}
	}
	reportCPU(b, cpu)
	b.Logf("%d files, %d lines", 1000, lines)
}

// TestLargeFile checks that a file big enough for split parsing and
// parallel rules gets the same findings as its parts. Rules that look at
// the whole file (VK007's "uses CUDA", VK021's padding evidence) would
// rightly see more in the joined file and are left out.
func TestLargeFile(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	scripts := realStyle(t)
	var local []*lint.Rule
	for _, r := range All() {
		if r != DataLoaderPinMemory && r != CudnnBenchmarkVariableShapes {
			local = append(local, r)
		}
	}
	opts := options(local...)
	var b strings.Builder
	var want []string
	line := 0
	for rep := 0; rep < 8; rep++ {
		for _, s := range scripts {
			diags, _ := lint.Check(opts, nil, "part.py", s)
			for _, d := range diags {
				want = append(want, fmt.Sprintf("%d %s", line+d.Start.Line, d.Code))
			}
			b.Write(s)
			line += strings.Count(string(s), "\n")
		}
	}
	src := []byte(b.String())
	if len(src) < 2*parallelFrom {
		t.Fatalf("only %d bytes", len(src))
	}
	diags, f := lint.Check(opts, nil, "big.py", src)
	if f == nil {
		t.Fatalf("big file did not parse: %v", diags)
	}
	var got []string
	for _, d := range diags {
		got = append(got, fmt.Sprintf("%d %s", d.Start.Line, d.Code))
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("big file findings differ from its parts':\ngot  %v\nwant %v", got, want)
	}
}

const parallelFrom = 64 << 10

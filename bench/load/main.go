// Command load is vramkit's snapshot-load benchmark (issue 2, benchmark a).
//
// It builds a snapshot pickle of at least -size bytes by repeating one
// fixture's trace with shifted addresses and times, written as CPython's
// pickler would write it (see emit.go), then, in the same run, times
// loading it with vramkit (snapshot.LoadFile plus counting, in a child
// process, or `VRAMKIT stats F` with -vramkit) against CPython's C
// unpickler alone (python3 -c "import pickle; pickle.load(open(F,'rb'))"),
// and prints wall time, CPU time (user+system: steadier than wall on a
// shared machine), peak RSS and their ratios. With -commands (and
// -vramkit) it also times analyze, tune and report in the same run and
// prints each one's time over stats' (issue 17: analyze at most 1.5x,
// tune and report at most 2x).
//
//	go run ./bench/load [-fixture F.pickle.gz] [-size 1GiB] [-out FILE] [-keep] [-vramkit BIN [-commands analyze,tune,report] [-runs N]]
//	go run ./bench/load -profile cpu.pprof stats FILE   # CPU profile of one command
//	go run ./bench/load -profile x.trace stats FILE     # execution trace of one command
//	go run ./bench/load -regions x.trace                # its phases (regions), in ms
//
// bench/load.sh wraps it. It is a program, not a test: `go test ./...`
// never runs it.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/vramkit/vramkit/internal/snapshot"
	"github.com/vramkit/vramkit/internal/units"
)

func main() {
	if len(os.Args) == 3 && os.Args[1] == "-child-load" {
		os.Exit(childLoad(os.Args[2]))
	}
	if len(os.Args) > 3 && os.Args[1] == "-profile" {
		os.Exit(profileCommand(os.Args[2], os.Args[3:]))
	}
	if len(os.Args) == 3 && os.Args[1] == "-regions" {
		os.Exit(regionsCommand(os.Args[2]))
	}
	fixture := flag.String("fixture", defaultFixture(), "snapshot whose trace is repeated")
	size := flag.String("size", "1GiB", "minimum size of the generated pickle")
	out := flag.String("out", filepath.Join(os.TempDir(), "vramkit-bench-load.pickle"), "where to write it")
	keep := flag.Bool("keep", false, "keep the generated file (and reuse it if present)")
	vramkit := flag.String("vramkit", "", "time `BINARY stats FILE --format json` instead of an in-tree load")
	python := flag.String("python", "python3", "the CPython to compare with (\"\" to skip it)")
	withAnalyze := flag.Bool("analyze", false, "short for -commands analyze")
	commands := flag.String("commands", "", "with -vramkit: also time these commands (comma-separated: analyze,tune,report) against stats")
	runs := flag.Int("runs", 1, "run vramkit, python and each command this many times, alternating, and keep the fastest of each")
	flag.Parse()
	if *withAnalyze {
		*commands = strings.Trim(*commands+",analyze", ",")
	}
	if *commands != "" && *vramkit == "" {
		fail(fmt.Errorf("-commands and -analyze need -vramkit BINARY"))
	}

	target, err := units.ParseBytes(*size)
	if err != nil {
		fail(err)
	}
	if st, err := os.Stat(*out); !*keep || err != nil || st.Size() < target {
		t0 := time.Now()
		reps, events, err := generate(*fixture, *out, target)
		if err != nil {
			fail(err)
		}
		fmt.Printf("generated %s: %d repetitions of %s, %d events, in %.1fs\n",
			*out, reps, filepath.Base(*fixture), events, time.Since(t0).Seconds())
	}
	if !*keep {
		defer os.Remove(*out)
	}
	st, err := os.Stat(*out)
	if err != nil {
		fail(err)
	}
	fmt.Printf("file: %s (%d bytes)\n\n", units.Bytes(st.Size()), st.Size())

	self, err := os.Executable()
	if err != nil {
		fail(err)
	}
	vk := exec.Command(self, "-child-load", *out)
	name := "vramkit (snapshot.LoadFile)"
	if *vramkit != "" {
		vk = exec.Command(*vramkit, "stats", *out, "--format", "json")
		name = "vramkit stats"
	}
	// On a shared machine one run can be slowed by a neighbour: with
	// -runs N the two alternate N times and the fastest of each is kept.
	var g, p result
	for i := 0; i < max(*runs, 1); i++ {
		r, err := measure(exec.Command(vk.Path, vk.Args[1:]...))
		if err != nil {
			fail(fmt.Errorf("%s: %w", name, err))
		}
		g = fastest(g, r, i == 0)
		if *python != "" {
			r, err := measure(exec.Command(*python, "-c", "import pickle,sys; pickle.load(open(sys.argv[1],'rb'))", *out))
			if err != nil {
				fail(fmt.Errorf("python: %w", err))
			}
			p = fastest(p, r, i == 0)
		}
	}
	fmt.Printf("fastest of %d runs each\n", max(*runs, 1))
	fmt.Printf("%-34s %9s %9s %12s\n", "", "wall", "CPU", "peak RSS")
	fmt.Printf("%-34s %8.2fs %8.2fs %12s   %s\n", name, g.wall.Seconds(), g.cpu.Seconds(), units.Bytes(int64(g.rss)), g.note)
	if *python != "" {
		fmt.Printf("%-34s %8.2fs %8.2fs %12s\n", "python3 pickle.load (C unpickler)", p.wall.Seconds(), p.cpu.Seconds(), units.Bytes(int64(p.rss)))
		fmt.Printf("\nspeed-up (python time / vramkit time): %.2fx wall, %.2fx CPU\n",
			p.wall.Seconds()/g.wall.Seconds(), p.cpu.Seconds()/g.cpu.Seconds())
		fmt.Printf("memory (vramkit RSS / python RSS):     %.2f\n", float64(g.rss)/float64(p.rss))
	}
	fmt.Printf("vramkit peak RSS / file size:          %.2f\n", float64(g.rss)/float64(st.Size()))
	fmt.Printf("vramkit throughput: %.0f MB/s wall, %.0f MB/s per CPU second\n",
		float64(st.Size())/1e6/g.wall.Seconds(), float64(st.Size())/1e6/g.cpu.Seconds())
	if *commands != "" {
		commandsVsStats(*vramkit, *out, g, strings.Split(*commands, ","), *runs)
	}
}

// fastest keeps the lower wall and CPU time of two runs and the higher
// peak RSS; first says a is not a run yet.
func fastest(a, b result, first bool) result {
	if first {
		return b
	}
	return result{wall: min(a.wall, b.wall), cpu: min(a.cpu, b.cpu), rss: max(a.rss, b.rss), note: a.note}
}

// commandArgs are the arguments each timed command runs with; report's
// page goes to a temporary file.
func commandArgs(cmd, file, page string) []string {
	switch cmd {
	case "report":
		return []string{"report", "-o", page, file}
	}
	return []string{cmd, file, "--format", "json"}
}

// commandsVsStats times other commands against `stats` on the same file.
// On a shared machine one run can be slowed by a neighbour, so with
// runs > 1 they alternate and the fastest of each is kept (wall and CPU
// separately); peak RSS is the largest seen.
func commandsVsStats(bin, file string, stats result, cmds []string, runs int) {
	page := filepath.Join(os.TempDir(), fmt.Sprintf("vramkit-bench-%d.html", os.Getpid()))
	defer os.Remove(page)
	best := map[string]result{"stats": stats}
	keep := func(name string, r result) {
		b, ok := best[name]
		if !ok {
			best[name] = r
			return
		}
		best[name] = result{wall: min(b.wall, r.wall), cpu: min(b.cpu, r.cpu), rss: max(b.rss, r.rss)}
	}
	for i := 0; i < max(runs, 1); i++ {
		r, err := measure(exec.Command(bin, commandArgs("stats", file, page)...))
		if err != nil {
			fail(fmt.Errorf("vramkit stats: %w", err))
		}
		keep("stats", r)
		for _, c := range cmds {
			r, err := measure(exec.Command(bin, commandArgs(c, file, page)...))
			if err != nil {
				fail(fmt.Errorf("vramkit %s: %w", c, err))
			}
			keep(c, r)
		}
	}
	st := best["stats"]
	fmt.Printf("\ncommands against stats, fastest of %d runs each\n", max(runs, 1))
	fmt.Printf("%-20s %9s %9s %12s %12s %12s\n", "", "wall", "CPU", "peak RSS", "wall/stats", "CPU/stats")
	for _, c := range append([]string{"stats"}, cmds...) {
		r := best[c]
		fmt.Printf("%-20s %8.2fs %8.2fs %12s %12.2f %12.2f\n", "vramkit "+c, r.wall.Seconds(), r.cpu.Seconds(),
			units.Bytes(int64(r.rss)), r.wall.Seconds()/st.wall.Seconds(), r.cpu.Seconds()/st.cpu.Seconds())
	}
	fmt.Println("(issue 17: analyze at most 1.5x stats, tune and report at most 2x)")
}

type result struct {
	wall time.Duration
	cpu  time.Duration // user + system time of the child: less noisy than wall on a shared machine
	rss  uint64
	note string
}

// measure runs cmd and reports its wall time and peak resident set size
// (getrusage of the child).
func measure(cmd *exec.Cmd) (result, error) {
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if err != nil {
		return result{}, fmt.Errorf("%v: %s", err, stderr.Bytes())
	}
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	var rss uint64
	var cpu time.Duration
	if ru != nil {
		rss = uint64(ru.Maxrss) << 10 // KiB on Linux
		cpu = time.Duration(syscall.TimevalToNsec(ru.Utime) + syscall.TimevalToNsec(ru.Stime))
	}
	note := stdout.String()
	if strings.HasPrefix(note, "{") {
		note = "" // a JSON report: nothing to show on one line
	}
	if len(note) > 120 {
		note = note[:120] + "…"
	}
	return result{wall, cpu, rss, string(bytes.TrimSpace([]byte(note)))}, nil
}

// childLoad is the vramkit side: load and count, as `vramkit stats` must.
func childLoad(path string) int {
	s, err := snapshot.LoadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var n int
	var per [16]int
	for _, d := range s.Devices {
		n += len(d.Events)
		for _, e := range d.Events {
			per[e.Action&15]++
		}
	}
	fmt.Printf("%d events (%d alloc), %d segments, %d stacks", n, per[snapshot.ActionAlloc], len(s.Segments), len(s.Stacks))
	return 0
}

// defaultFixture is a real 34k-event trace with Python stacks from the
// shared fixtures, or, in a clone without them, the committed ResNet one.
func defaultFixture() string {
	for _, p := range []string{"../shared/fixtures/h200/bert-base-s512-b8x4-fp32-accum.pickle.gz",
		"../../shared/fixtures/h200/bert-base-s512-b8x4-fp32-accum.pickle.gz", // from a worktree
		"testdata/snapshots/resnet50-b64-fp32.pickle.gz"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return "testdata/snapshots/resnet50-b64-fp32.pickle.gz"
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench/load:", err)
	os.Exit(1)
}

package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
)

// regionsCommand prints the phases of an execution trace written by
// `benchload -profile X.trace CMD ...`: for each region name (see
// profile.go), when it first began and last ended, in milliseconds from
// the trace's start, the sum of its durations and how many there were.
// Read so, the wall-time critical path shows: the first pass ends where
// the decode's chunks begin, the replay ahead ends just before the
// command's output, and "wait for feed" is the replay waiting for the
// sequential pass. It reads `go tool trace -d=parsed`, so it needs the Go
// toolchain (run it where the trace is copied back to):
//
//	benchload -regions stats.trace
func regionsCommand(path string) int {
	cmd := exec.Command("go", "tool", "trace", "-d=parsed", path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/load:", err)
		return 1
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/load:", err)
		return 1
	}
	rs, span := summarizeRegions(out)
	if err := cmd.Wait(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/load: go tool trace:", err)
		return 1
	}
	fmt.Printf("trace span %.1f ms\n%-28s %10s %10s %10s %7s\n", ms(span), "region", "first ms", "last ms", "sum ms", "count")
	for _, r := range rs {
		fmt.Printf("%-28s %10.1f %10.1f %10.1f %7d\n", r.name, ms(r.first), ms(r.last), ms(r.sum), r.n)
	}
	return 0
}

// region is one region name's summary; times are nanoseconds from the
// trace's first event.
type region struct {
	name             string
	first, last, sum int64
	n                int
}

// summarizeRegions reads `go tool trace -d=parsed` output and returns the
// regions in the order their first instances ended, and the trace's span.
func summarizeRegions(r io.Reader) ([]region, int64) {
	timeRE := regexp.MustCompile(`Time=(\d+)`)
	regionRE := regexp.MustCompile(`G=(-?\d+) (RegionBegin|RegionEnd) Time=(\d+) Task=\d+ Type="([^"]*)"`)
	type key struct{ g, name string }
	open := map[key]int64{}
	index := map[string]int{}
	var out []region
	t0, tEnd := int64(-1), int64(0)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		m := timeRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		t, _ := strconv.ParseInt(m[1], 10, 64)
		if t0 < 0 {
			t0 = t
		}
		tEnd = max(tEnd, t)
		rm := regionRE.FindStringSubmatch(line)
		if rm == nil {
			continue
		}
		k := key{rm[1], rm[4]}
		t -= t0
		if rm[2] == "RegionBegin" {
			open[k] = t
			continue
		}
		begin, ok := open[k]
		if !ok {
			continue
		}
		delete(open, k)
		i, ok := index[k.name]
		if !ok {
			i = len(out)
			index[k.name] = i
			out = append(out, region{name: k.name, first: begin})
		}
		g := &out[i]
		g.first, g.last = min(g.first, begin), max(g.last, t)
		g.sum += t - begin
		g.n++
	}
	return out, tEnd - max(t0, 0)
}

func ms(ns int64) float64 { return float64(ns) / 1e6 }

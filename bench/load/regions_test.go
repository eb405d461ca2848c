package main

import (
	"strings"
	"testing"
)

// TestSummarizeRegions reads the lines `go tool trace -d=parsed` prints
// (go1.26, cut from a trace of `stats`): times count from the trace's
// first event, a region open on two goroutines at once is two regions,
// and an end without its begin (a region begun before tracing) is left
// out.
func TestSummarizeRegions(t *testing.T) {
	in := `M=1 P=0 G=1 ProcStart Time=1000000 P=0 M=1
M=1 P=0 G=1 RegionBegin Time=2000000 Task=0 Type="load: first pass"
M=1 P=0 G=7 RegionBegin Time=3000000 Task=0 Type="load: scan chunk"
M=2 P=1 G=8 RegionBegin Time=3500000 Task=0 Type="load: scan chunk"
	runtime/trace.StartRegion @ 0x59a7e8
M=1 P=0 G=7 RegionEnd Time=5000000 Task=0 Type="load: scan chunk"
M=2 P=1 G=8 RegionEnd Time=6500000 Task=0 Type="load: scan chunk"
M=2 P=1 G=9 RegionEnd Time=6600000 Task=0 Type="replay ahead"
M=1 P=0 G=1 RegionEnd Time=7000000 Task=0 Type="load: first pass"
M=1 P=0 G=1 GoStop Time=9000000 Reason="x"
`
	rs, span := summarizeRegions(strings.NewReader(in))
	if span != 8000000 {
		t.Errorf("span %d ns, want 8 ms", span)
	}
	want := []region{
		{name: "load: scan chunk", first: 2000000, last: 5500000, sum: 5000000, n: 2},
		{name: "load: first pass", first: 1000000, last: 6000000, sum: 5000000, n: 1},
	}
	if len(rs) != len(want) {
		t.Fatalf("got %+v, want %+v", rs, want)
	}
	for i := range want {
		if rs[i] != want[i] {
			t.Errorf("region %d: got %+v, want %+v", i, rs[i], want[i])
		}
	}
}

package cli

import (
	"os"
	"runtime/debug"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/hugepage"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// How the commands tune the Go runtime's memory for what they hold: huge
// pages for a large snapshot's slices, and the collector's target per
// command. The core packages take the makers as options and never touch
// the kernel or the runtime themselves.

// The two big slices a command fills from a large snapshot, made so that
// the kernel backs them with huge pages (see package hugepage).

func hugeEvents(n int) []snapshot.TraceEvent {
	ev := make([]snapshot.TraceEvent, 0, n)
	hugepage.Advise(ev)
	return ev
}

func hugeRequests(n int) []allocsim.Request {
	q := make([]allocsim.Request, 0, n)
	hugepage.Advise(q)
	return q
}

// gcFor sets the collector's target (runtime/debug.SetGCPercent) for one
// command's run, unless the user set GOGC, and returns what restores it.
// main sets 10, which keeps a large snapshot's decoding near the size of
// its events; a command that reads no snapshot and makes short-lived
// garbage runs faster with a sparser collector.
func gcFor(percent int) (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(percent)
	return func() { debug.SetGCPercent(old) }
}

// planGCPercent is plan's target: its garbage is the search's graphs,
// schedules and step walks, made and dropped per configuration. Against
// main's 10 (a 2-core machine): Llama-3-8B --fit over 8 H100s 5.1 -> 1.9 s,
// GPT-2 --fit on one GPU 1.25 -> 0.60 s, peak RSS 46 -> 59 MB and 42 -> 55
// MB; 200 gains another 14% for 32% more memory.
const planGCPercent = 100

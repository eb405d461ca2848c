package cli

import (
	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/hugepage"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// The two big slices a command fills from a large snapshot, made so that
// the kernel backs them with huge pages (see package hugepage). The core
// packages take these makers as options and never touch the kernel
// themselves.

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

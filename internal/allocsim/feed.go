package allocsim

import "context"

// Feed replays a request stream that arrives in pieces through one
// allocator, for a producer that cannot hold the whole stream: a long
// generate call writes thousands of requests per decoded token, and kept
// whole its stream grows by megabytes per token. Each piece is run as it
// comes, the same loop Simulate runs, and may be dropped by the caller
// afterwards. Allocation IDs may be reused once freed (the table of live
// blocks is keyed by the ID of what is live).
type Feed struct {
	q    *reqRun
	live blockTable
	// done counts the requests of the pieces run so far
	done int
	// ended is set once a request ran out of memory
	ended bool
}

// NewFeed starts a replay with configuration cfg on dev.
func NewFeed(cfg Config, dev Device) *Feed {
	f := &Feed{live: newGrowingTable()}
	f.q = startRun(&f.live, cfg, dev)
	return f
}

// Run replays the next piece of the stream. It returns false once the
// replay has ended at an out-of-memory error (in this piece or an earlier
// one); later pieces are then ignored, as the program would have stopped.
// SimResult.OOMAt is the failing request's Event as the producer set it.
func (f *Feed) Run(piece []Request) bool {
	if f.ended || len(piece) == 0 {
		return !f.ended
	}
	ok := f.q.next(context.Background(), piece, 0)
	f.q.res.Requests += f.done
	f.done += len(piece)
	f.ended = !ok
	return ok
}

// Result is the replay's outcome so far: its statistics, and where it ran
// out of memory (OOMAt −1 if it has not).
func (f *Feed) Result() SimResult {
	r := f.q.result()
	if !f.ended {
		r.Requests = f.done
	}
	return r
}

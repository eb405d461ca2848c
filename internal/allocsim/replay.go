package allocsim

import (
	"context"
	"fmt"
	rtrace "runtime/trace"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// ReplayResult is the outcome of replaying a recorded trace.
type ReplayResult struct {
	// Reproduced is true when every event the simulator recorded matched
	// the trace: segment allocations, frees, maps and unmaps, and the
	// address of every block.
	Reproduced bool
	// FirstDivergence describes the first mismatch; DivergedAt is its trace
	// index (-1 when none).
	FirstDivergence string
	DivergedAt      int
	// Stats are the simulated memory_stats() at the end of the trace (or
	// at the divergence).
	Stats Stats
	// Requests is the program's allocation stream, inferred from the trace,
	// for replays under other settings.
	Requests []Request
	// EmptyCacheCalls counts inferred torch.cuda.empty_cache() calls.
	EmptyCacheCalls int
	// Allocator is the simulator's final state.
	Allocator *Allocator
	// AtPeakReserved is the cache right after the request that first took
	// reserved memory to its peak: fragmentation is judged there, when
	// the cache is biggest, not at the end of the trace.
	AtPeakReserved CacheState
}

// CacheState is a summary of the allocator's cache at one moment.
type CacheState struct {
	// Event is the trace index of the request after which it was taken
	// (-1 before any request), and Request that request's index in the
	// kept request stream (-1 when none is kept).
	Event     int
	Request   int
	Reserved  int64
	Allocated int64
	// LargestFree is the largest cached block free for reuse (blocks
	// still waiting on stream events are not).
	LargestFree int64
}

// replayTrace replays a device's trace through an allocator with
// configuration cfg. The trace itself stands in for the GPU: a cudaMalloc
// succeeds when the trace shows the segment being allocated next, with the
// recorded address. Every other decision — which cached block serves a
// request, where it is split, which segments are released — is the
// simulator's own and is checked against the trace. ReplayDevice is the
// one public way in; this is its engine.
//
// It checks ctx every checkEvery requests and returns ctx's error once it
// is done.
func replayTrace(ctx context.Context, trace []snapshot.TraceEvent, tags []snapshot.EventTag, cfg Config, o ReplayOptions, emptyCacheStack func(snapshot.StackID) bool,
	poolOf map[int][2]int64, out *DeviceReplay) (*ReplayResult, error) {
	defer rtrace.StartRegion(ctx, "replay").End()
	r := newReplayer(ctx, cfg, o, emptyCacheStack, poolOf, out)
	r.tr, r.tags, r.done = trace, tags, true
	if o.KeepRequests {
		// One request per alloc, oom and free_requested, plus the rare
		// deferred completions and empty_cache calls: sized up front, a
		// growing slice of millions of requests costs more than the replay.
		n := 16
		for i := range trace {
			if isRequest(trace[i].Action) {
				n++
			}
		}
		r.res.Requests = makeRequests(o.MakeRequests, n+n/64)
	}
	r.sampler = newSampler(trace, o)
	return r.finish()
}

// newReplayer is a replayer of no events yet.
func newReplayer(ctx context.Context, cfg Config, o ReplayOptions, emptyCacheStack func(snapshot.StackID) bool,
	poolOf map[int][2]int64, out *DeviceReplay) *replayer {
	r := &replayer{ctx: ctx, skip: map[int]bool{}, res: &ReplayResult{DivergedAt: -1}, total: o.TotalMemory,
		keep: o.KeepRequests, emptyCacheStack: emptyCacheStack, poolOf: poolOf, out: out}
	r.res.AtPeakReserved.Event, r.res.AtPeakReserved.Request = -1, -1
	r.a = New(cfg, &traceDevice{r})
	r.a.checker = r
	return r
}

// finish runs the replay and returns its result.
func (r *replayer) finish() (*ReplayResult, error) {
	r.run()
	if r.stopped != nil {
		return nil, fmt.Errorf("allocsim: replay stopped at event %d of %d: %w", r.cur, len(r.tr), r.stopped)
	}
	res := r.res
	res.Stats = r.a.Stats()
	res.Reproduced = res.DivergedAt < 0
	res.Allocator = r.a
	return res, nil
}

// makeRequests makes an empty request slice of capacity n with mk, when
// given (see ReplayOptions.MakeRequests), else with make.
func makeRequests(mk func(int) []Request, n int) []Request {
	if mk != nil {
		if q := mk(n); cap(q) >= n {
			return q[:0]
		}
	}
	return make([]Request, 0, n)
}

// checkEvery is how often, in requests, a replay looks at its context:
// a power of two minus one used as a mask, so the check costs an AND per
// request, and a stop comes within milliseconds.
const checkEvery = 1<<16 - 1

type replayer struct {
	// ctx stops the replay when done; stopped is its error then.
	ctx     context.Context
	stopped error
	steps   int
	tr      []snapshot.TraceEvent
	// tags are the streams (and contexts) the events' Tags index.
	tags []snapshot.EventTag
	// feed, when set, gives the trace as it is decoded: tr is the part
	// decoded so far, the whole trace once done. A replay that would
	// need to look past the part it has (the trace's end, as far as
	// it knows) cannot tell what the whole trace would have made it do:
	// it sets hazard and stops, and its result is not used.
	feed   *snapshot.Feed
	stacks [][]snapshot.Frame
	// pub, when set, is given the requests as the replay settles on them
	// (pubN: how many it has been given).
	pub    *reqStream
	pubN   int
	done   bool
	hazard bool
	cur    int
	skip   map[int]bool // free_completed events matched out of order
	a      *Allocator
	// dropped is a copy of the allocator that a group's first explanation
	// made unnecessary: the next copy reuses its memory (see cloneInto).
	dropped *Allocator
	res     *ReplayResult
	next    int32
	total   int64
	keep    bool // collect the request stream
	// poolOf routes trace allocations to private pools; see poolRouting.
	// poolNums numbers their MempoolIds for Request.Pool.
	poolOf   map[int][2]int64
	poolNums map[[2]int64]int32
	// framed: the trace records stacks on allocations (context "alloc" or
	// "all"), known once framedKnown (see isFramed; framedAt is where its
	// search goes on); emptyCacheStack recognises empty_cache()'s own
	// stack.
	framed, framedKnown bool
	framedAt            int
	emptyCacheStack     func(snapshot.StackID) bool
	// sampler follows memory over time for the timeline (nil when no
	// timeline is asked for); out receives what it and the OOM records
	// find.
	sampler *sampler
	out     *DeviceReplay
}

func (r *replayer) request(q Request) {
	if r.keep {
		r.res.Requests = append(r.res.Requests, q)
	}
}

func (r *replayer) diverge(at int, format string, args ...any) {
	if r.res.DivergedAt >= 0 {
		return
	}
	r.res.DivergedAt = at
	r.res.FirstDivergence = fmt.Sprintf("event %d: ", at) + fmt.Sprintf(format, args...)
}

func (r *replayer) failed() bool { return r.res.DivergedAt >= 0 }

// peek returns the index of the next expected event, skipping snapshot
// markers and events already matched, or len(tr).
func (r *replayer) peek() int {
	for r.cur < len(r.tr) && (r.tr[r.cur].Action == snapshot.ActionSnapshot || (len(r.skip) > 0 && r.skip[r.cur])) {
		delete(r.skip, r.cur)
		r.cur++
	}
	return r.cur
}

func describe(e Event) string {
	return fmt.Sprintf("%s addr=%#x size=%d", e.Action, e.Addr, e.Size)
}

func describeT(e *snapshot.TraceEvent) string {
	return fmt.Sprintf("%s addr=%#x size=%d", e.Action, e.Addr, e.Size)
}

// observe checks each event the simulator records against the trace.
func (r *replayer) observe(ev Event) {
	if r.failed() {
		return
	}
	i := r.peek()
	if !r.in(i) {
		r.diverge(i, "simulator recorded %s after the end of the trace", describe(ev))
		return
	}
	if match(ev, &r.tr[i]) {
		r.cur++
		return
	}
	// Blocks freed by one synchronize come out in the allocator's stream
	// order, which the trace may not share; any order of one run is fine.
	if ev.Action == snapshot.ActionFreeCompleted && r.tr[i].Action == snapshot.ActionFreeCompleted {
		for k := i + 1; r.in(k) && r.tr[k].Action == snapshot.ActionFreeCompleted; k++ {
			if !r.skip[k] && match(ev, &r.tr[k]) {
				r.skip[k] = true
				return
			}
		}
	}
	r.diverge(i, "trace has %s, simulator did %s", describeT(&r.tr[i]), describe(ev))
}

func match(ev Event, t *snapshot.TraceEvent) bool { return matchAt(t, ev.Action, ev.Addr, ev.Size) }

// matchAt is match of the event (act, addr, size).
func matchAt(t *snapshot.TraceEvent, act snapshot.Action, addr, size int64) bool {
	return act == t.Action && uint64(size) == t.Size && (act == snapshot.ActionOOM || uint64(addr) == t.Addr)
}

// traceDevice answers the allocator's device calls from the trace.
type traceDevice struct{ r *replayer }

func (d *traceDevice) expect(act snapshot.Action) *snapshot.TraceEvent {
	r := d.r
	if r.failed() {
		return nil
	}
	if i := r.peek(); r.in(i) && r.tr[i].Action == act {
		return &r.tr[i]
	}
	return nil
}

func (d *traceDevice) Malloc(size, stream int64) (int64, bool) {
	if e := d.expect(snapshot.ActionSegmentAlloc); e != nil && e.Size == uint64(size) {
		return int64(e.Addr), true
	}
	return 0, false
}

func (d *traceDevice) Free(ptr, size int64) {}

func (d *traceDevice) Reserve(size, stream int64, small bool) int64 {
	if e := d.expect(snapshot.ActionSegmentMap); e != nil {
		return int64(e.Addr)
	}
	return 1 << 56 // no map follows: the mismatch is reported when it happens
}

func (d *traceDevice) Map(ptr, size int64) bool {
	e := d.expect(snapshot.ActionSegmentMap)
	return e != nil && e.Addr == uint64(ptr) && e.Size == uint64(size)
}

func (d *traceDevice) Unmap(ptr, size int64) {}

func (d *traceDevice) FreeMemory() int64 {
	if e := d.expect(snapshot.ActionOOM); e != nil {
		return int64(e.Addr)
	}
	return 0
}

func (d *traceDevice) Total() int64 {
	if d.r.feed != nil {
		d.r.hazard = true // the total comes from the whole trace (or settings the feed does not have)
	}
	return d.r.total
}

package analyze

import (
	"context"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// TimelineAhead builds the analysis' timeline (allocated bytes after each
// request, the life of each allocation) while the replay that runs beside
// the decode (allocsim.Ahead) makes the request stream: its Add is an
// allocsim.AheadOptions.Requests. Replayed takes what it built only when
// the Ahead's replay is the one analysed and the timeline covers its whole
// stream; otherwise it builds the timeline after the replay, as before.
type TimelineAhead struct {
	t     timeline
	cur   int64
	n     int   // requests added
	maxID int32 // highest allocation ID met, in any request
	nreq  int   // allocations met
	// early: a free named an allocation not met yet, which buildTimeline,
	// knowing every allocation, might have read differently.
	early  bool
	advise func(slice any)
}

// NewTimelineAhead returns an empty TimelineAhead; advise is as
// Options.AdviseHugePages.
func NewTimelineAhead(advise func(slice any)) *TimelineAhead {
	return &TimelineAhead{maxID: -1, advise: advise}
}

// Add takes requests reqs[from:] of the stream so far; trace holds every
// event they name. It is buildTimeline's loop, over one piece.
func (ta *TimelineAhead) Add(reqs []allocsim.Request, from int, trace []snapshot.TraceEvent) {
	t := &ta.t
	if t.level == nil {
		// Sized once by the stream's bound: what is never written costs
		// no memory, and growing would copy the lives (tens of megabytes
		// of fresh memory) again and again.
		n := cap(reqs)
		t.level, t.lives, t.lifeOf = make([]int64, 0, n), make([]life, 0, n), make([]int32, 0, n)
		if ta.advise != nil {
			ta.advise(t.level)
			ta.advise(t.lives)
		}
	}
	cur := ta.cur
	for i := from; i < len(reqs); i++ {
		r := &reqs[i]
		if r.ID > ta.maxID && (r.Kind == allocsim.ReqAlloc || r.Kind == allocsim.ReqFree) {
			ta.maxID = r.ID
		}
		switch r.Kind {
		case allocsim.ReqAlloc:
			// The replay numbers allocations 0, 1, 2, … in request order;
			// finish checks that this stream did.
			ta.nreq++
			if int(r.ID) >= len(t.lifeOf) {
				t.lifeOf = append(t.lifeOf, make([]int32, int(r.ID)+1-len(t.lifeOf))...)
			}
			t.lifeOf[r.ID] = -1
			if r.Block > 0 {
				var st snapshot.StackID
				if int(r.Event) < len(trace) {
					st = trace[r.Event].Stack
				}
				t.lifeOf[r.ID] = int32(len(t.lives))
				t.lives = append(t.lives, life{alloc: int32(i), free: never, size: r.Size, block: r.Block, stack: st})
				cur += r.Block
			}
		case allocsim.ReqFree:
			if int(r.ID) >= len(t.lifeOf) {
				ta.early = true
			} else {
				if k := t.lifeOf[r.ID]; k >= 0 && t.lives[k].free == never {
					t.lives[k].free = int32(i)
					cur -= t.lives[k].block
				}
			}
		}
		t.level = append(t.level, cur)
	}
	ta.cur, ta.n = cur, len(reqs)
}

// timelineOf is the timeline of replay rp of trace: the one ahead built
// when it is that timeline, else buildTimeline's.
func timelineOf(ctx context.Context, rp *allocsim.DeviceReplay, trace []snapshot.TraceEvent, o Options) *timeline {
	reqs := rp.Result.Requests
	if ta := o.Timeline; ta != nil && o.Ahead.RequestsFollowed(ctx, rp.Device) && ta.n == len(reqs) &&
		// Every ID was below the number of allocations (IDs 0, 1, 2, …),
		// so buildTimeline's table, of that length, would have taken
		// the same requests.
		int(ta.maxID) < ta.nreq && len(ta.t.lifeOf) == ta.nreq && !ta.early {
		t := &ta.t
		t.reqs, t.trace = reqs, trace
		t.resPeak, t.resPeakBytes = max(rp.Result.AtPeakReserved.Request, 0), rp.Result.AtPeakReserved.Reserved
		return t
	}
	return buildTimeline(reqs, trace, rp.Result.AtPeakReserved, o.AdviseHugePages)
}

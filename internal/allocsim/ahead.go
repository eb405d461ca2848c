package allocsim

import (
	"context"
	"errors"
	"runtime/trace"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// An Ahead is a replay that runs while the snapshot is still being
// decoded: it follows a snapshot.Feed, replaying each event as soon as
// the loader has put it in place, so a command's wall time is about the
// longer of the decode and the replay rather than their sum.
//
// It cannot know what only the end of the file says (the allocator
// settings, the segments that route allocations to private pools, the
// trace's length), so it replays under PyTorch's default settings and
// stops, unused, the moment it would need any of that. ReplayDevice takes
// its result (ReplayOptions.Ahead) only when the loaded snapshot shows
// the guess was right: the same events, the settings it replayed under,
// no private pools, the same options. Otherwise it replays as usual, so
// the result never depends on whether an Ahead ran.
type Ahead struct {
	feed   *snapshot.Feed
	cfg    Config
	o      ReplayOptions
	cancel context.CancelFunc
	done   chan struct{}
	// Set by the replay before done is closed.
	res    *ReplayResult
	out    DeviceReplay
	err    error
	hazard bool
	// taken: take handed out its result.
	taken bool
	// pub is the request stream, published when something follows it:
	// tune's grid, or a follower (followed is closed once it has seen
	// the whole stream, and followedOK says it did).
	pub        *reqStream
	tune       *aheadTune
	followed   chan struct{}
	followedOK bool
}

// errAbandoned stops a replay whose feed the loader gave up on.
var errAbandoned = errors.New("allocsim: the loader abandoned the trace being replayed")

// AheadOptions say what else runs beside an Ahead's replay, on its
// request stream (which needs ReplayOptions.KeepRequests).
type AheadOptions struct {
	// Tune runs tune's grid under this setup (see Ahead.TuneRows).
	Tune *TuneSetup
	// Requests, when set, is called on a goroutine of its own with each
	// piece of the request stream the replay has settled on, in order:
	// reqs is the stream so far, from where the new piece starts, and
	// trace the events as far as the replay has read them. cap(reqs)
	// bounds the stream's final length (its elements past len(reqs) must
	// not be read). See Ahead.RequestsFollowed.
	Requests func(reqs []Request, from int, trace []snapshot.TraceEvent)
}

// ReplayAhead starts replaying f's events under the default settings and
// o on a goroutine of its own. o must be the options the replay of the
// loaded snapshot will use (TotalMemory and MakeRequests aside); a
// timeline (o.TimelineBuckets), whose buckets' width needs the trace's
// length, is bucketed once the feed ends. The goroutine ends when the feed does, or when ctx
// is done. With o.KeepRequests, what ao asks for runs beside the replay
// too.
func ReplayAhead(ctx context.Context, f *snapshot.Feed, o ReplayOptions, ao AheadOptions) *Ahead {
	rctx, cancel := context.WithCancel(ctx)
	a := &Ahead{feed: f, cfg: DefaultConfig(), o: o, cancel: cancel, done: make(chan struct{})}
	if o.MemoryFraction > 0 && o.MemoryFraction < 1 {
		a.cfg.MemoryFraction = o.MemoryFraction
	}
	if o.KeepRequests && (ao.Tune != nil || ao.Requests != nil) {
		a.pub = newReqStream()
		if ao.Tune != nil {
			// Under ctx, not the replay's: take stops the replay once
			// done with it, and the grid may still be running then. A
			// replay stopped early ends the stream, which stops the grid.
			a.startTune(ctx, *ao.Tune)
		}
		if ao.Requests != nil {
			a.startFollower(ao.Requests)
		}
	}
	go func() {
		defer close(a.done)
		a.run(rctx)
	}()
	return a
}

func (a *Ahead) run(ctx context.Context) {
	defer trace.StartRegion(ctx, "replay ahead").End()
	a.out = DeviceReplay{Device: a.feed.Device(), PeakAllocatedAt: -1, PeakReservedAt: -1}
	if a.cfg.MemoryFraction < 1 {
		a.hazard = true
		if a.pub != nil {
			a.pub.publish(nil, nil, true, false)
		}
		return
	}
	o := a.o
	o.TotalMemory = 0 // Total() is a hazard on a fed trace
	var r *replayer
	r = newReplayer(ctx, a.cfg, o, func(id snapshot.StackID) bool {
		if id <= 0 || int(id) >= len(r.stacks) {
			r.hazard = true
			return false
		}
		for _, f := range r.stacks[id] {
			if f.Name == "empty_cache" {
				return true
			}
		}
		return false
	}, nil, &a.out)
	r.feed, r.pub = a.feed, a.pub
	if o.KeepRequests {
		n := a.feed.Bound() + 16 // every event a request at most, as in replayTrace
		r.res.Requests = makeRequests(o.MakeRequests, n+n/64)
	}
	r.sampler = newLoggingSampler(o)
	a.res, a.err = r.finish()
	a.hazard = r.hazard
	if a.pub != nil {
		var reqs []Request
		if a.res != nil {
			reqs = a.res.Requests
		}
		a.pub.publish(reqs, r.tr, true, a.err == nil && !a.hazard)
	}
	if a.err == nil && !a.hazard && r.done {
		// After the stream's end is published: what follows it runs
		// meanwhile.
		r.sampler.settle(r.tr, &a.out)
	}
}

// take returns the replay of device dev of s under cfg and o if the
// Ahead's is that replay, with the fields the replay fills copied to d;
// nil when it is not (it then stops the Ahead).
func (a *Ahead) take(ctx context.Context, s *snapshot.Snapshot, dev int, cfg Config, o ReplayOptions, d *DeviceReplay) *ReplayResult {
	defer a.cancel()
	if cfg != a.cfg || o.KeepRequests != a.o.KeepRequests || o.KeepPeakSegments != a.o.KeepPeakSegments ||
		o.TimelineBuckets != a.o.TimelineBuckets || !a.feed.Covers(s, dev) || usesPrivatePools(s.Segments, dev) {
		return nil
	}
	select {
	case <-a.done:
	case <-ctx.Done():
		return nil
	}
	if a.err != nil || a.hazard || a.res == nil {
		return nil
	}
	d.PeakAllocated, d.PeakAllocatedAt = a.out.PeakAllocated, a.out.PeakAllocatedAt
	d.PeakReserved, d.PeakReservedAt = a.out.PeakReserved, a.out.PeakReservedAt
	d.PeakSegments, d.OOMs, d.Timeline = a.out.PeakSegments, a.out.OOMs, a.out.Timeline
	a.taken = true
	return a.res
}

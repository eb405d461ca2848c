package snapshot

import (
	"sync"

	"github.com/vramkit/vramkit/internal/pickle"
)

// A Feed hands one device's trace events to a consumer while the parallel
// loader is still decoding the file, in file order, as soon as the
// sequential pass has put them in place: a replay that follows the feed
// runs beside the decode instead of after it.
//
// The loader feeds the first device trace it meets that holds events, and
// only when it decodes in parallel (LoadOptions.Follow says how to start
// a consumer). What the consumer reads is the loaded Snapshot's own data:
// once the load returns, Covers tells whether the feed ended as the trace
// of that device in the Snapshot, event for event (a consumer must not use
// what it computed otherwise: the loader may have given up on the
// parallel decode and started again).
type Feed struct {
	mu    sync.Mutex
	cond  sync.Cond
	dev   int
	buf   []TraceEvent
	view  FeedView
	bound int
	// ended: no more events come (done or abandoned); ok: they all came.
	ended, ok bool
}

// FeedView is what a feed has published so far. Events are final; the
// tags and stacks their ids index are in Tags and Stacks (tables that
// only grow, so later views extend earlier ones).
type FeedView struct {
	Events []TraceEvent
	Tags   []EventTag
	Stacks [][]Frame
	// Done: Events is the whole trace.
	Done bool
}

// Device is the device whose trace the feed carries.
func (f *Feed) Device() int { return f.dev }

// Bound is an upper bound on the number of events the feed will carry.
func (f *Feed) Bound() int { return f.bound }

// Next blocks until the feed holds more than have events or has ended,
// and returns what it holds; ok is false when the loader abandoned it
// (the view is then meaningless).
func (f *Feed) Next(have int) (v FeedView, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(f.view.Events) <= have && !f.ended {
		f.cond.Wait()
	}
	if f.ended && !f.ok {
		return FeedView{}, false
	}
	return f.view, true
}

// Covers reports whether the feed ended with exactly device dev's trace
// in s: the same events, in the same memory, all of them.
func (f *Feed) Covers(s *Snapshot, dev int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.ok || dev != f.dev {
		return false
	}
	ev := s.Trace(dev)
	fed := f.view.Events
	if len(ev) != len(fed) || len(ev) == 0 {
		return false
	}
	return &ev[0] == &fed[0]
}

// NewFeed makes a feed of device dev's trace, whose events will be
// buf[:n] for some n (the producer writes them there, then publishes).
func NewFeed(dev int, buf []TraceEvent) *Feed {
	f := &Feed{dev: dev, bound: len(buf), buf: buf}
	f.cond.L = &f.mu
	return f
}

// Publish makes buf[:n] visible to the consumer, with the tag and stack
// tables their ids index; n never shrinks.
func (f *Feed) Publish(n int, tags []EventTag, stacks [][]Frame) {
	f.mu.Lock()
	if n > len(f.view.Events) {
		f.view = FeedView{Events: f.buf[:n:n], Tags: tags, Stacks: stacks}
	}
	f.mu.Unlock()
	f.cond.Broadcast()
}

// End closes the feed: with the loaded Snapshot s when the load
// succeeded, nil when it was abandoned. The feed is complete when s holds
// device dev's trace where the feed's buffer starts (so that every view
// published was a prefix of it).
func (f *Feed) End(s *Snapshot) {
	f.mu.Lock()
	f.ended = true
	if s != nil {
		ev := s.Trace(f.dev)
		if len(ev) >= len(f.view.Events) && len(ev) > 0 && len(ev) <= len(f.buf) && &ev[0] == &f.buf[0] {
			f.ok = true
			f.view = FeedView{Events: ev, Tags: s.Tags, Stacks: s.Stacks, Done: true}
		}
	}
	f.mu.Unlock()
	f.cond.Broadcast()
}

// feeder is the loader's side of a feed.
type feeder struct {
	f    *Feed
	list *pickle.List
	// first is the index of the list's first event in the shared buffer;
	// published is the cursor at the last publish.
	first, published int64
}

// publishEvery is how many events the sequential decoder converts one by
// one before it publishes them (runs are published whole).
const publishEvery = 1 << 12

// follow starts a feed on list l, whose events begin at buffer index
// first, if the options ask for one and none has started yet.
func (b *builder) follow(l *pickle.List, first int64) {
	ps := b.par
	if ps == nil || b.opts.Follow == nil || ps.feed != nil {
		return
	}
	dev := deviceIndex(l)
	if dev < 0 {
		return
	}
	f := NewFeed(dev, ps.events[first:])
	ps.feed = &feeder{f: f, list: l, first: first, published: first}
	b.opts.Follow(f)
}

// deviceIndex is the index in device_traces of device list l (see
// isTraceList for the chain of Parents it walks), or -1.
func deviceIndex(l *pickle.List) int {
	idx := 0
	for p := l; ; idx++ {
		par, ok := p.Parent.(*pickle.List)
		if !ok {
			return -1
		}
		if k, ok := par.Parent.(string); ok {
			if k != "device_traces" {
				return -1
			}
			return idx
		}
		p = par
	}
}

// publish makes the events of list l up to the cursor visible to the
// feed's consumer.
func (b *builder) publish(l *pickle.List) {
	ps := b.par
	fd := ps.feed
	if fd == nil || fd.list != l || fd.published == ps.cursor {
		return
	}
	fd.published = ps.cursor
	fd.f.Publish(int(ps.cursor-fd.first), b.snap.Tags, b.snap.Stacks)
}

// end ends the loader's feed, if any (see Feed.End).
func (fd *feeder) end(s *Snapshot) {
	if fd != nil {
		fd.f.End(s)
	}
}

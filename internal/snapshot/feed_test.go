package snapshot

import (
	"sync"
	"testing"
)

// feedLog is what a consumer of a Feed saw, checked once the load is over.
type feedLog struct {
	mu        sync.Mutex
	feed      *Feed
	wg        sync.WaitGroup
	abandoned bool
	views     int
	bad       string       // the first broken promise a view made, if any
	last      []TraceEvent // the events as they were first published
}

// followed returns load options whose Follow starts a consumer that reads
// the feed as a replay would, checking each view as it comes: every event
// it publishes names streams and stacks the view already holds.
func followed(t testing.TB) (LoadOptions, *feedLog) {
	fl := &feedLog{}
	lo := DefaultLoadOptions()
	lo.Follow = func(f *Feed) {
		if fl.feed != nil {
			fl.bad = "Follow called twice"
			return
		}
		fl.feed = f
		fl.wg.Add(1)
		go fl.consume(f)
	}
	return lo, fl
}

func (fl *feedLog) consume(f *Feed) {
	defer fl.wg.Done()
	have := 0
	for {
		v, ok := f.Next(have)
		fl.mu.Lock()
		if !ok {
			fl.abandoned = true
			fl.mu.Unlock()
			return
		}
		fl.views++
		if len(v.Events) < have && fl.bad == "" {
			fl.bad = "a view shrank"
		}
		for i := have; i < len(v.Events) && fl.bad == ""; i++ {
			e := &v.Events[i]
			if int(e.Tag()) >= len(v.Tags) || int(e.Stack) >= len(v.Stacks) || e.Stack < 0 {
				fl.bad = "an event published before its stream or stack"
			}
		}
		// Keep a copy of each event as first published: it must never
		// change.
		if len(v.Events) > have {
			fl.last = append(fl.last, v.Events[have:]...)
		}
		fl.mu.Unlock()
		have = len(v.Events)
		if v.Done {
			return
		}
	}
}

// check waits for the consumer and compares what it saw with the load's
// outcome: a successful load ends the feed with the device's whole trace,
// a failed one abandons it.
func (fl *feedLog) check(t testing.TB, s *Snapshot, err error) {
	t.Helper()
	fl.wg.Wait()
	if fl.bad != "" {
		t.Fatal(fl.bad)
	}
	if fl.feed == nil {
		if err == nil {
			for _, d := range s.Devices {
				if len(d.Events) > 0 {
					t.Fatalf("device %d has %d events, and no feed started", d.Device, len(d.Events))
				}
			}
		}
		return
	}
	if err != nil {
		if !fl.abandoned {
			t.Fatalf("load failed (%v), yet the feed was not abandoned", err)
		}
		return
	}
	dev := fl.feed.Device()
	tr := s.Trace(dev)
	if fl.abandoned || !fl.feed.Covers(s, dev) {
		t.Fatalf("feed of device %d (%d events) not complete: abandoned %v", dev, len(tr), fl.abandoned)
	}
	if len(fl.last) != len(tr) {
		t.Fatalf("feed ended with %d events, trace has %d", len(fl.last), len(tr))
	}
	for i := range tr {
		if tr[i] != fl.last[i] {
			t.Fatalf("event %d changed after it was published: %+v, then %+v", i, fl.last[i], tr[i])
		}
	}
	for _, d := range s.Devices {
		if len(d.Events) > 0 {
			if d.Device != dev {
				t.Fatalf("fed device %d, the first trace with events is device %d's", dev, d.Device)
			}
			break
		}
	}
	if fl.views == 0 {
		t.Fatal("no view")
	}
}

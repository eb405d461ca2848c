package allocsim

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// stopAfter is a context that reports itself done from its n+1-th Err call
// on: it stands for a Ctrl-C that arrives while the replay runs.
type stopAfter struct {
	context.Context
	left atomic.Int64
}

func newStopAfter(n int64) *stopAfter {
	c := &stopAfter{Context: context.Background()}
	c.left.Store(n)
	return c
}

func (c *stopAfter) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

func TestReplayCancelledBeforeStart(t *testing.T) {
	s := load(t, "h200/gpt2-dyn-pad-batch-default.pickle.gz")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	_, err := ReplayDeviceContext(ctx, s, 0, DefaultReplayOptions())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("a cancelled replay took %v", d)
	}
}

// TestReplayStopsMidTrace lets the replay start and cancels it at its
// first check inside the loop: the gpt2 trace has 69325 requests, more than
// checkEvery, so a loop that never looked would finish with no error.
func TestReplayStopsMidTrace(t *testing.T) {
	s := load(t, "h200/gpt2-dyn-pad-batch-default.pickle.gz")
	if n := len(mustReplay(t, s, DefaultReplayOptions()).Result.Requests); n <= checkEvery+1 {
		t.Fatalf("the trace has %d requests, too few to reach a second check", n)
	}
	// One Err for ReplayDeviceContext's own check, one for the loop's
	// first; the loop's second must stop it.
	_, err := ReplayDeviceContext(newStopAfter(2), s, 0, DefaultReplayOptions())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	// The same context that never fires changes nothing.
	d, err := ReplayDeviceContext(newStopAfter(1<<40), s, 0, DefaultReplayOptions())
	if err != nil || !d.TraceComplete {
		t.Fatalf("uncancelled replay: err %v, complete %v", err, d.TraceComplete)
	}
}

func TestTuneCancelled(t *testing.T) {
	s := load(t, "h200/bert-base-s128-b16-fp32.pickle.gz")
	reqs := mustReplay(t, s, DefaultReplayOptions()).Result.Requests
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rows, err := TuneContext(ctx, reqs, 0, h200Total, 1)
	if !errors.Is(err, context.Canceled) || rows != nil {
		t.Fatalf("rows %d, err %v; want none and context.Canceled", len(rows), err)
	}
}

// TestSimulateStopsMidStream: each of tune's runs is a full pass over the
// request stream, so a run under way must stop too, at its next check.
func TestSimulateStopsMidStream(t *testing.T) {
	s := load(t, "h200/gpt2-dyn-pad-batch-default.pickle.gz")
	reqs := mustReplay(t, s, DefaultReplayOptions()).Result.Requests
	cfg, _ := FromSettings(s.Settings)
	live := newBlockTable(denseIDs(reqs))
	if r := simulate(newStopAfter(1<<40), reqs, &live, cfg, NewDevice(0, h200Total)); r.Requests != len(reqs) {
		t.Fatalf("uncancelled: %d of %d requests ran", r.Requests, len(reqs))
	}
	// The first check (request 0) passes, the second stops the run.
	if r := simulate(newStopAfter(1), reqs, &live, cfg, NewDevice(0, h200Total)); r.Requests != checkEvery+1 {
		t.Errorf("cancelled: %d of %d requests ran, want %d", r.Requests, len(reqs), checkEvery+1)
	}
}

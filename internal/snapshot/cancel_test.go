package snapshot

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

// stopAfter reports itself done from its n+1-th Err call on: a Ctrl-C
// that arrives while the snapshot decodes.
type stopAfter struct {
	context.Context
	left atomic.Int64
}

func (c *stopAfter) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestLoadStopsWhenCancelled decodes a real H200 trace of 103943 entries,
// more than checkEvery: cancelled before the start, or at the decoder's
// second look, the load returns context.Canceled; never cancelled, it
// loads the whole trace.
func TestLoadStopsWhenCancelled(t *testing.T) {
	const path = "../../testdata/h200/gpt2-dyn-pad-batch-default.pickle.gz"
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := LoadFileContext(ctx, path, DefaultLoadOptions()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before the start: err = %v, want context.Canceled", err)
	}
	// load's own check, then the hook's at the first trace entry; the
	// hook's next check, checkEvery entries later, must stop it.
	mid := &stopAfter{Context: context.Background()}
	mid.left.Store(2)
	if _, err := LoadFileContext(mid, path, DefaultLoadOptions()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled mid-trace: err = %v, want context.Canceled", err)
	}
	never := &stopAfter{Context: context.Background()}
	never.left.Store(1 << 40)
	s, err := LoadFileContext(never, path, DefaultLoadOptions())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Trace(0)); n != 103943 || n <= checkEvery+1 {
		t.Errorf("trace has %d entries, want 103943 (more than %d)", n, checkEvery+1)
	}
}

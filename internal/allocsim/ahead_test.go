package allocsim

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// replayFed replays device dev of s with an Ahead that followed a feed of
// its trace published in pieces of 1 to maxPiece events (the last view
// then marked whole, as the loader does once the file is read), and
// returns the replay and whether the Ahead's result was taken.
func replayFed(t testing.TB, s *snapshot.Snapshot, dev int, o ReplayOptions, rng *rand.Rand, maxPiece int) (DeviceReplay, bool) {
	t.Helper()
	tr := s.Trace(dev)
	f := snapshot.NewFeed(dev, tr)
	a := ReplayAhead(context.Background(), f, o)
	for n := 0; n < len(tr); {
		n = min(n+1+rng.IntN(maxPiece), len(tr))
		f.Publish(n, s.Streams, s.Stacks)
	}
	f.End(s)
	o.Ahead = a
	d, err := ReplayDevice(s, dev, o)
	if err != nil {
		t.Fatal(err)
	}
	return d, a.taken
}

// sameReplay fails the test at the first field in which two replays of a
// device differ.
func sameReplay(t testing.TB, name string, got, want DeviceReplay) {
	t.Helper()
	g, w := *got.Result, *want.Result
	if !slices.Equal(g.Requests, w.Requests) {
		t.Fatalf("%s: request streams differ (%d, %d requests)", name, len(g.Requests), len(w.Requests))
	}
	g.Requests, w.Requests = nil, nil
	g.Allocator, w.Allocator = nil, nil
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("%s: results differ:\n got %+v\nwant %+v", name, g, w)
	}
	if gs, ws := got.Result.Allocator.Segments(), want.Result.Allocator.Segments(); !reflect.DeepEqual(gs, ws) {
		t.Fatalf("%s: final allocator states differ", name)
	}
	got.Result, want.Result = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: replays differ:\n got %+v\nwant %+v", name, got, want)
	}
}

// TestAheadMatchesReplay replays every snapshot under testdata/ after the
// load and again while its trace is fed in pieces of random sizes: the
// two agree field for field, request for request, under each command's
// options. The Ahead's own result must be the one taken whenever the
// guess it makes holds (default settings, no private pools) and the trace
// replays exactly, else the test would pass on the fallback alone; and
// never when the guess is wrong.
func TestAheadMatchesReplay(t *testing.T) {
	var paths []string
	for _, pat := range []string{root + "/*/*.pickle.gz", root + "/*/*.pickle", "../../examples/*.pickle.gz"} {
		m, _ := filepath.Glob(pat)
		paths = append(paths, m...)
	}
	if len(paths) < 50 {
		t.Fatalf("found %d snapshots", len(paths))
	}
	opts := map[string]ReplayOptions{
		"stats":   {},
		"analyze": DefaultReplayOptions(),
		"peaks":   {KeepRequests: true, KeepPeakSegments: true},
		"report":  {KeepRequests: true, TimelineBuckets: 100, KeepPeakSegments: true}, // never ahead
	}
	rng := rand.New(rand.NewPCG(1, 2))
	taken, fell := 0, 0
	for _, p := range paths {
		s, err := snapshot.LoadFile(p)
		if err != nil {
			continue // testdata/bad
		}
		for _, dev := range s.DeviceIDs() {
			if len(s.Trace(dev)) == 0 {
				continue
			}
			for oname, o := range opts {
				name := filepath.Base(p) + "/" + oname
				want, werr := ReplayDevice(s, dev, o)
				for _, piece := range []int{1, 1 << 12} {
					got, ok := replayFed(t, s, dev, o, rng, piece)
					if werr != nil {
						t.Fatalf("%s: %v", name, werr)
					}
					sameReplay(t, name, got, want)
					guess := want.Config == DefaultConfig() && !usesPrivatePools(s.Segments, dev) && o.TimelineBuckets == 0
					// A divergent replay may be taken too (it diverged where
					// the Ahead could see), or not (it needed what came later).
					if (ok && !guess) || (!ok && guess && want.Result.Reproduced) {
						t.Errorf("%s, pieces up to %d: ahead taken %v; default settings %v, reproduced %v",
							name, piece, ok, guess, want.Result.Reproduced)
					}
					if ok {
						taken++
					} else {
						fell++
					}
				}
			}
		}
	}
	t.Logf("%d replays taken from an Ahead, %d replayed after the load", taken, fell)
	if taken < 100 {
		t.Errorf("only %d replays taken from an Ahead", taken)
	}
}

package allocsim

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"runtime"
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
	a := ReplayAhead(context.Background(), f, o, AheadOptions{})
	for n := 0; n < len(tr); {
		n = min(n+1+rng.IntN(maxPiece), len(tr))
		f.Publish(n, s.Tags, s.Stacks)
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
		"report":  {KeepRequests: true, TimelineBuckets: 100, KeepPeakSegments: true},
		// a bucket per event: the timeline's edge cases at every request
		"timeline1": {TimelineBuckets: 1 << 24},
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
					guess := want.Config == DefaultConfig() && !usesPrivatePools(s.Segments, dev)
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

// TestAheadTuneMatchesTune runs tune's grid beside a fed replay and
// compares its rows with TuneContext's on the replay's request stream,
// on every H200 fixture, with and without a memory fraction (which adds
// the garbage-collection settings) and under a capacity small enough
// that some settings run out of memory. A grid run under other figures
// than asked is never used.
func TestAheadTuneMatchesTune(t *testing.T) {
	paths, _ := filepath.Glob(root + "/h200/*.pickle.gz")
	paths = append(paths, "../../examples/resnet50-b64-fp32.pickle.gz")
	rng := rand.New(rand.NewPCG(3, 4))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, p := range paths {
		s, err := snapshot.LoadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want := mustReplay(t, s, DefaultReplayOptions())
		peak := want.Result.Stats.ReservedBytes.All.Peak
		for k, setup := range []TuneSetup{{Capacity: 140 << 30, Total: h200Total, Fraction: 1},
			{Capacity: 140 << 30, Total: h200Total, Fraction: 0.5}, {Capacity: peak * 9 / 10, Total: h200Total, Fraction: 1}} {
			// One goroutine for the whole grid, one per setting, or between.
			runtime.GOMAXPROCS([]int{1, 16, 4}[k])
			name := filepath.Base(p)
			tr := s.Trace(0)
			f := snapshot.NewFeed(0, tr)
			a := ReplayAhead(context.Background(), f, DefaultReplayOptions(), AheadOptions{Tune: &setup})
			for n := 0; n < len(tr); {
				n = min(n+1+rng.IntN(1<<12), len(tr))
				f.Publish(n, s.Tags, s.Stacks)
			}
			f.End(s)
			o := DefaultReplayOptions()
			o.Ahead = a
			d, err := ReplayDevice(s, 0, o)
			if err != nil {
				t.Fatal(err)
			}
			sameReplay(t, name, d, want)
			if !a.taken {
				t.Fatalf("%s: the replay was not taken from the Ahead", name)
			}
			wantRows, err := Tune(d.Result.Requests, setup.Capacity, setup.Total, setup.Fraction)
			if err != nil {
				t.Fatal(err)
			}
			other := setup
			other.Capacity--
			if _, ok, _ := a.TuneRows(context.Background(), 0, other); ok {
				t.Fatalf("%s: grid run under %+v used for %+v", name, setup, other)
			}
			if _, ok, _ := a.TuneRows(context.Background(), 1, setup); ok {
				t.Fatalf("%s: device 0's grid used for device 1", name)
			}
			rows, ok, err := a.TuneRows(context.Background(), 0, setup)
			if err != nil || !ok {
				t.Fatalf("%s: grid beside the replay not used (%v)", name, err)
			}
			if !reflect.DeepEqual(rows, wantRows) {
				t.Fatalf("%s %+v: rows differ:\n got %+v\nwant %+v", name, setup, rows, wantRows)
			}
			ooms := 0
			for _, r := range rows {
				if r.OOMs > 0 {
					ooms++
				}
			}
			t.Logf("%s %+v: %d rows, %d with an OOM", name, setup, len(rows), ooms)
		}
	}
}

// TestGrowingTable: a growing table finds what was set, forgets what was
// deleted, and drops a page once its last entry is deleted (but never the
// page new IDs land on).
func TestGrowingTable(t *testing.T) {
	tab := newGrowingTable()
	const n = 3<<pageBits + 5
	blocks := make([]block, n)
	for id := range int32(n) {
		blocks[id].tag = id
		tab.set(id, &blocks[id])
	}
	for id := range int32(n) {
		if tab.get(id) != &blocks[id] {
			t.Fatalf("get(%d) is not the block set", id)
		}
	}
	for id := int32(1); id < 1<<pageBits; id++ {
		tab.del(id)
	}
	if tab.paged.pages[0] == nil || tab.get(0) != &blocks[0] || tab.get(1) != nil {
		t.Fatal("page 0 lost its live entry, or kept a deleted one")
	}
	tab.del(0)
	tab.del(0) // twice: the count must not go below the page's entries
	if tab.paged.pages[0] != nil || tab.get(0) != nil {
		t.Fatal("page 0 kept after its last entry was deleted")
	}
	for id := int32(3 << pageBits); id < n; id++ {
		tab.del(id)
	}
	if tab.paged.pages[3] == nil {
		t.Fatal("the last page, where new IDs land, was dropped")
	}
	tab.set(3<<pageBits, &blocks[3<<pageBits])
	if tab.get(3<<pageBits) != &blocks[3<<pageBits] || tab.get(1<<pageBits) != &blocks[1<<pageBits] {
		t.Fatal("entries lost")
	}
	tab.reset()
	if tab.get(1<<pageBits) != nil {
		t.Fatal("reset kept an entry")
	}
}

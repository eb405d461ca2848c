package analyze

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// TestTimelineAheadMatches analyses every snapshot under testdata/ twice:
// as the CLI does after the load, and with the replay and the timeline
// run beside a feed of the trace (published in pieces, as the loader
// does). The reports must be the same, and for every trace the Ahead
// replays exactly the timeline must be the one built beside it, equal
// field for field to buildTimeline's.
func TestTimelineAheadMatches(t *testing.T) {
	var paths []string
	for _, pat := range []string{"../../testdata/*/*.pickle.gz", "../../testdata/*/*.pickle"} {
		m, _ := filepath.Glob(pat)
		paths = append(paths, m...)
	}
	if len(paths) < 50 {
		t.Fatalf("found %d snapshots", len(paths))
	}
	ctx := context.Background()
	ahead := 0
	for _, p := range paths {
		s, err := snapshot.LoadFile(p)
		if err != nil || len(s.DeviceIDs()) == 0 {
			continue // testdata/bad
		}
		dev := s.DeviceIDs()[0]
		tr := s.Trace(dev)
		if len(tr) == 0 {
			continue
		}
		o := DefaultOptions()
		want, werr := AnalyzeContext(ctx, s, o)

		f := snapshot.NewFeed(dev, tr)
		tl := NewTimelineAhead(nil)
		a := allocsim.ReplayAhead(ctx, f, allocsim.DefaultReplayOptions(), allocsim.AheadOptions{Requests: tl.Add})
		for n := 0; n < len(tr); {
			n = min(n+1+n/3, len(tr))
			f.Publish(n, s.Tags, s.Stacks)
		}
		f.End(s)
		o.Ahead, o.Timeline = a, tl
		got, gerr := AnalyzeContext(ctx, s, o)
		if (werr == nil) != (gerr == nil) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: analyses differ (errors %v, %v)", p, werr, gerr)
		}
		if !a.RequestsFollowed(ctx, dev) {
			continue // not the replay analysed (settings, pools) or not exact
		}
		st, err := Resolve(s, dev, o.Flags())
		if err != nil {
			t.Fatal(err)
		}
		ro := st.ReplayOptions()
		rp, err := allocsim.ReplayDevice(s, dev, ro)
		if err != nil || !rp.Result.Reproduced {
			continue
		}
		built := buildTimeline(rp.Result.Requests, tr, rp.Result.AtPeakReserved, nil)
		ro.Ahead = a
		rpa, err := allocsim.ReplayDevice(s, dev, ro)
		if err != nil {
			t.Fatal(err)
		}
		fed := timelineOf(ctx, &rpa, tr, o)
		if fed != &tl.t {
			t.Fatalf("%s: the timeline built beside the replay was not used", p)
		}
		// The analysis above labelled the fed lives with phases; these
		// are as built.
		lives := append([]life(nil), fed.lives...)
		for i := range lives {
			if i < len(built.lives) {
				lives[i].phase = built.lives[i].phase
			}
		}
		if !reflect.DeepEqual(built.lives, lives) || !reflect.DeepEqual(built.lifeOf, fed.lifeOf) ||
			!reflect.DeepEqual(built.level, fed.level) || built.resPeak != fed.resPeak || built.resPeakBytes != fed.resPeakBytes {
			t.Fatalf("%s: timelines differ: lives %v lifeOf %v (%d, %d) level %v (%d, %d) peak %v %v", p, reflect.DeepEqual(built.lives, lives),
				reflect.DeepEqual(built.lifeOf, fed.lifeOf), len(built.lifeOf), len(fed.lifeOf), reflect.DeepEqual(built.level, fed.level), len(built.level), len(fed.level),
				built.resPeak == fed.resPeak, built.resPeakBytes == fed.resPeakBytes)
		}
		ahead++
	}
	t.Logf("%d timelines built beside the replay", ahead)
	if ahead < 30 {
		t.Errorf("only %d timelines built beside the replay", ahead)
	}
}

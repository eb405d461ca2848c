package analyze

import (
	"context"
	"reflect"
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// TestNoTraceSitesReproducible: the CUDA-graph snapshot whose trace cannot
// be replayed (its pool released) is explained from its segments; two of
// its sites hold the same bytes in the same number of blocks (linear.py
// from pool_probes.py lines 26 and 32). Their order came out of a map and
// an unstable sort, so two runs of analyze could print them swapped.
func TestNoTraceSitesReproducible(t *testing.T) {
	s, err := snapshot.LoadFile("../../testdata/pools/graph-release.pickle.gz")
	if err != nil {
		t.Fatal(err)
	}
	first, err := AnalyzeContext(context.Background(), s, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		again, err := AnalyzeContext(context.Background(), s, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(again.Devices[0].TopSites, first.Devices[0].TopSites) {
			t.Fatalf("run %d: top sites in another order", i+2)
		}
	}
	if ts := first.Devices[0].TopSites; len(ts) < 3 || ts[1].Bytes != ts[2].Bytes || ts[1].Frames[1].Line != 26 {
		t.Errorf("want the two tied sites in frame order (line 26 first): %+v", ts)
	}
}

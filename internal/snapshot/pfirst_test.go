package snapshot

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortedLastFetches is the plain way to build fetchTables' tables: every
// fetch as index<<32 | chunk, sorted; an index's last pair names the last
// chunk that fetches it.
func sortedLastFetches(scans []scanned) ([]uint32, []uint16) {
	var pairs []uint64
	for ci, s := range scans {
		for _, r := range s.refs {
			pairs = append(pairs, uint64(r)<<32|uint64(ci))
		}
	}
	slices.Sort(pairs)
	var refs []uint32
	var last []uint16
	for k, p := range pairs {
		if k+1 == len(pairs) || pairs[k+1]>>32 != p>>32 {
			refs = append(refs, uint32(p>>32))
			last = append(last, uint16(min(uint32(p), neverFreed)))
		}
	}
	return refs, last
}

// TestFetchTables: merged by ranges of indexes, on any number of workers,
// the tables are the sort's: indexes at the edges of fetchTables' ranges,
// indexes fetched by one chunk or many, and chunks past 65535 (whose
// entries are kept to the end).
func TestFetchTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		chunks, perChunk int
		span             uint32
	}{
		{1, 10, 100},
		{50, 200, 3 * fetchRange},
		{300, 40, 5*fetchRange + 17},
		{neverFreed + 40, 2, 2 * fetchRange},
	} {
		scans := make([]scanned, tc.chunks)
		for ci := range scans {
			set := map[uint32]bool{}
			for range rng.IntN(tc.perChunk + 1) {
				set[rng.Uint32N(tc.span)] = true
			}
			if ci%7 == 0 {
				set[0], set[fetchRange-1], set[fetchRange], set[tc.span-1] = true, true, true, true
			}
			for r := range set {
				scans[ci].refs = append(scans[ci].refs, r)
			}
			slices.Sort(scans[ci].refs)
		}
		wantRefs, wantLast := sortedLastFetches(scans)
		for _, workers := range []int{1, 3} {
			sc := slices.Clone(scans)
			refs, last, err := fetchTables(context.Background(), sc, maxFetch(sc), workers)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(refs, wantRefs) || !slices.Equal(last, wantLast) {
				t.Fatalf("%+v, %d workers: %d indexes, want %d; tables differ from the sort's", tc, workers, len(refs), len(wantRefs))
			}
			if sc[0].refs != nil {
				t.Errorf("%+v: the chunks' lists are kept", tc)
			}
		}
		if tc.chunks > neverFreed && !slices.Contains(wantLast, neverFreed) {
			t.Errorf("%+v: no index kept to the end: the case does not test the cap", tc)
		}
	}
}

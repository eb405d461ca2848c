package main

import (
	"reflect"
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestHostFlagReachesLentSets: -host without files used to leave every
// lent set on its GPU's default costs, printing the HEAD figures under a
// flag that asked for others. The lent sets take the flag's costs; the
// calibration host's and the older host's sets keep their own.
func TestHostFlagReachesLentSets(t *testing.T) {
	h, err := hostCosts(`{"cast_s": 1e-5}`)
	if err != nil {
		t.Fatal(err)
	}
	want := memmodel.DefaultHostCosts()
	want.Cast = 1e-5
	if !reflect.DeepEqual(h, want) {
		t.Fatalf("-host JSON is read over DefaultHostCosts: got %+v", h)
	}
	sets := defaultSets()
	lent, kept := 0, 0
	for i, s := range withLentHost(sets, h) {
		switch {
		case reflect.DeepEqual(sets[i].host, memmodel.HostCosts{}):
			if !reflect.DeepEqual(s.host, h) {
				t.Errorf("%s: lent set kept %+v", s.name, s.host)
			}
			lent++
		default:
			if !reflect.DeepEqual(s.host, sets[i].host) {
				t.Errorf("%s: its own host's costs were replaced", s.name)
			}
			kept++
		}
	}
	if lent < 50 || kept < 3 {
		t.Errorf("%d lent sets and %d with their own host: the defaults changed", lent, kept)
	}
}

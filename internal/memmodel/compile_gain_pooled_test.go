package memmodel

import "testing"

// TestSmallGainPooled: the count a compile note quotes for a family with
// fewer than compiledFamilyPairs pairs of its own is the families' sum,
// which compile_gain.go and README.md state (28 of 47), and no family's
// count has more slower pairs than pairs.
func TestSmallGainPooled(t *testing.T) {
	if got := smallGainPooled(); got != (SmallGainCount{Pairs: 47, Slower: 28}) {
		t.Errorf("pooled small-gain count %+v, the docs say 28 of 47", got)
	}
	for name, f := range registry.families {
		if c := f.CompiledSmallGain; c.Slower > c.Pairs || c.Slower < 0 {
			t.Errorf("%s: %+v", name, c)
		}
	}
}

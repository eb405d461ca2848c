package allocsim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestStateLog: what a logging sampler keeps comes back exactly, in
// order, across its blocks: changes of either sign, of a byte or of
// nearly 2^63 (a varint of up to ten bytes), and steps of one index or
// millions.
func TestStateLog(t *testing.T) {
	type entry struct {
		k      int
		al, rs int64
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var want []entry
	var l stateLog
	k := 0
	for i := range 3 * logBlock / 8 {
		k += 1 + rng.IntN(3)
		e := entry{k, rng.Int64N(1 << 40), rng.Int64N(1 << 44)}
		switch i % 1000 {
		case 7:
			e.al, e.rs = math.MaxInt64, 0
		case 8:
			e.al, e.rs = 0, math.MaxInt64
		case 9:
			k += 1 << 30
			e.k = k
		}
		want = append(want, e)
		l.add(e.k, e.al, e.rs)
	}
	if len(l.blocks) < 2 {
		t.Fatalf("%d blocks: the case does not cross blocks", len(l.blocks)+1)
	}
	i := 0
	l.each(func(k int, al, rs int64) {
		if i < len(want) && (entry{k, al, rs}) != want[i] {
			t.Fatalf("entry %d: got %d %d %d, want %+v", i, k, al, rs, want[i])
		}
		i++
	})
	if i != len(want) {
		t.Fatalf("%d entries back, want %d", i, len(want))
	}
}

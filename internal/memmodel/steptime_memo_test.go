package memmodel

import (
	"math"
	"math/rand"
	"sort"
	"testing"

	"github.com/vramkit/vramkit/internal/gpu"
)

// The one-pass nearest-four selection gives the interpolation a full sort
// of the calibrated points gives, on the H200's real calibration.
func TestNearestIDWMatchesSort(t *testing.T) {
	r := h200Rates(t)
	ix := r.indexGEMMs()
	pts := ix.points[gemmQuery{dtype: "bf16"}]
	if len(pts) < 8 {
		t.Fatalf("bf16 calibration has %d GEMMs", len(pts))
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 200; i++ {
		q := [3]float64{6 + 10*rng.Float64(), 6 + 8*rng.Float64(), 6 + 8*rng.Float64()}
		type cand struct{ d, v float64 }
		cs := make([]cand, len(pts))
		for j, p := range pts {
			cs[j] = cand{sq(q[0]-p.lm) + sq(q[1]-p.ln) + sq(q[2]-p.lk), p.logRate}
		}
		sort.SliceStable(cs, func(a, b int) bool { return cs[a].d < cs[b].d })
		want := idw(len(cs), func(k int) (float64, float64) { return cs[k].d, cs[k].v })
		if got := nearestIDW(pts, q[0], q[1], q[2]); math.Abs(got-want) > 1e-12 {
			t.Fatalf("query %v: one pass %v, sorted %v", q, got, want)
		}
	}
}

// Memoised convolution and BatchNorm times equal the uncached ones, also
// when a shape is asked again after others.
func TestStepTimeMemoTransparent(t *testing.T) {
	memo, plain := h200Rates(t), h200Rates(t)
	shapes := []convShape{
		{n: 64, cin: 64, cout: 64, h: 56, ho: 56, k: 3, stride: 1, groups: 1, dgrad: true, wgrad: true},
		{n: 64, cin: 256, cout: 512, h: 56, ho: 28, k: 1, stride: 2, groups: 1, dgrad: true, wgrad: true},
		{n: 32, cin: 144, cout: 144, h: 56, ho: 28, k: 3, stride: 2, groups: 144, dgrad: true, wgrad: true},
		{n: 8, cin: 3, cout: 32, h: 224, ho: 112, k: 3, stride: 2, groups: 1, wgrad: true},
	}
	for round := 0; round < 2; round++ {
		for _, c := range shapes {
			for _, dt := range []DType{BF16, F16, F32} {
				f1, b1 := memo.conv(&c, dt)
				f2, b2 := plain.convUncached(&c, dt)
				if f1 != f2 || b1 != b2 || f1 <= 0 {
					t.Fatalf("conv %+v %v: memo %v/%v, uncached %v/%v", c, dt, f1, b1, f2, b2)
				}
			}
			f1, b1 := memo.bnRates("bf16", c.cout, c.ho*c.ho, c.channelsLast)
			f2, b2 := plain.bnRatesUncached("bf16", c.cout, c.ho*c.ho, c.channelsLast)
			if f1 != f2 || b1 != b2 || f1 <= 0 {
				t.Fatalf("bn %d×%d: memo %v/%v, uncached %v/%v", c.cout, c.ho*c.ho, f1, b1, f2, b2)
			}
		}
	}
}

// h200Rates is a fresh step-time rate model of the H200 from its committed
// calibration.
func h200Rates(t *testing.T) *rates {
	t.Helper()
	g, err := gpu.Lookup("h200")
	if err != nil {
		t.Fatal(err)
	}
	r, err := newRates(g)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

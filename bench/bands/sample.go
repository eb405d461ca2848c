package main

import (
	"math"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// sample is one measured row: its classes and log errors
// x = ln(measured/predicted) of the quantity a set is about (peak
// reserved, step time or generate's peak reserved) and, for memory, of
// peak allocated (xa).
type sample struct {
	name    string
	classes []string
	// newTokens is a generate row's new tokens, seq a training row's
	// sequence length as its spec gives it (0 for other rows, or the
	// family's default)
	newTokens, seq int
	x, xa          float64
	// v is ln(variant/predicted) of a row whose reserved peak has a known
	// alternative (cuBLAS's backward workspace splitting a freed logits
	// block), 0 where there is none: its band's top is the variant's.
	v float64
	// vl is ln(release/predicted) of a DDP row whose figures keep the
	// construction-time gradient buffer (memmodel's Result.ReleaseReserved:
	// the peak had NCCL let it go at the rebuild), 0 where there is none:
	// its band's low end is the release figure's; vla likewise of peak
	// allocated.
	vl, vla float64
	// model, meas and variant are the model's peak reserved, the
	// measured one and the model's variant (0: none), in bytes; x and v
	// are of them with the allowance (calibrate); release and
	// releaseAlloc the release figures (0: none). held says the row
	// derives the allowance.
	model, meas, variant  float64
	release, releaseAlloc float64
	held                  bool
	// fixedLow says the band's low end is taken from the figure without
	// the allowance's fixed bytes (training memory, as memmodel's
	// bandsFrom does); f is ln of the figure over that one (calibrate).
	fixedLow bool
	f        float64
	// group is the capture set the row came from (setGroup): the unit
	// the bands are derived and checked by leaving out.
	group string
	// xb is the log error of peak reserved plan printed on the row at
	// first sight (firstsight.go), where blind says one is recorded; of
	// the figure with the allowance (calibrate), first the record fs.
	xb    float64
	blind bool
	fs    firstSightRow
	// gap is ln(model's peak reserved / its peak allocated): the share
	// of the predicted peak the allocator's placement makes
	gap float64
	// risk is the row's risk level when it was first seen (memmodel's
	// BandTable.Risk against the rows of the sets captured before its
	// own; markRisk): its band is that level's. A timed row's is its
	// host level (memmodel's StepHostLevel) instead.
	risk int
	// host is a timed row's memmodel.StepHostPosition, ln(predicted host
	// issue time / predicted GPU time) (step time only; −Inf without a
	// StepDetail): where its band lies between the host levels'
	host float64
}

// score is the log error the shared quantiles score s on: its first-sight
// error where one is recorded, else its error now.
func (s sample) score() float64 {
	if s.blind {
		return s.xb
	}
	return s.x
}

// calibrate sets s's log errors against the model's figure plus the
// allowance a: the figure plan prints and decides on. The variants, where
// there are, carry the same allowance on their own figures; the low end
// is the lower of the figure without the allowance's fixed bytes and the
// release figure (memmodel's bandsFrom).
func (s *sample) calibrate(a memmodel.Allowance) {
	pred := s.model + float64(a.Of(int64(s.model)))
	s.x, s.v, s.vl, s.f = math.Log(s.meas/pred), 0, 0, 0
	if s.fixedLow && a.Of(int64(s.model)) > 0 {
		s.f = math.Log(pred / (pred - float64(a.Bytes)))
	}
	if vp := s.variant + float64(a.Of(int64(s.variant))); s.variant > 0 && vp > pred {
		s.v = math.Log(vp / pred)
	}
	if rp := s.release + float64(a.Of(int64(s.release))); s.release > 0 && rp < pred {
		s.vl = math.Log(rp / pred)
		s.f = math.Max(s.f, -s.vl)
	}
	s.xb = s.fs.x
	if s.fs.bare && s.fs.pred > 0 {
		// printed without an allowance: against that figure with a
		s.xb -= math.Log((s.fs.pred + float64(a.Of(int64(s.fs.pred)))) / s.fs.pred)
	}
}

// split says whether s had the logits-split variant and whether the GPU
// took it: the measurement is nearer the variant than the point (resid).
func (s sample) split() (possible, taken bool) {
	return s.v > 0, s.v > 0 && resid(s.x, s.v, 0) != s.x
}

package memmodel

import "math"

// gemmPoint is one calibrated GEMM in interpolation coordinates: the logs
// of its m, n and k, and the log of its achieved TFLOP/s.
type gemmPoint struct {
	lm, ln, lk, logRate float64
}

// gemmQuery keys a memoised interpolation: a dtype, whether the odd-shape
// measurements are used, and the GEMM's (batch·m, n, k).
type gemmQuery struct {
	dtype   string
	odd     bool
	m, n, k int64
}

// gemmIndex holds the calibration's GEMMs grouped by (dtype, odd) with
// their logs taken once, and the interpolated log-rates already asked
// for. A step's op list prices the same few shapes thousands of times
// (every convolution of a ResNet stage, forward, backward and recompute)
// and plan --fit prices dozens of steps: interpolating each from scratch,
// with an allocation and a sort of every calibrated point per call, made
// an EfficientNet-B3 --fit take minutes.
type gemmIndex struct {
	points map[gemmQuery][]gemmPoint // keyed by dtype and odd only
	memo   map[gemmQuery]float64
	held   map[gemmQuery]float64 // gemmHeldS's seconds
}

// gemmHeldS is the seconds of a GEMM of rows×k by k×n at the rate
// gemmLogRate interpolates, held at least at the seconds of the same
// product with half the rows (and so of every halving: gemmFrom says
// why), false where the calibration has no GEMM of that dtype and
// oddness. scale divides the calibrated rate's time (the GPU's FLOP/s
// over the calibrated one's, the half-precision clock).
func (r *rates) gemmHeldS(dtype string, rows, n, k int64, odd bool, scale float64) (float64, bool) {
	rate, ok := r.gemmLogRate(dtype, rows, n, k, odd) // builds r.gemms
	if !ok {
		return 0, false
	}
	key := gemmQuery{dtype: dtype, odd: odd, m: rows, n: n, k: k}
	if t, ok := r.gemms.held[key]; ok {
		return t, true
	}
	t := 2 * float64(rows*n*k) / math.Exp(rate) / scale
	if rows > 1 {
		half, _ := r.gemmHeldS(dtype, rows/2, n, k, odd, scale)
		t = math.Max(t, half)
	}
	r.gemms.held[key] = t
	return t, true
}

// gemmLogRate is the log TFLOP/s interpolated for a GEMM of (m, n, k),
// false where the calibration has no GEMM of that dtype and oddness. It
// is the inverse-squared-distance mean of the four nearest calibrated
// shapes in log space (ties broken by calibration order). It never
// extrapolates a trend: beyond the timed shapes it returns a mean of the
// nearest measured rates (a batched float32 GEMM, wholly outside them, is
// not asked: bmmLogRate).
func (r *rates) gemmLogRate(dtype string, m, n, k int64, odd bool) (float64, bool) {
	if r.gemms == nil {
		r.gemms = r.indexGEMMs()
	}
	key := gemmQuery{dtype: dtype, odd: odd, m: m, n: n, k: k}
	if v, ok := r.gemms.memo[key]; ok {
		return v, !math.IsNaN(v)
	}
	pts := r.gemms.points[gemmQuery{dtype: dtype, odd: odd}]
	v := math.NaN()
	if len(pts) > 0 {
		v = nearestIDW(pts, lg(m), lg(n), lg(k))
	}
	r.gemms.memo[key] = v
	return v, !math.IsNaN(v)
}

// indexGEMMs groups the calibrated GEMMs that are not host-bound
// (mmHostBound).
func (r *rates) indexGEMMs() *gemmIndex {
	ix := &gemmIndex{points: map[gemmQuery][]gemmPoint{}, memo: map[gemmQuery]float64{}, held: map[gemmQuery]float64{}}
	for _, g := range r.cal.GEMM {
		if r.mmHostBound(g.Seconds) {
			continue
		}
		key := gemmQuery{dtype: g.Dtype, odd: oddShape(g.MNK)}
		tflops := 2 * float64(g.MNK[0]*g.MNK[1]*g.MNK[2]) / g.Seconds
		ix.points[key] = append(ix.points[key], gemmPoint{lg(g.MNK[0]), lg(g.MNK[1]), lg(g.MNK[2]), math.Log(tflops)})
	}
	return ix
}

// nearestIDW keeps the four points nearest to (qm, qn, qk) in one pass and
// returns idw over them.
func nearestIDW(pts []gemmPoint, qm, qn, qk float64) float64 {
	var near [4]struct{ d, v float64 }
	n := 0
	for _, p := range pts {
		d := sq(qm-p.lm) + sq(qn-p.ln) + sq(qk-p.lk)
		if n == len(near) && d >= near[n-1].d {
			continue
		}
		i := min(n, len(near)-1)
		for i > 0 && d < near[i-1].d {
			near[i] = near[i-1]
			i--
		}
		near[i] = struct{ d, v float64 }{d, p.logRate}
		if n < len(near) {
			n++
		}
	}
	return idw(n, func(i int) (float64, float64) { return near[i].d, near[i].v })
}

// convKey keys a memoised convolution time.
type convKey struct {
	shape convShape
	dt    DType
}

// conv is the forward and backward time of convolution c computing in dt
// (see convUncached), memoised: a network repeats a few shapes in every
// block and the interpolation walks every calibrated convolution.
func (r *rates) conv(c *convShape, dt DType) (fwd, bwd float64) {
	if r.convs == nil {
		r.convs = map[convKey][2]float64{}
	}
	key := convKey{*c, dt}
	if t, ok := r.convs[key]; ok {
		return t[0], t[1]
	}
	fwd, bwd = r.convUncached(c, dt)
	r.convs[key] = [2]float64{fwd, bwd}
	return fwd, bwd
}

// bnKey keys memoised BatchNorm rates.
type bnKey struct {
	dtype    string
	c, plane int64
	nhwc     bool
}

// bnRates is bnRatesUncached, memoised: every BatchNorm of a stage has
// the same shape, and each interpolation fits a least-squares trend to
// the calibrated norms.
func (r *rates) bnRates(ndt string, c, plane int64, nhwc bool) (f, b float64) {
	if r.bns == nil {
		r.bns = map[bnKey][2]float64{}
	}
	key := bnKey{ndt, c, plane, nhwc}
	if t, ok := r.bns[key]; ok {
		return t[0], t[1]
	}
	f, b = r.bnRatesUncached(ndt, c, plane, nhwc)
	r.bns[key] = [2]float64{f, b}
	return f, b
}

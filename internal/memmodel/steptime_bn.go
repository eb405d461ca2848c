package memmodel

import (
	"math"
	"sort"
)

// batchNorm is training BatchNorm op o's forward and backward time from
// the calibrated BatchNorms of its dtype (gt_calib.py --norm, ResNet-50's
// shapes at batch 256). Bytes are the input's and output's, as the
// calibration counts. PyTorch runs bfloat16 BatchNorm in ATen's own
// kernels and float32 and float16 in cuDNN's (_select_batch_norm_backend); both split
// the work by channel (ATen's per-channel blocks, cuDNN's "1C11"
// statistics kernels), so in both the bytes move at a rate that depends
// on the channels and on the plane H·W, not on the batch:
//
//   - the statistics and backward kernels launch one block per channel,
//     so channels set how much of the GPU works;
//   - each block walks its channel's N planes of H·W contiguous elements,
//     so H·W is the length of the coalesced runs, and N only how many
//     runs a block walks: the time grows with N at a fixed rate per byte.
//
// A batch-64 ResNet therefore takes the batch-256 calibration's rate of
// the same channels and plane, a quarter of its time (ResNet-101 b64
// bf16's profile: 7.9 ms forward and 11.1 ms backward over its 104
// BatchNorms; the rate looked up by channels and bytes, as before, put
// the batch-256 shapes of four times the plane there: 10.1 and 11.3).
//
// Between and beyond the calibrated shapes the logarithm of the rate
// follows a bilinear trend in log channels and log plane, least squares
// over the dtype's calibration, plus the inverse-distance mean of the
// nearest calibrated shapes' residuals, so that a calibrated shape gets
// its measured time. Left out one at a time, the trend predicts the
// calibration's shapes better than the four nearest shapes' mean in five
// of six tables (log rate, forward and backward: bf16 0.15 and 0.21
// against 0.31 and 0.33; fp32 0.09 and 0.14 against 0.16 and 0.32; fp16
// 0.36 and 0.14 against 0.30 and 0.34). Above all it extrapolates:
// EfficientNet-B0's 16–96-channel maps of 112² and 56² pixels lie below
// every calibrated channel count, and the trend gives them the fewer
// blocks' lower rate, where the nearest shapes' mean hands them the
// 64-channel rate. Its profiles: at batch 256 bf16, 23.4 ms forward and
// 39.0 backward (this model 24.2 and 39.2, the nearest shapes' mean 17.2
// and 26.6); at batch 64 fp32 (cuDNN), 4.0 and 8.3 (this model 3.1 and
// 8.0, the nearest shapes' mean 2.7 and 5.8).
func (r *rates) batchNorm(o *op, g *Graph, dt DType) (fwd, bwd float64) {
	x, c := &g.tensors[o.in[0]], g.tensors[o.in[1]].numel
	bytes := 2 * float64(x.bytes())
	plane := o.plane
	if plane <= 0 {
		plane = x.numel / max(c, 1) // a batch of one
	}
	f, b := r.bnRates(normDtype(dt), c, plane, o.nhwc)
	return gpuFloor + r.memS(bytes/f, bytes), gpuFloor + r.memS(bytes/b, bytes)
}

// bnRatesUncached is the forward and backward rates (bytes per second)
// of a BatchNorm of c channels and plane elements per channel and image
// in calibration dtype ndt, interpolated from the calibrated norms of
// the input's layout (nhwc: channels-last), or of the other layout where
// the table has none of it.
func (r *rates) bnRatesUncached(ndt string, c, plane int64, nhwc bool) (f, b float64) {
	layout := nhwc
	if !r.hasNormLayout(ndt, nhwc) {
		layout = !nhwc
	}
	kernels := r.hasNormKernels(ndt, layout)
	var pts, bwd []bnPoint
	for _, v := range r.cal.Norm {
		if v.Dtype != ndt || v.ChannelsLast != layout || r.hostBound(v.FwdS) {
			continue
		}
		if kernels && !v.Kernels && v.FwdS < clNormBwdHost {
			continue // a small eager row is Python's: the kernels price it
		}
		p := bnPoint{c: lg(v.C), hw: lg(v.H * v.H),
			f: math.Log(v.Bytes / v.FwdS), b: math.Log(v.Bytes / (v.FwdBwdS - v.FwdS))}
		pts = append(pts, p)
		if !v.ChannelsLast || v.Kernels || v.FwdS >= clNormBwdHost {
			bwd = append(bwd, p)
		}
	}
	if len(bwd) == 0 {
		bwd = pts // a table of small channels-last rows only: theirs, Python's or not
	}
	f = math.Exp(bnRate(pts, lg(c), lg(plane), func(p bnPoint) float64 { return p.f }))
	b = math.Exp(bnRate(bwd, lg(c), lg(plane), func(p bnPoint) float64 { return p.b }))
	return f, b
}

// hasNormKernels reports whether the calibration has kernel-timed
// BatchNorm rows (read off profiled steps) of calibration dtype ndt and the
// layout; the eager rows of small shapes, whose timing is the host's
// (clNormBwdHost), then give way to them, and the large ones stay: the
// profiled networks' shapes (EfficientNet's float32 16–1152 channels) are
// not every network's (ResNet-50 b64 fp32 channels-last went +9.0% ->
// +12.5% on EfficientNet-B0's float32 kernel rows alone).
func (r *rates) hasNormKernels(ndt string, nhwc bool) bool {
	for _, v := range r.cal.Norm {
		if v.Kernels && v.Dtype == ndt && v.ChannelsLast == nhwc {
			return true
		}
	}
	return false
}

// clNormBwdHost is the forward time below which a channels-last
// BatchNorm's calibrated backward is the host's, not its kernels': the
// calibration times backward as torch.autograd.grad from Python, 150–340
// µs whatever the shape, where the channels-last kernels take 20–60 µs
// (testdata/dev35 against dev33's profile of ResNet-50 b128 bf16
// channels-last: 256 channels of 14² backward 340 µs eager at batch 256,
// 29 µs of kernels at batch 128; 512 of 7², 217 against 20). Such rows
// price the forward only. NCHW rows keep theirs: cuDNN's NCHW backward
// runs 1.5–2.6× its forward on the GPU, so a slow one is no sign of the
// host.
const clNormBwdHost = 100e-6

// bnPoint is a calibrated BatchNorm: log2 channels and plane, log bytes
// per second forward and backward.
type bnPoint struct{ c, hw, f, b float64 }

// bnRate is the log rate at (c, hw) (log2 channels and plane) from the
// points' values v: the bilinear least-squares trend a + b·c + d·hw +
// e·c·hw plus the inverse-distance mean of the nearest points' residuals;
// the nearest points' mean alone where there are too few to fit.
func bnRate(pts []bnPoint, c, hw float64, v func(bnPoint) float64) float64 {
	feat := func(c, hw float64) [4]float64 { return [4]float64{1, c, hw, c * hw} }
	trend := func(float64, float64) float64 { return 0 }
	if coef, ok := fitBilinear(pts, v, feat); ok {
		trend = func(c, hw float64) float64 {
			x := feat(c, hw)
			return coef[0]*x[0] + coef[1]*x[1] + coef[2]*x[2] + coef[3]*x[3]
		}
	}
	type cand struct{ d, res float64 }
	cs := make([]cand, 0, len(pts))
	for _, p := range pts {
		cs = append(cs, cand{sq(c-p.c) + sq(hw-p.hw), v(p) - trend(p.c, p.hw)})
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	return trend(c, hw) + idw(len(cs), func(i int) (float64, float64) { return cs[i].d, cs[i].res })
}

// fitBilinear is the least-squares coefficients of v over the points'
// features; ok is false with fewer than six points or a singular system.
func fitBilinear(pts []bnPoint, v func(bnPoint) float64, feat func(c, hw float64) [4]float64) ([4]float64, bool) {
	var m [4][4]float64
	var rhs [4]float64
	if len(pts) < 6 {
		return rhs, false
	}
	for _, p := range pts {
		x := feat(p.c, p.hw)
		for i := range x {
			for j := range x {
				m[i][j] += x[i] * x[j]
			}
			rhs[i] += x[i] * v(p)
		}
	}
	x, ok := solveLinear([][]float64{m[0][:], m[1][:], m[2][:], m[3][:]}, rhs[:])
	var c [4]float64
	copy(c[:], x)
	return c, ok
}

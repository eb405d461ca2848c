package memmodel

import (
	"math"

	"github.com/vramkit/vramkit/internal/gpu"
)

// Bias gradients and activations, priced from their own kernels
// (testdata/dev56, gt_calib.py --reduce-act, session 27).
//
// A bias gradient is the output gradient summed down to the bias: a
// Linear's over its rows (autograd's sum_to_size of an M×C tensor), a
// convolution's over batch and plane. ATen runs both as reduce_kernel,
// whose rate depends on the width: a bf16 M×C column sum of 64 MB moves
// 0.44 TB/s at C=128, 1.4 at 768, 2.5 at 8,192, against the 4 TB/s of a
// full reduction, which priced them until session 27. ConvNeXt-T b128
// bf16's profile (testdata/dev15) spends 3.33 ms in its 58 bias-gradient
// sums, 0.76 ms priced at the full reduction's rate, 3.1 ms from dev56's
// rows. Half-precision GELU computes in float32: 3.07 TB/s forward and
// 3.44 backward in bf16 (tanh approximation 3.59 and 4.05), where it was
// priced as a multiply (4.23); float32 runs at the multiply's rate.

// colSum is the GPU time of summing a rows×cols row-major tensor of dt
// over its rows, from the calibrated widths nearest cols (log scale):
// each width's two sizes give a fixed time and a rate, t = t0 + bytes/bw,
// extrapolated to bytes. ok false without calibrated rows.
func (r *rates) colSum(dt DType, rows, cols int64) (float64, bool) {
	d := calDtype(dt, false)
	var best []gpu.ReduceRate
	var bestC int64
	bestD := math.Inf(1)
	by := map[int64][]gpu.ReduceRate{}
	for _, v := range r.cal.Reduce {
		if v.Op == "colsum" && v.Dtype == d {
			by[v.Cols] = append(by[v.Cols], v)
		}
	}
	for c, vs := range by {
		dd := math.Abs(math.Log(float64(c) / float64(cols)))
		if len(vs) >= 2 && (dd < bestD || dd == bestD && c < bestC) {
			best, bestD, bestC = vs, dd, c
		}
	}
	if best == nil {
		return 0, false
	}
	lo, hi := best[0], best[0]
	for _, v := range best {
		if v.Bytes < lo.Bytes {
			lo = v
		}
		if v.Bytes > hi.Bytes {
			hi = v
		}
	}
	bytes := float64(rows*cols) * float64(dt.Size())
	per := (hi.Seconds - lo.Seconds) / (hi.Bytes - lo.Bytes)
	if per <= 0 {
		return r.memS(hi.Seconds*bytes/hi.Bytes, bytes), true
	}
	t0 := math.Max(lo.Seconds-per*lo.Bytes, 0)
	return r.memS(t0+per*bytes, bytes), true
}

// convBiasSum is the GPU time of a convolution's bias gradient, the
// n×cols×plane output gradient of dt summed over batch and plane
// (gpu.ConvBiasSeconds), scaled by bandwidth. ok false without
// calibrated rows.
func (r *rates) convBiasSum(dt DType, channelsLast bool, n, cols, plane int64) (float64, bool) {
	t, ok := gpu.ConvBiasSeconds(r.cal.Reduce, calDtype(dt, false), channelsLast, n, cols, plane)
	return r.memS(t, float64(n*cols*plane)*float64(dt.Size())), ok
}

// activationBackward is the calibrated stream class of an activation's
// gradient kernel ("" where it moves bytes like its forward's class).
func activationBackward(kind string) string {
	switch kind {
	case "gelu", "gelu_tanh":
		return kind + "_backward"
	}
	return ""
}

package memmodel

import (
	"math"
	"sort"

	"github.com/vramkit/vramkit/internal/gpu"
)

// Memory-bound kernels (bytes over the measured bandwidth of their kind)
// and the optimizer step, fitted from the calibration's optimizer rows.

// streamOp is the calibrated memory-bound op an op kind moves bytes like.
func streamOp(kind string, inputs int) string {
	switch kind {
	case "layer_norm", "batch_norm", "group_norm", "softmax", "log_softmax":
		// a row-wise reduction then an elementwise pass: GroupNorm's
		// rows are a group's channels of one image (ATen's row-wise
		// moments, then the fused normalisation), not an elementwise op
		// of three inputs
		return "layer_norm"
	case "mean", "sum", "nll_loss", "adaptive_avg_pool2d":
		return "sum"
	case "to", "copy", "cat":
		return "copy"
	case "gelu", "gelu_tanh":
		// half-precision GELU computes in float32: its own rows
		// (steptime_reduce.go)
		return kind
	}
	if inputs > 1 {
		return "add"
	}
	return "mul_"
}

// stream is the GPU time of a memory-bound kernel moving bytes: the
// floor plus the bytes at the bandwidth its op class reached in dtype dt
// on the largest calibrated size that was not host-bound. Bytes of
// different dtypes do not move at one rate when the kernel converts them:
// a bf16 GELU or normalisation computes in float32 and reached 25–30% less
// per byte than float32's, an add or a copy the same. Ops of a class the
// table lacks move bytes like a copy.
func (r *rates) stream(op string, dt DType, bytes float64) float64 {
	bw := r.bandwidth(op, dt)
	if bw == 0 {
		if bw = r.bandwidth("copy", dt); bw == 0 {
			return 0
		}
	}
	return gpuFloor + r.memS(bytes/bw, bytes)
}

// bandwidth is the bytes per second of the op class's largest
// calibrated, not host-bound, size in dt's calibration dtype (the other
// dtype's when dt's was not timed); 0 when there is none.
func (r *rates) bandwidth(op string, dt DType) float64 {
	order := []string{"fp32", "bf16"}
	if dt == F16 || dt == BF16 {
		order = []string{"bf16", "fp32"}
	}
	for _, d := range order {
		var best gpu.StreamRate
		for _, p := range r.curves[op+"/"+d] {
			if !r.hostBound(p.Seconds) && p.Bytes > best.Bytes {
				best = p
			}
		}
		if best.Bytes > 0 {
			return best.Bytes / best.Seconds
		}
	}
	return 0
}

// optimizer splits one optimizer.step() over params float32 parameters
// in tensors tensors into the GPU's part and the host's, from the
// calibrated steps of the same optimizer and implementation (timed from
// the host, issue and kernels together): seconds = c + a·params +
// b·tensors. The per-parameter term a is the kernels' memory traffic
// (scaled by bandwidth to other GPUs); the fixed and per-tensor terms are
// Python (_init_group's loop over parameters, the per-tensor bias
// corrections, the foreach calls' argument lists), returned in units of
// the calibration's own per-op issue time (EnqueueS) so that a caller can
// convert them to its host. ok is false when the optimizer was not
// calibrated.
//
// a is the difference quotient between the two largest steps of each
// tensor count (optimizerSlope), c and b a least-squares fit of what is
// left. A least-squares fit of all three terms at once (the model before
// round 18) let the small steps, whose kernels hide behind the host's
// Python, pull a down: foreach AdamW's 1.97 ms per 10⁸ parameters against
// 2.12–2.22 between its 10⁸ and 4·10⁸ steps, and the kernel profiles of
// testdata/profile (LLaMA-small, Gemma, Granite, ViT-B/16, T5, Whisper)
// read its kernels 7–11% longer than that fit.
func (r *rates) optimizer(name, impl string, params, tensors float64) (gpuS, hostOps float64, ok bool) {
	var rows []gpu.OptimizerRate
	for _, o := range r.cal.Optim {
		if o.Optimizer == name && o.Impl == impl {
			rows = append(rows, o)
		}
	}
	a, ok := optimizerSlope(rows)
	if !ok || r.cal.EnqueueS <= 0 {
		return 0, 0, false
	}
	var m [2][2]float64
	var v [2]float64
	for _, o := range rows {
		x := [2]float64{1, float64(o.Tensors) / 100}
		for i := range x {
			for j := range x {
				m[i][j] += x[i] * x[j]
			}
			v[i] += x[i] * (o.Seconds - a*float64(o.Params))
		}
	}
	c, ok := solveLinear([][]float64{m[0][:], m[1][:]}, v[:])
	if !ok {
		return 0, 0, false
	}
	gpuS = a * params / r.bwScale
	hostOps = (max(c[0], 0) + max(c[1], 0)*tensors/100) / r.cal.EnqueueS
	return gpuS, hostOps, true
}

// optimizerSlope is the seconds per parameter of an optimizer's kernels:
// for each tensor count with steps of at least two sizes, the difference
// quotient between its two largest (the host's Python is the same for
// both, the kernels the largest part of both), averaged over the tensor
// counts. ok is false without such a pair or when a quotient is not
// positive.
func optimizerSlope(rows []gpu.OptimizerRate) (float64, bool) {
	byTensors := map[int64][]gpu.OptimizerRate{}
	for _, o := range rows {
		byTensors[o.Tensors] = append(byTensors[o.Tensors], o)
	}
	var sum float64
	n := 0
	for _, g := range byTensors {
		if len(g) < 2 {
			continue
		}
		sort.Slice(g, func(i, j int) bool { return g[i].Params > g[j].Params })
		dp := float64(g[0].Params - g[1].Params)
		if dp <= 0 {
			continue
		}
		q := (g[0].Seconds - g[1].Seconds) / dp
		if q <= 0 {
			return 0, false
		}
		sum += q
		n++
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// solveLinear solves the n×n system m·x = v (m's rows, v of length n) by
// Gaussian elimination with partial pivoting, in place; ok is false when m
// is singular. The step-time fits' normal equations use it.
func solveLinear(m [][]float64, v []float64) (x []float64, ok bool) {
	n := len(v)
	x = make([]float64, n)
	for i := 0; i < n; i++ {
		p := i
		for j := i + 1; j < n; j++ {
			if math.Abs(m[j][i]) > math.Abs(m[p][i]) {
				p = j
			}
		}
		if math.Abs(m[p][i]) < 1e-12 {
			return x, false
		}
		m[i], m[p] = m[p], m[i]
		v[i], v[p] = v[p], v[i]
		for j := i + 1; j < n; j++ {
			f := m[j][i] / m[i][i]
			for k := i; k < n; k++ {
				m[j][k] -= f * m[i][k]
			}
			v[j] -= f * v[i]
		}
	}
	for i := n - 1; i >= 0; i-- {
		s := v[i]
		for k := i + 1; k < n; k++ {
			s -= m[i][k] * x[k]
		}
		x[i] = s / m[i][i]
	}
	return x, true
}

func lg(x int64) float64 { return math.Log2(float64(max(x, 1))) }

func sq(x float64) float64 { return x * x }

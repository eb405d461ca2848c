package memmodel

import (
	"math"
	"sort"

	"github.com/vramkit/vramkit/internal/gpu"
)

// Fused attention's time: the calibrated rates of the backend torch runs
// (cuDNN by default on the H200 in half precision), read off the
// calibration harness's times (see sdpa).

// sdpa is the forward and backward time of one fused attention call,
// from the calibrated rates (FLOP/s) of the backend's nearest shapes in
// log batch·heads, sequence and head dim. The calibration timed bf16 and
// fp16; float32 inputs run the memory-efficient kernel, whose CUTLASS
// tiles use TF32 tensor cores on Ampere and later, and take longer by the
// TF32/bf16 GEMM ratio of the same score matrix.
//
// Two things of the calibration harness are not the kernels' time. It
// calls fwd().backward(g) on leaf q, k, v: every backward but the first
// accumulates into their .grad, three adds a training step does not run
// (the default rows' kernels list them), taken off at the calibrated add
// bandwidth. And it times calls back to back, so where the kernels are
// short it measures the host's cost of one call: the backward's floor
// (autograd engine, cuDNN's graph lookup) is 160-200 µs over shapes whose
// FLOPs differ tenfold. A row whose backward is no longer than twice the
// backend's smallest (the margin of hostBound) takes its own forward
// times the backward/forward ratio of the rows the GPU bound (2.6-3.5 on
// the H200); the forward's floor (33-48 µs) lies near the kernels' time
// at the small shapes (DiT-XL/2's 32×16×256×72: 44 µs timed, 42 µs per
// call profiled), so forward rows are taken as timed.
func (r *rates) sdpa(a *attnCost, dt DType) (fwd, bwd float64) {
	variant := a.masked || (a.eager && (a.dropout > 0 || a.bias != ""))
	switch {
	case variant && !a.forced && dt != F32:
		if f, b, ok := r.sdpaVariant(a, dt); ok {
			return f, b
		}
	case variant && a.eager && a.backend == "efficient" && dt != F32:
		base := *a
		base.eager = false
		ef, eb := r.sdpaEfficientExtra(a)
		f, b := r.sdpa(&base, dt)
		return f + ef, b + eb
	}
	q := sdpaPoint(a)
	be, rowDT := r.sdpaRows(a.backend, dt)
	var rows []gpu.SDPARate
	var bwdS []float64
	floorB := math.Inf(1)
	for _, s := range r.cal.SDPA {
		if s.Backend == be && s.Dtype == rowDT && !s.Kernels && s.Mask == "" {
			b := r.sdpaBackwardS(s)
			rows, bwdS = append(rows, s), append(bwdS, b)
			floorB = math.Min(floorB, b)
		}
	}
	// the backward/forward ratio of the rows whose backward the GPU bound
	var lr, n float64
	for i, s := range rows {
		if bwdS[i] > 2*floorB {
			lr, n = lr+math.Log(bwdS[i]/s.FwdS), n+1
		}
	}
	type cand struct{ d, f, b float64 }
	var cs []cand
	for i, s := range rows {
		if s.Causal != a.causal {
			continue
		}
		b := bwdS[i]
		if b <= 2*floorB && n > 0 {
			b = s.FwdS * math.Exp(lr/n)
		}
		d := sdpaDist(q, s.BHSD)
		fl := sdpaWork(be, s.BHSD[0]*s.BHSD[1], s.BHSD[2], s.BHSD[2], s.BHSD[3], s.Causal)
		cs = append(cs, cand{d, math.Log(fl / s.FwdS), math.Log(2.5 * fl / b)})
	}
	if len(cs) == 0 {
		return 0, 0
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	rf := math.Exp(idw(len(cs), func(i int) (float64, float64) { return cs[i].d, cs[i].f }))
	rb := math.Exp(idw(len(cs), func(i int) (float64, float64) { return cs[i].d, cs[i].b }))
	fl := sdpaWork(be, a.batch*a.heads, a.sq, a.sk, a.hd, a.causal)
	fwd, bwd = fl/rf/r.flopScale["bf16"], 2.5*fl/rb/r.flopScale["bf16"]
	if dt == F32 {
		slow := fastF32MMAs * r.flopScale["bf16"] / r.flopScale["tf32"]
		fwd, bwd = fwd*slow, bwd*slow
	}
	return fwd, bwd
}

// fastF32MMAs is how much longer the memory-efficient kernel's float32
// build runs than its half-precision build of the same tiles: its CUTLASS
// GEMMs take OpMultiplyAddFastF32 on sm80 and later (3xTF32: each operand
// split into a TF32 high and low part, and big·big + big·small +
// small·big accumulated), three tensor-core products for one plus the
// split itself, scaled by the GPU's TF32/bf16 rates where the calibrated
// GPU is not the one priced. Two H200 profiles of float32 steps time the
// fmha_cutlass*_f32 kernels against the bf16 calibration priced on the
// padded head dim (sdpaWork): Whisper (f) b32 (testdata/dev12, 64-wide
// heads, 1,500 tokens) at 3.69 times, SD 1.5 UNet b4 (testdata/dev15,
// 40-, 80- and 160-wide heads, 4,096 to 256 tokens) at 3.78. Until round
// 25 the factor was the bare 3 and the work the exact FLOPs: the bf16
// rows of 40-wide heads, slow on exact FLOPs, pulled the interpolated
// rate of Whisper's 64-wide calls down by the missing ~20%, and SD 1.5's
// 40-wide calls were priced at the rate of 64-wide ones (46.8 ms of
// attention a step against 84.8 profiled). Until round 19 it was the
// calibrated TF32/bf16 ratio of a batched GEMM of the score shape.
const fastF32MMAs = 3.7

// sdpaBackwardS is a calibration row's backward time: forward+backward
// less the forward and less the harness's three .grad accumulations
// (each reads two q-sized tensors and writes one).
func (r *rates) sdpaBackwardS(s gpu.SDPARate) float64 {
	dt := BF16
	if s.Dtype == "fp16" {
		dt = F16
	}
	b := s.FwdBwdS - s.FwdS
	if bw := r.bandwidth("add", dt); bw > 0 { // the calibrated GPU's own bandwidth
		qBytes := float64(s.BHSD[0] * s.BHSD[1] * s.BHSD[2] * s.BHSD[3] * dt.Size())
		b -= 3 * (gpuFloor + 3*qBytes/bw)
	}
	return math.Max(b, 0.5*(s.FwdBwdS-s.FwdS))
}

// sdpaRows is the calibration rows that price a fused attention call:
// the backend's rows in the call's half dtype where the calibration timed
// it (cuDNN's fp16 and bf16 kernels differ by a few percent, its backward
// helpers by more on some shapes), bf16 otherwise (float32 is priced from
// bf16 by the caller); a calibration without cuDNN rows prices the default
// choice as flash, the backend it timed.
func (r *rates) sdpaRows(backend string, dt DType) (be, dtype string) {
	has := func(be, dtype string) bool {
		for _, s := range r.cal.SDPA {
			if s.Backend == be && s.Dtype == dtype {
				return true
			}
		}
		return false
	}
	be, dtype = backend, "bf16"
	if dt == F16 && has(be, "fp16") {
		dtype = "fp16"
	}
	if !has(be, dtype) && be == "cudnn" {
		be = "flash"
	}
	return be, dtype
}

// sdpaWork is the FLOPs a backend's kernels execute for one call, the
// measure its calibrated rates are taken in. cuDNN's sm90 kernels work in
// whole tiles: the profiles' and the calibration's kernel names read
// fprop 64×128×D and bprop 64×64×D with D the head dim rounded up to 64
// (…_64x128x64 for head dim 40 and 64, x128 for 72, 80 and 128, x192
// for 160), queries in blocks of 64 and keys of 128; a causal call
// computes every tile that reaches the diagonal whole. Priced on the
// padded work, DiT's 72-wide heads and ViT's 197 tokens run at the rates
// of the calibrated aligned shapes. The memory-efficient kernels are
// built for a largest head dim, kMaxK (their names: …_k64, …_k128 and
// …_k65536 in the backward, …_64x64_rf, …_64x128_rf and …_32x128_gmem in
// the forward), and compute whole kMaxK-wide rows: see effHeadDim. The
// other backends take the exact FLOPs.
func sdpaWork(backend string, bh, sq, sk, hd int64, causal bool) float64 {
	if backend == "efficient" {
		return attnFlops(bh, sq, sk, effHeadDim(hd), causal)
	}
	if backend != "cudnn" {
		return attnFlops(bh, sq, sk, hd, causal)
	}
	const bq, bk = 64, 128
	mq, nk, d := (sq+bq-1)/bq, (sk+bk-1)/bk, (hd+63)/64*64
	tiles := mq * nk
	if causal {
		tiles = 0
		for i := int64(0); i < mq; i++ {
			tiles += min(nk, ((i+1)*bq-1)/bk+1)
		}
	}
	return 4 * float64(bh*tiles*bq*bk*d)
}

func attnFlops(bh, sq, sk, hd int64, causal bool) float64 {
	f := 4 * float64(bh*sq*sk*hd)
	if causal {
		f /= 2
	}
	return f
}

// effHeadDim is the head dim the memory-efficient kernel computes for
// head dim hd: its register-file builds hold a kMaxK of 64 or 128 and
// multiply whole kMaxK-wide tiles, so SD 1.5's 40-wide heads run the k64
// kernels at 64 and its 80-wide ones the k128 kernels at 128; wider heads
// take the global-memory build, which walks the head dim in 64-wide
// steps (taken here as a whole number of them). The bf16 calibration rows
// of 40-, 80- and 64-wide heads, priced on the exact FLOPs, ran at 81,
// 106 and 113-172 TFLOP/s: nearest-shape interpolation between them in
// log head dim gave SD 1.5's 40-wide calls a rate the kernel does not
// reach. The H200 profile of its fp32 step (testdata/dev15) times the k64
// calls at 21 TFLOP/s on the exact FLOPs, 33 on the padded ones: the
// rate of Whisper's 64-wide calls (testdata/dev12).
func effHeadDim(hd int64) int64 {
	switch {
	case hd <= 64:
		return 64
	case hd <= 128:
		return 128
	}
	return (hd + 63) / 64 * 64
}

// sdpaPoint is an attention call's place among the calibrated shapes: log
// batch·heads, sequence and head dim.
func sdpaPoint(a *attnCost) [3]float64 {
	return [3]float64{lg(a.batch * a.heads), lg(a.sq), lg(a.hd)}
}

// sdpaDist is the squared distance from point q to calibrated shape bhsd.
func sdpaDist(q [3]float64, bhsd [4]int64) float64 {
	return sq(q[0]-lg(bhsd[0]*bhsd[1])) + sq(q[1]-lg(bhsd[2])) + sq(q[2]-lg(bhsd[3]))
}

package memmodel

// Elementwise kernels whose operands differ in shape or dtype do not move
// bytes at the contiguous rate the "add" and "mul_" calibrations measured
// (4.2–4.4 TB/s on the H200). TensorIterator vectorises only when every
// operand is contiguous and of one dtype; otherwise ATen runs its generic
// elementwise_kernel<128, …> with an offset calculator per operand and a
// conversion per load. The broadcast calibration (gt_calib.py --broadcast,
// testdata/dev7/calibration, alone on the GPU, largest sizes) measured,
// bytes counting each operand once:
//
//	kernel                                   bf16 GB/s   fp32 GB/s
//	x[T,H] · w[H]       (row broadcast)      2,650–2,750  2,620–2,750
//	x[T,H] · r[T,1]     (column broadcast)   1,620–1,690  2,730–2,820
//	q[B,h,S,d] · cos[S,d] (over heads)       1,630–1,690  2,770–2,790
//	x_bf16 · w_fp32     (mixed dtypes)       1,450–1,480  —
//	x.float()           (bf16 → fp32 cast)   2,070–2,140  —
//
// Those are the kernels of RMSNorm under autocast (x.float(), x·rsqrt,
// w·x.to(bf16)), rotary embeddings (q·cos, rotate_half(q)·sin), layer
// scale, stochastic depth and DiT's modulation. The LLaMA-small bf16
// profile shows 8.1 ms of them, which the contiguous rate priced at about
// half; Phi-3's profile 1.8 ms of float32 broadcast muls alone
// (elementwise_kernel<128, 2, … MulFunctor<float>>, 124 kernels).

// broadcastOp is the calibrated kernel class an elementwise op runs as
// when its operands differ in dtype or in size ("" when they do not, or
// when the op is not a plain elementwise one). Only a broadcast was
// calibrated: with mixed dtypes it takes mixed_mul (the same-shape mixed
// adds of a float32 residual stream under autocast are not broadcasts:
// steptime_mixedadd.go prices them, at 1.7× the contiguous rate where
// GPT-2's timings had been 20–27% over at mixed_mul's); otherwise a broadcast operand that is a parameter (a norm's weight,
// layer scale: a trailing-dimension vector) mul_rowbcast; any other
// broadcast operand (a row statistic, a rotary table over heads, a
// per-sample noise or modulation) mul_colbcast. An up-cast from half
// precision to float32 takes to_fp32.
func broadcastOp(o *op, g *Graph) string {
	if o.kind == "to" {
		if len(o.in) == 1 && len(o.out) == 1 && (g.tensors[o.in[0]].dt == BF16 || g.tensors[o.in[0]].dt == F16) && g.tensors[o.out[0]].dt == F32 {
			return "to_fp32"
		}
		return ""
	}
	if len(o.in) != 2 || len(o.out) != 1 || o.matmul || o.gemm != nil || o.attn != nil || o.conv != nil {
		return ""
	}
	switch o.kind {
	case "mul", "add", "sub", "div":
	default:
		return ""
	}
	a, b := &g.tensors[o.in[0]], &g.tensors[o.in[1]]
	if a.numel == b.numel {
		if permutedMixed(o, a, b) {
			return "mixed_mul"
		}
		return "" // same shape: the contiguous rates, mixed dtypes or not
	}
	small := a
	if b.numel < a.numel {
		small = b
	}
	if small.numel <= 1 {
		return "" // a scalar tensor: TensorIterator keeps the fast path
	}
	if a.dt != b.dt && a.dt.floating() && b.dt.floating() {
		return "mixed_mul"
	}
	if small.param >= 0 {
		return "mul_rowbcast"
	}
	return "mul_colbcast"
}

// elementwise is the GPU time of the memory-bound op o moving bytes in
// dt: at its broadcast class's calibrated rate where it has one (see
// broadcastOp) and that class was calibrated, else at the contiguous rate
// of its stream class.
func (r *rates) elementwise(o *op, g *Graph, dt DType, bytes float64) float64 {
	if c := broadcastOp(o, g); c != "" && r.bandwidth(c, dt) > 0 {
		if o.permuted {
			dt = halfOperand(o, g, dt)
		}
		return r.stream(c, dt, bytes)
	}
	return r.stream(streamOp(o.kind, len(o.in)), dt, bytes) * normSlowdown(o.kind, dt)
}

// backwardElementwise is the GPU time of an elementwise op's gradient
// kernels moving bytes: a broadcast or mixed-dtype op's gradients are
// broadcast and mixed too (grad·other at the output's shape, then a sum
// down to the small operand), at the same class's rate. A cast's
// gradient is the opposite cast, whose down-conversion the broadcast
// calibration did not time: it keeps the copy rate; so does a permuted
// op's (permutedMixed).
func (tm *timeModel) backwardElementwise(o *op, g *Graph, dt DType, bytes float64) float64 {
	if o.kind == "to" || o.permuted {
		return tm.r.stream(streamOp(o.kind, len(o.in)), dt, bytes)
	}
	if k := activationBackward(o.kind); k != "" && tm.r.bandwidth(k, dt) > 0 {
		return tm.r.stream(k, dt, bytes)
	}
	return tm.r.elementwise(o, g, dt, bytes)
}

// permutedMixed reports whether o adds or multiplies same-shape operands
// of two floating dtypes laid out differently (op.permuted). TensorIterator
// vectorises only operands contiguous in one layout: this runs the
// generic elementwise_kernel<128, 4> with a conversion per load, the
// kernel the mixed_mul calibration timed (1.45–1.48 TB/s in bf16).
// Whisper-c b12 bf16's profile (testdata/profile) runs its 13 encoder
// residual adds (float32 permuted stream + bfloat16 branch, 92 MB each)
// as gpu_kernel_impl<CUDAFunctor_add<float>> at 67.2 µs apiece, 1.37
// TB/s. Only the forward (backwardElementwise): the gradients pass
// through, the branch's cast back to bfloat16 is priced as a cast.
func permutedMixed(o *op, a, b *tensor) bool {
	return o.permuted && a.dt != b.dt && a.dt.floating() && b.dt.floating()
}

// halfOperand is the half-precision dtype among o's inputs (dt when none
// is): the mixed_mul calibration of a bfloat16 operand against a float32
// one is filed under bf16. Only permuted ops take it (permutedMixed):
// the broadcast mixed ops whose float32 operand comes first (DiT's
// modulation) keep the float32 row they were validated with.
func halfOperand(o *op, g *Graph, dt DType) DType {
	for _, t := range o.in {
		if d := g.tensors[t].dt; d == BF16 || d == F16 {
			return d
		}
	}
	return dt
}

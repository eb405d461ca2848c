package memmodel

import "math"

// extraKernel is a memory-bound kernel an op launches beside its own that
// the graph records no op for, because it allocates nothing the memory
// model does not already hold (a transient the op's fwdHeld or bwdHeld
// accounts, an in-place update): only the step-time walk prices it, at
// the calibrated bandwidth of its stream class slowed by slowdown.
type extraKernel struct {
	bwd      bool        // launched by the op's backward (else by its forward and recomputation)
	class    kernelClass // its class in a profile
	stream   string      // calibrated stream class (rates.stream)
	dt       DType
	bytes    float64 // read and written
	slowdown float64 // over the class's calibrated contiguous rate
	// cast: a tensor-level cast of its own (a Python .to() or an
	// autocast cast): the host pays HostCosts.Cast for it, forward and
	// backward, as the walk's cast ops do; the other kernels run inside
	// the op's own call.
	cast bool
	// call: a tensor-level op of its own that is no cast (a Python
	// scalar add): the host pays HostCosts.Small for its dispatch.
	call bool
}

// issueExtra issues op o's extra kernels of the forward (bwd false) or
// the backward: on the GPU only, the op's own call issues them.
func (tm *timeModel) issueExtra(o *op, bwd bool, p *pipeline) {
	for _, e := range o.extra {
		if e.bwd != bwd {
			continue
		}
		var h float64
		switch {
		case e.cast:
			h = tm.Cast
		case e.call:
			h = tm.Small
		}
		p.issue(h, tm.extraGPU(e), e.class, 1)
	}
}

// extraGPU is extra kernel e's GPU time.
func (tm *timeModel) extraGPU(e extraKernel) float64 {
	return math.Max(tm.r.stream(e.stream, e.dt, e.bytes*e.slowdown), tm.r.launch())
}

// forwardExtra is the GPU time of op o's forward extra kernels.
func (tm *timeModel) forwardExtra(o *op) float64 {
	var t float64
	for _, e := range o.extra {
		if !e.bwd {
			t += tm.extraGPU(e)
		}
	}
	return t
}

// halfStridedCopySlowdown is stridedCopySlowdown for half-precision
// elements: TensorIterator's generic elementwise_kernel<128, 4> computes
// an offset for every 2-byte element, half the bytes per offset of the
// float32 kernel. torchvision's ViT-B/16 b128 bf16 checkpointed profile
// (testdata/dev12/profile) runs 73 bf16 strided copies a step (the
// in-projection's qkv .contiguous(), its input folded to 2-D, the qkv and
// out_proj gradients reshaped, forward, recomputation and backward: 36 of
// 232 MB moved, 37 of 77.5 MB) in 7.13 ms, 1.58 TB/s against the
// calibrated copy's 4.21.
const halfStridedCopySlowdown = 2.7

// stridedBiasAdd is the in-place bias add of a Linear that matmul ran on
// a strided 3-D input (nn.MultiheadAttention's in-projection on its
// seq-first view): F.linear takes addmm's fused bias epilogue only for a
// contiguous input, otherwise matmul folds the input to 2-D and adds the
// bias afterwards, over a transposed view of the output. The ViT-B/16
// b128 bf16 profiles count one such bf16 add per block in forward (and
// recomputation), 153–158 µs for 232 MB moved, 1.48 TB/s: the rate the
// broadcast calibration's mixed_mul measured for the same generic
// elementwise_kernel<128, 4> (steptime_bcast.go).
func stridedBiasAdd(out int64, dt DType) extraKernel {
	return extraKernel{class: kPointwise, stream: "mixed_mul", dt: dt, bytes: 2 * float64(out*dt.Size()), slowdown: 1}
}

// stridedCopy is a copy kernel of a strided tensor of n elements of dt
// whose rows stay contiguous, in forward or backward.
func stridedCopy(n int64, dt DType, bwd bool) extraKernel {
	return extraKernel{bwd: bwd, class: kCopy, stream: "copy", dt: dt, bytes: 2 * float64(n*dt.Size()), slowdown: rowsSlowdown(dt)}
}

// rowsSlowdown is the strided-rows copy's slowdown for elements of dt.
func rowsSlowdown(dt DType) float64 {
	if dt.Size() == 2 {
		return halfStridedCopySlowdown
	}
	return stridedCopySlowdown
}

// stridedCopyTime is the GPU time of a copy of n elements of dt from a
// strided source with contiguous rows (op.stridedRows): the forward
// copy, and in backward the copy its gradient takes on the way back
// through the same views (the qkv gradient's reshape, ViT's in-projection
// input gradient made contiguous for the LayerNorm), one kernel where the
// walk charged a plain copy op two.
func (r *rates) stridedCopyTime(n int64, dt DType) float64 {
	return r.stream("copy", dt, 2*float64(n*dt.Size())*rowsSlowdown(dt))
}

// castRoundTrip is what transformers' T5 feed-forward does to the
// hidden state before wo when wo's weight is float32 and the hidden
// state is not (autocast over float32 weights): T5DenseActDense and
// T5DenseGatedActDense cast it to the weight's dtype
// (hidden_states.to(self.wo.weight.dtype), modeling_t5.py), and
// autocast casts it straight back to bfloat16 for the GEMM. Forward and
// recomputation: a bf16 → float32 cast and a float32 → bf16 one of the
// n-element hidden state; backward, the gradient's two casts the other
// way. The float32 copy is a transient the memory model does not hold.
// The T5-large s256 b16 bf16 profile (testdata/dev6) counts 48 more
// bf16 → float32 casts than the walk issued without them, two per
// feed-forward block.
func castRoundTrip(n int64, half DType) []extraKernel {
	up := float64(n) * float64(half.Size()+F32.Size())
	var ks []extraKernel
	for _, bwd := range []bool{false, true} {
		ks = append(ks,
			extraKernel{bwd: bwd, class: kCopy, stream: "to_fp32", dt: half, bytes: up, slowdown: 1, cast: true},
			extraKernel{bwd: bwd, class: kCopy, stream: "copy", dt: half, bytes: up, slowdown: 1, cast: true})
	}
	return ks
}

// bmmTraffic is what a batched float32 GEMM (torch.bmm: the math
// attention path's q·kᵀ and p·v, which upcasts half inputs to float32)
// adds to its arithmetic (at bmmLogRate): its three matrices' bytes at the
// calibrated copy rate; 0 for any other GEMM. One of each product's
// dimensions is the head size (64): every output element takes 64
// multiply-adds against 4 bytes written, every input element is reused a
// few dozen times, and cuBLAS's SIMT kernels for them
// (sm80_xmma_gemm_f32f32 … ffma, TF32 being off) overlap little of that
// traffic with the arithmetic. The T5-large s256 b16 bf16 profile
// (testdata/dev6) runs the 144 float32 bmm kernels of its math-path
// self-attentions (256 × [256 × 64 · 64 × 256] and the like, 2.1 GFLOP
// and 100 MB each) in 9.44 ms, 65.5 µs apiece, where the arithmetic at
// the large shapes' 50 TFLOP/s takes 43 µs and the arithmetic plus the
// traffic 67.
func (r *rates) bmmTraffic(s *gemmShape, dt DType) float64 {
	if s.batch <= 1 || calDtype(dt, false) != "fp32" {
		return 0
	}
	bytes := float64(s.batch*(s.m*s.k+s.k*s.n+s.m*s.n)) * float64(F32.Size())
	bw := r.bandwidth("copy", F32)
	if bw == 0 {
		return 0
	}
	return r.memS(bytes/bw, bytes)
}

// bmmLogRate is the log of the float32 rate a batched GEMM's arithmetic
// runs at (its traffic is bmmTraffic): the calibration's float32 4096³
// product (50.9 TFLOP/s on the H200, where the probes read 50.7), the
// rate of its large products (the 62 float32 ones of at least 2·2048³
// FLOP: median 49.3, 42–53 TFLOP/s). The calibration timed no batched
// product, and none whose inner dimension is a head size (its float32
// products that did not time the host have K ≥ 256 and N ≥ 320), so the
// interpolation is not asked: outside the timed shapes it returns the
// rates of the nearest ones, which are no measurement of a bmm and move
// whenever a table gains shapes (testdata/dev16's unbatched 320-wide
// products, 35–40 TFLOP/s, priced T5's bmm kernels at 77–81 µs against
// the profile's 65.5). The batched rate is clamped to this measured
// one, the rate bmmTraffic was fitted on top of. False for any other
// GEMM, or a table without the 4096³ product: those interpolate.
func (r *rates) bmmLogRate(dtype string, batch int64) (float64, bool) {
	if batch <= 1 || dtype != "fp32" {
		return 0, false
	}
	for _, g := range r.cal.GEMM {
		if g.Dtype == dtype && g.MNK == [3]int64{4096, 4096, 4096} && g.Seconds > 0 {
			return math.Log(2 * 4096 * 4096 * 4096 / g.Seconds), true
		}
	}
	return 0, false
}

// epsAdd is the `variance + eps` of a Hugging Face RMSNorm (and
// T5LayerNorm): torch.rsqrt(variance + self.variance_epsilon) adds the
// scalar out of place into a rows-sized float32 temporary that rsqrt
// reads and frees at once (too small to move the memory model), one
// forward kernel of its own; AddBackward with a scalar passes the
// gradient through, so backward launches nothing for it. dev12's plain
// Gemma 3 LoRA profile (testdata/dev12/profile) counts two scalar adds
// per Gemma3RMSNorm in forward (this one and the 1 + weight).
func epsAdd(rows int64) extraKernel {
	return extraKernel{class: kPointwise, stream: streamOp("add_scalar", 1), dt: F32, bytes: 2 * float64(rows*F32.Size()), slowdown: 1, call: true}
}

// safeSoftmaxKernels are the kernels of ATen's _safe_softmax beyond the
// softmax itself, on a float32 score matrix of n elements in rows rows
// (the math attention path): self.eq(-inf) (n floats read, n bools
// written), all() over each row, and where(rows, 0, out), which reads the
// probabilities and writes them again; in backward where's gradient,
// where(rows, 0, grad), the same traffic. The memory model holds the
// bool matrix and the row flags as the softmax's forward temporaries.
// dev49's T5-small s1024 b16 bf16 profile times the math path (encoder
// and decoder self-attention, 16×8×1024×64) at 3.26 ms a call forward
// where the walk priced its ops at 2.1 without these three passes (0.48
// ms on the calibrated bandwidths).
func safeSoftmaxKernels(n, rows int64) []extraKernel {
	f := float64(n)
	return []extraKernel{
		{class: kPointwise, stream: streamOp("eq", 1), dt: F32, bytes: 5 * f, slowdown: 1},
		{class: kPointwise, stream: "sum", dt: F32, bytes: f/4 + float64(rows), slowdown: 1},
		{class: kPointwise, stream: streamOp("where", 2), dt: F32, bytes: 8 * f, slowdown: 1},
		{bwd: true, class: kPointwise, stream: streamOp("where", 2), dt: F32, bytes: 8 * f, slowdown: 1},
	}
}

// formulaKernels is how many kernels beyond one an eager backward node
// of a pointwise op launches, by its derivatives.yaml formula; 0 under
// torch.compile (Inductor fuses the backward) and for every other op:
//   - mul: grad·other for each input that needs a gradient, and for one
//     broadcast against the output (RMSNorm's rsqrt of rows, its weight)
//     the sum back down to its shape;
//   - pow: pow_backward's grad·(e·x^(e−1)), three kernels (the two
//     temporaries pow's bwdHeld accounts, then the product);
//   - rsqrt: −0.5·grad·result.pow(3), three kernels.
//
// The walk priced each as one kernel moving the formula's bytes: dev12's
// Mistral b4x2 and plain Gemma 3 LoRA profiles (testdata/dev12/profile)
// run ~400 and ~300 more backward pointwise kernels than it counted.
func formulaKernels(o *op, g *Graph) float64 {
	if g.compiled {
		return 0
	}
	switch o.kind {
	case "pow", "rsqrt":
		if len(o.in) == 1 {
			return 2
		}
	case "mul":
		if len(o.in) != 2 || len(o.out) != 1 {
			return 0
		}
		out := g.tensors[o.out[0]].numel
		var n float64
		for _, t := range o.in {
			x := &g.tensors[t]
			if !x.grad {
				continue
			}
			n++
			if x.numel < out {
				n++
			}
		}
		return math.Max(n-1, 0)
	}
	return 0
}

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
}

// issueExtra issues op o's extra kernels of the forward (bwd false) or
// the backward: on the GPU only, the op's own call issues them.
func (tm *timeModel) issueExtra(o *op, bwd bool, p *pipeline) {
	for _, e := range o.extra {
		if e.bwd != bwd {
			continue
		}
		p.issue(0, math.Max(tm.r.stream(e.stream, e.dt, e.bytes*e.slowdown), tm.r.launch()), e.class, 1)
	}
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
	slow := stridedCopySlowdown
	if dt.Size() == 2 {
		slow = halfStridedCopySlowdown
	}
	return extraKernel{bwd: bwd, class: kCopy, stream: "copy", dt: dt, bytes: 2 * float64(n*dt.Size()), slowdown: slow}
}

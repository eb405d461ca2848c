package memmodel

import "math"

// Byte counts and slowdowns of the backward kernels the step-time walk
// prices apart from the generic formula: affine LayerNorm and GroupNorm
// reductions, bias gradients, normalisation rates by dtype, grouped
// (mixture-of-experts) GEMMs and the host time of one op.

// layerNormAffineGrad is what the weight and bias gradients of a
// LayerNorm whose weight trains read: ATen's layer_norm backward runs
// them as a kernel of its own after the input gradient
// (GammaBetaBackwardCUDAKernel, a column reduction of the output
// gradient times the normalised input, which it re-forms from the input
// and the saved statistics): the output gradient and the input once
// more. Every profile with affine LayerNorms shows it beside
// layer_norm_grad_input, one per norm: ViT-B/16 b128 bf16 25 kernels,
// 2.33 ms (the input gradients 1.47); Whisper 32, 1.05 ms; ConvNeXt-S
// b48 41, 1.74 ms. DiT's norms (elementwise_affine=False) and frozen
// weights (LoRA) launch none.
func layerNormAffineGrad(o *op, g *Graph) (float64, bool) {
	if o.kind != "layer_norm" || len(o.in) < 2 || !g.tensors[o.in[1]].grad || g.tensors[o.in[1]].param < 0 {
		return 0, false
	}
	return 2 * float64(g.tensors[o.in[0]].bytes()), true
}

// groupNormMoments is the input bytes ATen's GroupNorm reads a second
// time: it is two kernels each way where LayerNorm forward is one. Forward,
// RowwiseMomentsCUDAKernel reduces the input to each group's mean and
// variance, then GroupNormKernelImplInternal reads it again to normalise;
// backward, ComputeInternalGradientsCUDAKernel reduces the output
// gradient times the input per channel before the elementwise input
// gradient. The SD 1.5 UNet b8 bf16 profile (61 float32 GroupNorms under
// autocast): 1.28 + 1.11 ms forward, 1.45 + 1.45 ms backward.
func groupNormMoments(o *op, g *Graph) (float64, bool) {
	if o.kind != "group_norm" || len(o.in) == 0 {
		return 0, false
	}
	return float64(g.tensors[o.in[0]].bytes()), true
}

// linearBiasGrad is the GPU time of a Linear's bias-gradient kernel (see
// biasGradBytes), ok false when it launches none. A profile sorts it
// with the pointwise kernels (at::native::reduce_kernel), not with the
// GEMMs: the walk issues it apart from backward's GEMMs.
func (r *rates) linearBiasGrad(o *op, g *Graph) (float64, bool) {
	b, ok := biasGradBytes(o, g)
	if !ok || o.gemm == nil {
		return 0, false
	}
	dt := inDtype(o, g)
	if t, ok := r.colSum(dt, int64(b)/(o.gemm.n*int64(dt.Size())), o.gemm.n); ok {
		return math.Max(t, r.launch()), true
	}
	return math.Max(r.stream("sum", dt, b), r.launch()), true
}

// biasGradBytes is what a Linear's bias gradient reads, when the bias is
// trained: autograd sums the output's gradient over its rows down to the
// bias (sum_to_size, a reduce kernel of its own after the two GEMMs; the
// memory model stages its partial sums, biasGradScratch). ViT-B/16 b128
// bf16's profile counts 50 such bf16 sum kernels, 2.4 ms, for its 48
// Linears with biases and the patch embedding's and head's.
func biasGradBytes(o *op, g *Graph) (float64, bool) {
	if !o.ltBias || len(o.in) < 3 || len(o.out) == 0 || !g.tensors[o.in[2]].grad {
		return 0, false
	}
	return float64(g.tensors[o.out[0]].bytes()), true
}

// convBiasBytes is the output bytes of a convolution with a bias. cuDNN
// convolutions take no bias (ATen's cudnn/ConvShared.cpp: "Bias is
// handled outside"): ATen adds it to the output in place, a broadcast add
// reading and writing the output, and its gradient is the output
// gradient summed over batch and plane, a reduce kernel of its own; the
// calibration timed F.conv2d without a bias. ATen's depthwise kernels add
// the bias themselves, their gradient is summed the same way. The SD 1.5
// UNet b8 bf16 profile counts 202 broadcast bf16 adds (4.6 ms) and 208
// bf16 sums (3.8 ms) beside its convolutions.
func convBiasBytes(o *op, g *Graph) (float64, bool) {
	if len(o.in) < 3 || len(o.out) == 0 {
		return 0, false
	}
	return float64(g.tensors[o.out[0]].bytes()), true
}

// pointwiseBackwardBytes is what the backward of an elementwise op moves,
// where its formula says so (ok false otherwise; the caller takes twice
// the forward's bytes, a binary op's two gradients of three operands
// each). A one-input activation (ReLU, GELU, SiLU, tanh ...)
// reads the output's gradient and one saved tensor and writes the input's
// gradient: three tensors of its size, 1.5× the forward's input and output
// (ResNet-101: 100 threshold_backward kernels, 1.37 ms for 5.7 GB).
func pointwiseBackwardBytes(o *op, g *Graph) (float64, bool) {
	switch o.kind {
	case "relu", "relu_", "gelu", "gelu_tanh", "silu", "sigmoid", "tanh":
		if len(o.in) == 1 {
			return 1.5 * o.bytes, true
		}
	}
	return 0, false
}

// boolN is 1 for true.
func boolN(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// normSlowdown is how much longer than the calibrated normalisation
// class (a layer_norm over 1,024-wide rows) a BatchNorm takes over the same
// bytes. Training BatchNorm reduces per channel over N·H·W strided NCHW
// planes and makes more passes (statistics then normalisation forward; a
// reduction then the elementwise gradient backward). PyTorch sends
// float32 and float16 BatchNorm to cuDNN but never bfloat16
// (_select_batch_norm_backend), whose ATen kernels launch one block per
// channel for the reductions: fewer blocks than the H200 has SMs for the
// 64- and 128-channel maps that hold most of a ResNet's bytes. Neither was
// calibrated on its own; both factors were fitted once across every
// BatchNorm timing (ResNet-50 batch 64–256 in fp32, fp16 and bf16,
// EfficientNet-B0, both hosts) after the batch-256 convolutions were
// calibrated: at batch 256, what the convolutions do not explain is 1.5×
// (fp16) and 1.9× (bf16) the other ops' modelled time. A table that timed
// BatchNorm in the op's dtype (gt_calib.py --norm) replaces them (batchNorm). bf16 takes 2.4
// rather than the best mean fit, 2.8, which put bf16 ResNet-50 at batch
// 64 (host and GPU nearly tied) behind fp16, the reverse of the timings.
func normSlowdown(kind string, dt DType) float64 {
	switch {
	case kind != "batch_norm":
		return 1
	case dt == BF16:
		return bnNativeSlowdown
	}
	return bnCuDNNSlowdown
}

// hasNorm reports whether the calibration timed BatchNorm in dt
// (gt_calib.py --norm); normSlowdown's factors stand in where it did not.
func (r *rates) hasNorm(dt DType) bool {
	return r.hasNormLayout(normDtype(dt), false) || r.hasNormLayout(normDtype(dt), true)
}

// hasNormLayout reports whether the calibration times BatchNorm in
// calibration dtype ndt on inputs of the layout (nhwc: channels-last).
func (r *rates) hasNormLayout(ndt string, nhwc bool) bool {
	for _, v := range r.cal.Norm {
		if v.Dtype == ndt && v.ChannelsLast == nhwc && !r.hostBound(v.FwdS) {
			return true
		}
	}
	return false
}

// normDtype names dt as the BatchNorm calibration does: fp16 and bf16
// apart, since PyTorch sends them to different kernels.
func normDtype(dt DType) string {
	switch dt {
	case F16:
		return "fp16"
	case BF16:
		return "bf16"
	}
	return "fp32"
}

// BatchNorm's slowdowns over the normalisation class: see normSlowdown.
const (
	bnCuDNNSlowdown  = 1.5
	bnNativeSlowdown = 2.4
)

// cubeGEMM times a tensor-core op whose shape was not recorded as a
// square GEMM of the same FLOPs.
func (tm *timeModel) cubeGEMM(dt DType, flops float64) float64 {
	s := int64(math.Cbrt(flops / 2))
	return tm.r.gemm(calDtype(dt, false), 1, s, s, s)
}

// hostTime is what issuing op o costs the host in forward: a module call
// runs Python hooks and the module's own forward (views, reshapes) around
// its kernel; an arithmetic op inside a forward is one dispatcher call.
func (tm *timeModel) hostTime(o *op) float64 {
	if o.light {
		return tm.Small
	}
	switch o.kind {
	case "to":
		return tm.Cast
	case "add", "add_", "mul", "mul_scalar", "add_scalar", "pow", "rsqrt", "mean", "tanh", "copy", "cat", "neg", "zeros", "rotary":
		return tm.Small
	}
	if h, ok := tm.Kind[o.kind]; ok {
		return h
	}
	return tm.Op + tm.bnb4bitHost(o)
}

// layerHost is what one layer of family's containers costs the host each
// time its forward runs: HostCosts.Kind["layer:"+family] where given,
// else HostCosts.Block.
func (tm *timeModel) layerHost(family string) float64 {
	if h, ok := tm.Kind["layer:"+family]; ok {
		return h
	}
	return tm.Block
}

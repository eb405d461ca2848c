package memmodel

import (
	"math"

	"github.com/vramkit/vramkit/internal/gpu"
)

// The step-time model replays one training step as a two-clock pipeline:
// the host (Python, the dispatcher, the autograd engine) issues kernels one
// op at a time, and the GPU runs each kernel no earlier than it was issued
// and no earlier than the previous kernel finished. A step therefore costs
// the GPU's work when the GPU is the bottleneck and the host's when it is
// not, with the transitions in between (a GradScaler .item() sync, the
// small-batch micro-steps of accumulation, checkpoint recomputation that
// stalls in Python) falling out of the same walk instead of per-case
// constants.
//
// A kernel's GPU time comes from the calibration of its class (rates):
// GEMMs by M, N, K and dtype, fused attention by implementation and shape,
// convolutions by cuDNN class and shape, everything else as bytes moved at
// the bandwidth the calibrated op of its kind reached at that size; never
// less than the calibrated launch floor. The host pays per op: a
// Python-level op (a module call or a functional) costs hostOp, a cast
// autocast inserts inside the dispatcher costs hostCast, every autograd
// node costs hostBwd, and under non-reentrant checkpointing every saved
// tensor of a checkpointed region passes through a Python pack or unpack
// hook (hostHook) three times: pack in the forward, pack again in the
// recomputation, unpack in the backward. Each checkpointed region also
// pays torch.utils.checkpoint's own Python once (HostCosts.Ckpt, see
// ckptEntryShare), and its recomputation pays the forward's host costs
// again, on the autograd engine's thread, while the GPU works through the
// backward kernels queued before it.
//
// The host constants were fitted on the CPU of the calibration machine
// (the H200's host) once across every development timing (five
// families, fp32/AMP, checkpointing, LoRA, accumulation at once), not per
// workload (CalibrationHostCosts). A plan assumes the median lent host,
// slower than that one (DefaultHostCosts, lentHostScale). A faster or
// slower host shifts small workloads, which is part of why StepTimeBand is
// as wide as it is.
type timeModel struct {
	r *rates
	HostCosts
}

// HostCosts is what the host spends issuing one training step, in
// seconds: the CPU side of the step-time pipeline.
type HostCosts struct {
	Op    float64 `json:"op_s"`    // per module-level forward op (nn.Linear, a norm, attention ...)
	Small float64 `json:"small_s"` // per tensor-level forward op (x + y, x.pow(2) inside a forward)
	Cast  float64 `json:"cast_s"`  // per autocast cast (dispatcher only, no Python)
	Bwd   float64 `json:"bwd_s"`   // per autograd node in backward
	Node  float64 `json:"node_s"`  // per kernel-less autograd node the graph does not record (steptime_nodes.go)
	Hook  float64 `json:"hook_s"`  // per saved tensor per checkpoint hook call
	Ckpt  float64 `json:"ckpt_s"`  // per checkpointed region: torch.utils.checkpoint's own Python (ckptEntryShare)
	Param float64 `json:"param_s"` // per parameter tensor in optimizer.step / zero_grad / GradScaler
	Step  float64 `json:"step_s"`  // fixed per step: optimizer bookkeeping, the loop itself
}

// CalibrationHostCosts is the calibration machine's host (the CPU of the
// lent H200 that ran gt_calib.py and the development timings), fitted
// once across every development timing; Ckpt was derived afterwards from
// the host-bound checkpointed steps (ckptRegionCost).
func CalibrationHostCosts() HostCosts {
	return HostCosts{Op: 72e-6, Small: 6.3e-6, Cast: 23e-6, Bwd: 29e-6, Node: engineNodeCost, Hook: 6.3e-6, Ckpt: ckptRegionCost, Param: 1.5e-6}
}

// DefaultHostCosts is the host a plan assumes when it is told nothing of
// the user's: the median lent H200 host, the calibration machine's costs
// times lentHostScale.
func DefaultHostCosts() HostCosts {
	return CalibrationHostCosts().Scaled(lentHostScale)
}

// lentHostScale is how much slower than the calibration machine's the
// median lent H200 host issues a step. The same workload's host-bound
// step moves by up to 1.46x between processes on one host
// (testdata/dev13: Whisper b32 bf16 35.2-51.5 ms, ConvNeXt-T b32 bf16
// 24.0-34.6 ms), and the calibration machine's development timings sat at
// the fast end: every host-bound step (modelled host at least 1.5x the
// modelled GPU time) timed on the lent hosts since (dev7/8/9 host, dev11,
// dev13, late2..late13: 60 rows, 14 sets) took a median 1.19x the
// calibration host's prediction (quartiles 1.11 and 1.31; 1.19-1.21 for
// any threshold from 1.2x to 3x; the median of the 14 sets' medians
// 1.19), ConvNeXt-T b64 bf16 28.3-44.5 ms on lent hosts against 29.7 on
// the calibration machine. The probe's Python loop does not tell a slow
// process from a fast one (dev13: the process whose loop ran at 52 ns
// timed the checkpointed Gemma 3 fastest, 69 ms, one at 35 ns slowest,
// 91 ms; over the host-bound rows, correlation 0.34 with the shortfall),
// so the walk does not scale by it; a user who knows their host passes
// Options.Host.
const lentHostScale = 1.2

// Scaled is h with every cost multiplied by f: the same work on a host
// f times slower.
func (h HostCosts) Scaled(f float64) HostCosts {
	return HostCosts{Op: h.Op * f, Small: h.Small * f, Cast: h.Cast * f, Bwd: h.Bwd * f, Node: h.Node * f,
		Hook: h.Hook * f, Ckpt: h.Ckpt * f, Param: h.Param * f, Step: h.Step * f}
}

// ckptRegionCost is what one region under non-reentrant
// torch.utils.checkpoint (use_reentrant=False, preserve_rng_state=True:
// how Hugging Face, diffusers and torchvision wrappers call it) costs the
// host beyond its ops and its saved tensors' hooks. Entering the region,
// checkpoint stashes the CPU and CUDA RNG states, infers the device from
// the arguments (a pytree walk), reads the autocast state, builds a
// _CheckpointFrame and saves the inputs through an autograd Function;
// before the recomputation its unpack hook forks the RNG (get and set of
// both generators), restores the stashed states, re-enters autocast for
// CUDA and CPU, wraps its recomputation hook with torch._dynamo.disable,
// stops the recomputation by raising at the last saved tensor and
// compares every recomputed tensor's shape, dtype and device with the
// forward's (torch/utils/checkpoint.py, torch 2.11). None of it launches
// a kernel.
//
// It was derived from the host-bound (batch 1, tiny-shape) plain and
// checkpointed steps of testdata/dev9/host and dev7/host: what a
// checkpointed step adds beyond the walk's recomputed forward and its
// hooks, per region, is 0.91 ms (Qwen2.5-0.5B, 24 regions), 0.93
// (Whisper, 8), 1.41 (SD 1.5 UNet, 37), 1.66 (ViT-B/16, 12) on dev9's
// host; 1.26 (ConvNeXt-S, 36), 2.01 (Phi-3, 10) and 3.58 (Llama-small,
// 24) on dev7's, whose Python ran a probe loop 1.56x slower (55 against
// 35 ns an iteration), 0.81-2.3 ms at dev9's speed. The median of the
// seven at dev9's speed is 1.29 ms, of dev9's four 1.17; 1.2 ms.
const ckptRegionCost = 1.2e-3

// ckptEntryShare is the part of ckptRegionCost paid in the forward, on
// entering the region (the RNG stash, the frame, the saved inputs); the
// rest is paid in the backward, before the recomputation (the RNG fork
// and restore, the autocast contexts, the recomputation hook, the
// determinism check), which does about twice the forward's Python.
const ckptEntryShare = 1.0 / 3

// newTimeModel is the calibrated model of GPU g with host costs h (the
// defaults where h is zero).
func newTimeModel(g gpu.GPU, h HostCosts) (timeModel, error) {
	r, err := newRates(g)
	if err != nil {
		return timeModel{}, err
	}
	if h == (HostCosts{}) {
		h = DefaultHostCosts()
	}
	return timeModel{r: r, HostCosts: h}, nil
}

// inDtype is the dtype an op computes in: that of its first input.
func inDtype(o *op, g *Graph) DType {
	if len(o.in) > 0 {
		return g.tensors[o.in[0]].dt
	}
	if len(o.out) > 0 {
		return g.tensors[o.out[0]].dt
	}
	return F32
}

// forward is op o's GPU time in the forward pass (and in a recomputation).
func (tm *timeModel) forward(o *op, g *Graph) float64 {
	if o.flops == 0 && o.bytes == 0 {
		return 0
	}
	r, dt := tm.r, inDtype(o, g)
	var t float64
	switch {
	case o.attn != nil:
		t, _ = r.sdpa(o.attn, dt)
	case o.conv != nil:
		t, _ = r.conv(o.conv, dt)
		if b, ok := convBiasBytes(o, g); ok && o.conv.groups == 1 {
			t += math.Max(r.stream("add", dt, 2*b), r.launch())
		}
	case o.gemm != nil:
		s := o.gemm
		t = r.linearGEMM(calDtype(dt, false), s.batch, s.m, s.n, s.k, oddFeatures(s, g)) + r.bmmTraffic(s, dt)
	case o.kind == "grouped_mm":
		t, _ = tm.groupedGEMM(o, g)
	case o.matmul:
		t = tm.cubeGEMM(dt, o.flops)
	case o.kind == "batch_norm" && r.hasNorm(dt):
		t, _ = r.batchNorm(o, g, dt)
	case o.stridedRows && len(o.in) == 1:
		t = r.stridedCopyTime(g.tensors[o.in[0]].numel, dt)
	default:
		t = math.Max(r.elementwise(o, g, dt, o.bytes), r.layerNormRowFloor(o, g))
		if m, ok := r.mixedAddForward(o, g, dt); ok {
			t = m
		}
		if b, ok := groupNormMoments(o, g); ok {
			t += math.Max(r.stream("sum", dt, b), r.launch())
		}
	}
	return math.Max(t, r.launch())
}

// oddFeatures reports whether a Linear's input or output features are odd
// (see linearGEMM). Under torch.compile Inductor pads such matmuls to
// aligned shapes (its shape_padding pass, on by default), so they are not.
func oddFeatures(s *gemmShape, g *Graph) bool {
	return !g.compiled && (s.n%2 == 1 || s.k%2 == 1)
}

// backward is op o's GPU time in the backward pass and how many kernels
// it takes: for a GEMM the data and weight gradients it needs (a frozen
// weight needs none), for the rest its gradient kernels.
func (tm *timeModel) backward(o *op, g *Graph) (float64, float64) {
	r, dt := tm.r, inDtype(o, g)
	switch {
	case o.attn != nil:
		_, t := r.sdpa(o.attn, dt)
		return math.Max(t, r.launch()), 1
	case o.conv != nil:
		_, t := r.conv(o.conv, dt)
		t, n := math.Max(t, r.launch()), boolN(o.conv.dgrad)+boolN(o.conv.wgrad)
		if b, ok := convBiasBytes(o, g); ok && g.tensors[o.in[2]].grad {
			t += math.Max(r.stream("sum", dt, b), r.launch())
			n++
		}
		return t, n
	case o.gemm != nil:
		s, d := o.gemm, calDtype(dt, false)
		var t float64
		odd := oddFeatures(s, g)
		if s.dgrad {
			t += math.Max(r.linearGEMM(d, s.batch, s.m, s.k, s.n, odd)+r.bmmTraffic(s, dt), r.launch())
		}
		if s.wgrad {
			t += math.Max(r.linearGEMM(d, s.batch, s.k, s.n, s.m, odd)+r.bmmTraffic(s, dt), r.launch())
		}
		return t, boolN(s.dgrad) + boolN(s.wgrad) // the bias gradient: linearBiasGrad
	case o.kind == "grouped_mm" && o.bwdFlops > 0:
		_, t := tm.groupedGEMM(o, g)
		return t, 2
	case o.matmul:
		if o.bwdFlops == 0 {
			return 0, 0
		}
		return math.Max(tm.cubeGEMM(dt, o.bwdFlops), r.launch()), 2
	}
	if o.bwdFlops == 0 && o.bytes == 0 {
		return 0, 0
	}
	if o.kind == "batch_norm" && r.hasNorm(dt) {
		_, t := r.batchNorm(o, g, dt)
		return math.Max(t, r.launch()), 1
	}
	if o.stridedRows && len(o.in) == 1 {
		return math.Max(r.stridedCopyTime(g.tensors[o.in[0]].numel, dt), r.launch()), 1
	}
	bytes, ok := pointwiseBackwardBytes(o, g)
	if !ok {
		bytes = 2 * o.bytes
	}
	if bytes == 0 {
		return 0, 0
	}
	t := math.Max(tm.backwardElementwise(o, g, dt, bytes), r.launch())
	if gi, ok := r.layerNormGradInput(o, g, dt); ok {
		t = gi
	}
	if b, ok := groupNormMoments(o, g); ok {
		return t + math.Max(r.stream("sum", dt, b), r.launch()), 2
	}
	if gb, n, ok := r.gammaBeta(o, g, dt); ok {
		return t + gb, 1 + n
	}
	return t, 1
}

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
	return math.Max(r.stream("sum", inDtype(o, g), b), r.launch()), true
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
	case "relu", "relu_", "gelu", "silu", "sigmoid", "tanh":
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
	for _, v := range r.cal.Norm {
		if v.Dtype == normDtype(dt) && !r.hostBound(v.FwdS) {
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

// groupedGEMM times torch._grouped_mm of rows x [n, in] against e
// experts' weights w [e, in, out] (a mixture-of-experts MLP): e GEMMs of
// n/e rows each (a balanced router), forward and backward (data and,
// unless frozen, weight gradients). The shape is recovered from the
// tensors: n·in = |x|, n·out = |y|, e·in·out = |w|. The calibration has no
// grouped GEMM; groupedSlowdown is fitted across the development MoE
// timings (Mixtral, Qwen2-MoE), whose float32 experts (no autocast rule
// for _grouped_mm) ran slower than e plain float32 GEMMs of that shape.
func (tm *timeModel) groupedGEMM(o *op, g *Graph) (fwd, bwd float64) {
	if len(o.in) < 2 || len(o.out) < 1 || o.flops == 0 {
		return tm.cubeGEMM(inDtype(o, g), o.flops), tm.cubeGEMM(inDtype(o, g), o.bwdFlops)
	}
	x, w, y := &g.tensors[o.in[0]], &g.tensors[o.in[1]], &g.tensors[o.out[0]]
	nio := o.flops / 2 // n·in·out
	in, out := nio/float64(y.numel), nio/float64(x.numel)
	n := float64(x.numel) / in
	e := math.Max(math.Round(float64(w.numel)/(in*out)), 1)
	m := int64(math.Max(n/e, 1))
	d := calDtype(promote(x.dt, w.dt), false)
	r := tm.r
	one := func(mm, nn, kk int64) float64 { return math.Max(r.gemm(d, 1, mm, nn, kk), r.launch()) }
	fwd = groupedSlowdown * e * one(m, int64(out), int64(in))
	if x.grad {
		bwd += groupedSlowdown * e * one(m, int64(in), int64(out))
	}
	if w.grad {
		bwd += groupedSlowdown * e * one(int64(in), int64(out), m)
	}
	return fwd, bwd
}

// groupedSlowdown: see groupedGEMM.
const groupedSlowdown = 1.5

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
	return tm.Op
}

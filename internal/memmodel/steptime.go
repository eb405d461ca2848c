package memmodel

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
// A kernel takes the larger of its FLOPs at an achieved share of the GPU's
// peak and its bytes at an achieved share of memory bandwidth, never less
// than a launch floor. The host pays per op: a Python-level op (a module
// call or a functional) costs hostOp, a cast autocast inserts inside the
// dispatcher costs hostCast, every autograd node costs hostBwd, and under
// non-reentrant checkpointing every saved tensor of a checkpointed region
// runs a Python pack or unpack hook (hostHook) three times: pack in the
// forward, pack again in the recomputation, unpack in the backward.
//
// The constants are shared by every model and GPU; they were chosen
// against the ratios of the H200 timing fixture (AMP vs fp32,
// checkpointing vs none, accumulation vs one large batch) across four
// families at once, not per workload. The absolute host costs describe the
// capture machine's CPU; a faster host shifts small workloads, which is
// why StepTimeBand is wide.
type timeModel struct {
	effMatmulLowp float64 // achieved share of peak fp16/bf16 tensor-core throughput (GEMM)
	effMatmulF32  float64 // fp32 GEMM (PyTorch leaves TF32 off for matmul)
	effConvF32    float64 // fp32 convolutions run in TF32 (cudnn.allow_tf32), NCHW, no cudnn.benchmark
	effConvLowp   float64 // fp16/bf16 NCHW convolutions: cuDNN transposes to NHWC around each
	effBandwidth  float64 // achieved share of memory bandwidth by elementwise kernels
	launch        float64 // smallest kernel, seconds
	hostOp        float64 // per Python-level forward op, seconds
	hostCast      float64 // per autocast cast (dispatcher only, no Python)
	hostBwd       float64 // per autograd node in backward
	hostHook      float64 // per saved tensor per checkpoint hook call
	hostParam     float64 // per parameter in optimizer.step / zero_grad / GradScaler
	hostStep      float64 // fixed per step: optimizer bookkeeping, the loop itself
}

// defaultTimeModel is the calibrated model.
func defaultTimeModel() timeModel {
	return timeModel{
		effMatmulLowp: 0.5, effMatmulF32: 0.65, effConvF32: 0.15, effConvLowp: 0.1,
		effBandwidth: 0.7, launch: 4e-6,
		hostOp: 100e-6, hostCast: 10e-6, hostBwd: 35e-6, hostHook: 40e-6,
		hostParam: 10e-6, hostStep: 1e-3,
	}
}

// kernelTime is op o's GPU time forward (bwd false) or backward.
func (tm *timeModel) kernelTime(c *config, o *op, g *Graph, bwd bool) float64 {
	flops, bytes := o.flops, o.bytes
	if bwd {
		flops, bytes = o.bwdFlops, 2*o.bytes
	}
	if flops == 0 && bytes == 0 {
		return 0
	}
	t := bytes / (c.gpu.BandwidthGBps * 1e9 * tm.effBandwidth)
	if o.matmul {
		if ct := flops / (tm.matmulRate(c, o, g) * 1e12); ct > t {
			t = ct
		}
	}
	return maxF(t, tm.launch)
}

// matmulRate is the achieved TFLOP/s of a tensor-core op, by the dtype of
// its first input (its outputs may include float32 statistics).
func (tm *timeModel) matmulRate(c *config, o *op, g *Graph) float64 {
	dt := F32
	if len(o.in) > 0 {
		dt = g.tensors[o.in[0]].dt
	}
	conv := o.kind == "conv2d"
	switch {
	case dt != F32 && conv:
		return c.gpu.FP16TFLOPs * tm.effConvLowp
	case dt == F16:
		return c.gpu.FP16TFLOPs * tm.effMatmulLowp
	case dt == BF16:
		return c.gpu.BF16TFLOPs * tm.effMatmulLowp
	case conv && c.gpu.TF32TFLOPs > 0:
		return c.gpu.TF32TFLOPs * tm.effConvF32
	}
	return c.gpu.FP32TFLOPs * tm.effMatmulF32
}

// hostTime is what issuing op o costs the host in forward.
func (tm *timeModel) hostTime(o *op) float64 {
	if o.kind == "to" {
		return tm.hostCast
	}
	return tm.hostOp
}

// pipeline is the two clocks of the walk.
type pipeline struct{ host, gpu float64 }

// issue charges h to the host, then runs a kernel of d seconds on the GPU.
func (p *pipeline) issue(h, d float64) {
	p.host += h
	p.gpu = maxF(p.gpu, p.host) + d
}

// sync makes the host wait for the GPU (.item(), synchronize).
func (p *pipeline) sync() { p.host = maxF(p.host, p.gpu) }

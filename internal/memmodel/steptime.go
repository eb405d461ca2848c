package memmodel

// The step-time model: each op costs the larger of its FLOPs at the GPU's
// matrix rate (scaled by an achieved-efficiency factor) and its bytes at
// the memory bandwidth, plus a kernel launch; the host side costs a fixed
// time per op (Python module and dispatcher overhead), and a micro-step
// takes the larger of the two because the GPU runs asynchronously.
// Checkpointed regions run their forward twice and pay for the saved-tensor
// hooks; accumulation repeats the micro-step; parallel strategies add
// communication at the interconnect bandwidth. The constants were fitted to
// the ratios in the H200 timing fixture (AMP vs fp32, checkpointing vs
// none, accumulation vs one large batch), not to any single workload.
const (
	effMatmulLowp = 0.35  // achieved share of peak bf16/fp16 tensor throughput
	effMatmulF32  = 0.65  // fp32 GEMM (TF32 off for matmul by default)
	effConvF32    = 0.10  // fp32 convolutions run in TF32 (cudnn.allow_tf32 default) but NCHW with cudnn.benchmark off
	effConvLowp   = 0.05  // fp16/bf16 NCHW convolutions: AMP brought ResNet-50 no speed-up
	effBandwidth  = 0.70  // achieved share of memory bandwidth
	launchGPU     = 4e-6  // per kernel, seconds
	hostFwdOp     = 60e-6 // per forward op on the host (nn.Module + dispatcher)
	hostBwdOp     = 30e-6 // per backward node (C++ autograd engine)
	hostCkptOp    = 60e-6 // per recomputed op: forward again plus unpack hooks
	hostStep      = 1e-3  // optimizer.step and zero_grad bookkeeping
)

func (c *config) opTime(o *op, g *Graph, bwd bool) float64 {
	flops, bytes := o.flops, o.bytes
	if bwd {
		flops, bytes = o.bwdFlops, 2*o.bytes
	}
	if flops == 0 && bytes == 0 {
		return 0
	}
	dt := F32
	if len(o.out) > 0 {
		dt = g.tensors[o.out[len(o.out)-1]].dt
	}
	t := bytes / (c.gpu.BandwidthGBps * 1e9 * effBandwidth)
	if o.matmul {
		var rate float64
		switch {
		case dt != F32 && o.kind == "conv2d":
			rate = c.gpu.FP16TFLOPs * effConvLowp
		case dt == F16:
			rate = c.gpu.FP16TFLOPs * effMatmulLowp
		case dt == BF16:
			rate = c.gpu.BF16TFLOPs * effMatmulLowp
		case o.kind == "conv2d" && c.gpu.TF32TFLOPs > 0:
			rate = c.gpu.TF32TFLOPs * effConvF32
		default:
			rate = c.gpu.FP32TFLOPs * effMatmulF32
		}
		if ct := flops / (rate * 1e12); ct > t {
			t = ct
		}
	}
	return t + launchGPU
}

// stepTime fills r's step time, its band and throughput.
func (c *config) stepTime(g *Graph, cfg stepConfig, r *Result) {
	var gpuF, gpuB, gpuR float64
	var nF, nB, nR float64
	gen := newGenerator(g, cfg)
	for i := range g.ops {
		o := &g.ops[i]
		f := c.opTime(o, g, false)
		gpuF += f
		nF++
		if gen.inReg[i] >= 0 {
			gpuR += f
			nR++
		}
		if !o.noBackward && o.bwdFlops+o.bytes > 0 {
			gpuB += c.opTime(o, g, true)
			nB++
		}
	}
	// recomputation stalls the queue (checkpoint restores RNG state), so
	// its host work does not overlap the GPU
	micro := maxF(gpuF+gpuB+gpuR, nF*hostFwdOp+nB*hostBwdOp) + nR*hostCkptOp
	var pBytes float64
	for _, p := range g.params {
		if p.trainable {
			pBytes += float64(p.numel) * p.shard
		}
	}
	opt := pBytes * 28 / (c.gpu.BandwidthGBps * 1e9 * effBandwidth) * cfg.stateShard
	if cfg.optimizer == "sgd" || cfg.optimizer == "sgd-momentum" {
		opt /= 2
	}
	comm := c.commTime(g)
	step := float64(cfg.accum)*micro + opt + hostStep + comm
	if p := c.spec.Parallel; p.PP > 1 {
		// 1F1B bubble: (pp-1)/micro_batches of idle time
		step *= 1 + float64(p.PP-1)/float64(p.MicroBatches)
	}
	r.StepTime = step
	r.StepTimeBand = [2]float64{step * 0.75, step * 1.33}
	r.SamplesPerSec = float64(c.spec.Batch*c.spec.Accum*c.dp()) / step
}

// commTime is the gradient/parameter traffic a strategy adds per step, not
// overlapped with compute (a pessimistic simplification).
func (c *config) commTime(g *Graph) float64 {
	p := c.spec.Parallel
	if p.GPUs <= 1 {
		return 0
	}
	var gradBytes float64
	for _, pi := range g.params {
		if pi.trainable {
			gradBytes += float64(pi.numel) * 4
		}
	}
	bw := c.gpu.InterconnectGBps * 1e9
	n := float64(c.dp())
	ring := 2 * (n - 1) / n
	var t float64
	switch p.Strategy {
	case "ddp", "zero1", "zero2":
		t = gradBytes * ring / bw * 0.5 // half overlapped with backward
	case "zero3", "fsdp":
		t = gradBytes * 1.5 * ring / bw * 0.5
	}
	if p.TP > 1 {
		// two all-reduces of the activations per layer, forward and backward
		act := float64(c.batch*max(c.seq, 1)) * float64(c.arch.Hidden) * 2
		t += 4 * float64(c.arch.Layers) * act * 2 * float64(p.TP-1) / float64(p.TP) / bw
	}
	return t
}

func maxF(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

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
// workload (CalibrationHostCosts). A plan assumes the median lent host of
// its GPU's machines, slower than that one (LentHostCosts, lentHostScale). A faster or
// slower host shifts small workloads, which is part of why StepTimeBand is
// as wide as it is.
type timeModel struct {
	r *rates
	HostCosts
	// realBatch says the step's micro-batch is a real one (compiledHost's
	// compiledRealBatchHost applies); set by the planner
	realBatch bool
	// compiledFamily is the family's Family.CompiledHost (0: none); set by
	// the planner
	compiledFamily float64
	// userScale is the spec's host_scale (1: none), already applied to
	// HostCosts; hostBase is HostCosts before it, which the plan names
	userScale float64
	hostBase  HostCosts
	// hostLabel names hostBase in the plan's words
	hostLabel string
}

// HostCosts is what the host spends issuing one training step, in
// seconds: the CPU side of the step-time pipeline.
type HostCosts struct {
	Op    float64 `json:"op_s"`    // per module-level forward op (nn.Linear, a norm, attention ...)
	Small float64 `json:"small_s"` // per tensor-level forward op (x + y, x.pow(2) inside a forward)
	// Issue is a dispatcher call made without Python: the autograd
	// engine's gradient sums, the optimizer's kernels, Inductor's
	// launches (the calibration's enqueue_s). It equals Small on every
	// host measured so far; it is kept apart so that a fit of the Python
	// forward's per-op price (Small) leaves these calls where the
	// calibration measured them (dev69/dev70, docs/steptime.md).
	Issue float64 `json:"issue_s"`
	Cast  float64 `json:"cast_s"` // per autocast cast (dispatcher only, no Python)
	Bwd   float64 `json:"bwd_s"`  // per autograd node in backward
	Node  float64 `json:"node_s"` // per kernel-less autograd node the graph does not record (steptime_nodes.go)
	Hook  float64 `json:"hook_s"` // per saved tensor per checkpoint hook call
	// Ckpt is per checkpointed region: torch.utils.checkpoint's own
	// Python (ckptEntryShare). A family with a Family.CkptRegion (the
	// torchvision CNNs) does not read it: its blocks' regions are that
	// share of the calibration machine's region, scaled by Issue.
	Ckpt  float64 `json:"ckpt_s"`
	Param float64 `json:"param_s"` // per parameter tensor in optimizer.step / zero_grad / GradScaler
	Step  float64 `json:"step_s"`  // fixed per step: optimizer bookkeeping, the loop itself
	// Block is paid once per layer (a transformer layer, a CNN block)
	// each time its forward runs, recomputation included: the Python of
	// the modules around the kernels' modules (the layer, its attention
	// and MLP containers, their bodies' shape arithmetic and dispatch).
	// Zero in the committed costs, whose Op absorbs it.
	Block float64 `json:"block_s"`
	// Kind prices a module-level forward op of the named kind (the
	// graph's op kinds: "conv2d", "batch_norm", "layer_norm", "sdpa" ...)
	// in place of Op; kinds it does not name cost Op. A key
	// "layer:FAMILY" ("layer:bert") prices a layer of that family in
	// place of Block. Empty in the
	// committed costs: one price for every module call. gt_modhost.py
	// times the kinds apart (dev69, dev70; docs/steptime.md, session 39).
	Kind map[string]float64 `json:"kind_s,omitempty"`
}

// CalibrationHostCosts is the calibration machine's host (the CPU of the
// lent H200 that ran gt_calib.py and the development timings), fitted
// once across every development timing; Ckpt was derived afterwards from
// the host-bound checkpointed steps (ckptRegionCost).
func CalibrationHostCosts() HostCosts {
	return HostCosts{Op: 72e-6, Small: 6.3e-6, Issue: 6.3e-6, Cast: 23e-6, Bwd: 29e-6, Node: engineNodeCost, Hook: 6.3e-6, Ckpt: ckptRegionCost, Param: 1.5e-6}
}

// DefaultHostCosts is the median lent H200 host, the calibration
// machine's costs times lentHostScale: the host a plan assumes when it is
// told nothing of the user's, on every GPU but the H100 (LentHostCosts).
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
// and neither does its per-op issue cost (session 15, 21 timed sets: the
// sets whose probe issued an op in 9-11 us took 0.88-1.16x the walk's
// host-bound prediction, late19 at 6.6 us took 1.19x), so the walk does
// not scale by either; a user who knows their host passes Options.Host.
const lentHostScale = 1.2

// Scaled is h with every cost multiplied by f: the same work on a host
// f times slower.
func (h HostCosts) Scaled(f float64) HostCosts {
	s := HostCosts{Op: h.Op * f, Small: h.Small * f, Issue: h.Issue * f, Cast: h.Cast * f, Bwd: h.Bwd * f, Node: h.Node * f,
		Hook: h.Hook * f, Ckpt: h.Ckpt * f, Param: h.Param * f, Step: h.Step * f, Block: h.Block * f}
	if h.Kind != nil {
		s.Kind = make(map[string]float64, len(h.Kind))
		for k, v := range h.Kind {
			s.Kind[k] = v * f
		}
	}
	return s
}

// zero reports whether h sets no cost at all (the caller gave none).
func (h HostCosts) zero() bool {
	return h.Op == 0 && h.Small == 0 && h.Issue == 0 && h.Cast == 0 && h.Bwd == 0 && h.Node == 0 && h.Hook == 0 &&
		h.Ckpt == 0 && h.Param == 0 && h.Step == 0 && h.Block == 0 && len(h.Kind) == 0
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

// ckptRegionCNN is the share of ckptRegionCost that a region around one
// torchvision CNN block (a ResNet bottleneck, a ConvNeXt CNBlock, an
// EfficientNet MBConv) costs: 0.8 ms, dev7's ConvNeXt-S pair at dev9's
// speed (0.81 ms, the lowest of the seven pairs above and the only CNN
// among them). With the pooled 1.2 ms every host-bound checkpointed
// torchvision CNN step of the blind sets was over-predicted: ten of ten,
// median +25% (ResNet-50 b96 +41%, ConvNeXt-T b128 +27% and +33%,
// ConvNeXt-B b64 +61% and b128 +22%, ConvNeXt-S b96 +11%, ResNet-152
// b128 +8% and +26%, EfficientNet-B4 b64 +24%, EfficientNet-B2 b128
// +10%), while their plain host-bound twins were not (ConvNeXt-S b64x2
// -0.3%, late26). The blocks are called with one tensor, where a Hugging
// Face layer passes its masks, positions and cache through checkpoint's
// argument walk; torchvision's ViT block, one tensor too, derived 1.66
// ms, so the share is the family's, not a rule about arguments. The
// diffusers UNet keeps the pooled cost (1.41 ms derived; its blind
// checkpointed steps -7% to +22%).
const ckptRegionCNN = 0.8e-3 / ckptRegionCost

// ckptEntryShare is the part of ckptRegionCost paid in the forward, on
// entering the region (the RNG stash, the frame, the saved inputs); the
// rest is paid in the backward, before the recomputation (the RNG fork
// and restore, the autocast contexts, the recomputation hook, the
// determinism check), which does about twice the forward's Python.
const ckptEntryShare = 1.0 / 3

// newTimeModel is the calibrated model of GPU g with host costs h (the
// median lent host of g's machines where h is zero: LentHostCosts).
func newTimeModel(g gpu.GPU, h HostCosts) (timeModel, error) {
	r, err := newRates(g)
	if err != nil {
		return timeModel{}, err
	}
	var label string
	if h.zero() {
		h, label = LentHostCosts(g)
	} else {
		label = describeHost(h)
	}
	if h.Issue == 0 {
		h.Issue = h.Small // costs written before Issue existed priced these calls at Small
	}
	return timeModel{r: r, HostCosts: h, userScale: 1, hostBase: h, hostLabel: label}, nil
}

// scaleHost applies a spec's host_scale f to the host's costs.
func (tm *timeModel) scaleHost(f float64) {
	tm.userScale = f
	tm.HostCosts = tm.hostBase.Scaled(f)
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
		t, _ = r.conv(compiledConv(o.conv, g), dt)
		if b, ok := convBiasBytes(o, g); ok && o.conv.groups == 1 {
			t += math.Max(r.stream("add", dt, 2*b), r.launch())
		}
	case o.gemm != nil:
		s := o.gemm
		t = r.linearGEMM(calDtype(dt, false), s.batch, s.m, s.n, s.k, oddFeatures(s, g)) + r.bmmTraffic(s, dt) + tm.dequant4bit(o)
	case o.kind == "grouped_mm":
		t, _, _ = tm.groupedGEMM(o, g)
	case o.matmul:
		t = tm.cubeGEMM(dt, o.flops)
	case o.kind == "batch_norm" && g.compiled:
		t, _ = compiledBatchNorm(o, g, r, dt)
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
		_, t := r.conv(compiledConv(o.conv, g), dt)
		t, n := math.Max(t, r.launch()), boolN(o.conv.dgrad)+boolN(o.conv.wgrad)
		if b, ok := convBiasBytes(o, g); ok && g.tensors[o.in[2]].grad {
			c := o.conv
			bt, ok := r.convBiasSum(dt, c.channelsLast, c.n, c.cout, c.ho*c.ho)
			if !ok {
				bt = r.stream("sum", dt, b)
			}
			t += math.Max(bt, r.launch())
			n++
		}
		return t, n
	case o.gemm != nil:
		s, d := o.gemm, calDtype(dt, false)
		var t float64
		odd := oddFeatures(s, g)
		if s.dgrad {
			t += math.Max(r.linearGEMM(d, s.batch, s.m, s.k, s.n, odd)+r.bmmTraffic(s, dt), r.launch()) + tm.dequant4bit(o)
		}
		if s.wgrad {
			t += math.Max(r.linearGEMM(d, s.batch, s.k, s.n, s.m, odd)+r.bmmTraffic(s, dt), r.launch())
		}
		return t, boolN(s.dgrad) + boolN(s.wgrad) // the bias gradient: linearBiasGrad
	case o.kind == "grouped_mm" && o.bwdFlops > 0:
		_, dg, wg := tm.groupedGEMM(o, g)
		return dg + wg, boolN(dg > 0) + boolN(wg > 0)
	case o.matmul:
		if o.bwdFlops == 0 {
			return 0, 0
		}
		return math.Max(tm.cubeGEMM(dt, o.bwdFlops), r.launch()), 2
	}
	if o.bwdFlops == 0 && o.bytes == 0 {
		return 0, 0
	}
	if o.kind == "batch_norm" && g.compiled {
		_, t := compiledBatchNorm(o, g, r, dt)
		return math.Max(t, r.launch()), 1
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

// compiledConv is convolution c as it runs in g: under torch.compile
// Inductor's layout optimisation runs a CNN's convolutions channels-last
// (testdata/dev27: compiled ResNet-101 b128 launches no NCHW<->NHWC
// transposes, and cuDNN picks Hopper-native kernels), so the calibrated
// channels-last rates apply (testdata/dev28 timed ResNet-50's shapes
// channels-last at batch 256: 0.3-0.7x their NCHW times, 1x1 ones 0.9-1.3x
// where NCHW needs no transpose).
func compiledConv(c *convShape, g *Graph) *convShape {
	if !g.compiled || c.channelsLast {
		return c
	}
	cl := *c
	cl.channelsLast = true
	return &cl
}

// compiledBatchNorm is batch norm o's GPU time forward and backward under
// torch.compile, where Inductor decomposes a training
// BatchNorm into a reduction over its input (the batch statistics) and
// a pointwise normalisation that it fuses with the ReLU or residual add
// after it, and its backward into a reduction over the output gradient
// and the input and a pointwise input gradient fused with the ReLU's
// backward. The walk charges the reductions to the BatchNorm (one pass
// over the input forward, two backward) and lets the ReLU or add after it,
// which it prices as a pointwise op reading and writing the map, stand
// for the fused normalisation (testdata/dev27, compiled ResNet-101 b128:
// BatchNorm and pointwise kernels 12.7 ms, against 48.3 eager).
func compiledBatchNorm(o *op, g *Graph, r *rates, dt DType) (fwd, bwd float64) {
	in := float64(g.tensors[o.in[0]].bytes())
	return r.stream("sum", dt, in), r.stream("sum", dt, 2*in)
}

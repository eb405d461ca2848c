package memmodel

// fmap is a feature map flowing through a CNN: the tensor and its shape.
type fmap struct {
	t          Tensor
	n, c, h, w int64
	// channelsLast: the tensor's strides are NHWC (a permuted view, or an
	// op that followed one); cuDNN then runs the convolutions that read it
	// in channels_last, with other kernels than NCHW's.
	channelsLast bool
}

// conv2d is nn.Conv2d (torchvision's convs feeding BatchNorm have no bias).
// cuDNN's workspace for each of its calls is allocated after that call's
// output and freed at once (conv_workspace.go).
func (b *builder) conv2d(x fmap, cout, k, stride, pad, groups int64, bias bool) fmap {
	ho := (x.h+2*pad-k)/stride + 1
	wo := (x.w+2*pad-k)/stride + 1
	w := b.param(cout * x.c / groups * k * k)
	var bp Tensor = -1
	if bias {
		bp = b.param(cout)
	}
	xc, wc, bc := b.lowpArgs(x.t, w, bp)
	ins := []Tensor{xc, wc}
	if bc >= 0 {
		ins = append(ins, bc)
	}
	y := b.out(x.n*cout*ho*wo, b.dt(xc), ins...)
	// ConvolutionBackward0 has one formula for input, weight and bias
	// (derivatives.yaml), so autograd saves both the input and the weight
	// whenever either needs a gradient: a frozen conv on a map that needs
	// one (a UNet behind its first LoRA layer) still keeps its input,
	// unlike a frozen linear, whose mm formulas save each operand only
	// for the other's gradient
	var save []Tensor
	if b.rg(wc) || b.rg(xc) {
		save = []Tensor{xc, wc}
	}
	o := b.op("conv2d", ins, []Tensor{y}, save)
	o.flops = 2 * float64(x.n*cout*ho*wo*(x.c/groups)*k*k)
	o.bwdFlops = o.flops
	if b.rg(xc) {
		o.bwdFlops += o.flops
	}
	o.matmul = groups == 1
	o.conv = &convShape{n: x.n, cin: x.c, cout: cout, h: x.h, ho: ho, k: k, stride: stride, groups: groups,
		dgrad: b.rg(xc), wgrad: b.rg(wc), channelsLast: x.channelsLast}
	outB := b.tt(y).bytes()
	inB := b.tt(xc).bytes()
	wB := b.tt(wc).bytes()
	scale := func(n int64) int64 { return int64(float64(n) * b.workspace) }
	switch {
	case x.channelsLast && groups == x.c && b.dt(xc).Size() == 2:
		o.gradWork = []int64{0, scale(depthwiseHalfWgradWorkspace(x.n, x.c, k))}
	case x.channelsLast && b.dt(xc) == F32 && x.c == 3 && k == 7 && !b.rg(xc):
		// ResNet's float32 7×7 stem on a channels-last image: cuDNN's
		// weight gradient takes a workspace of 1.28× the output, freed at
		// once (dev35's ResNet-50 b64 fp32 trace: 263.0 MB for a 205.5 MB
		// output, the step's last backward allocation and a segment of its
		// own; without it plan was 3.2% low on reserved there and 3.4% on
		// late33's b96). EfficientNet's float32 3×3 stem takes none of
		// that size (dev37's traces).
		o.gradWork = []int64{0, scale(outB * 128 / 100)}
		o.fwdTemp = []int64{scale(stemPadBytes(x, b.dt(xc)))}
	case x.channelsLast && groups == 1:
		// a dense conv on an NHWC map (ConvNeXt's 2×2 downsampling):
		// cuDNN takes a workspace of the weight's bytes forward and for
		// the data gradient, none for the weight gradient, which comes
		// back channels_last, so AccumulateGrad clones it to the
		// parameter's contiguous layout (the ConvNeXt bf16 and float32
		// traces, every downsampling conv; the float32 192→384 conv's
		// weight gradient also took 3× the weight, left out)
		o.fwdTemp = []int64{scale(wB)}
		switch {
		case x.c == 3 && k == 7 && !b.rg(xc):
			o.fwdTemp = []int64{scale(stemPadBytes(x, b.dt(xc)))}
		case b.dt(xc).Size() == 2 && k == 1 && stride == 2 && x.c == 64 && x.h == 56:
			// ResNet-18/34's first downsample (the 1×1/2 64→128 shortcut
			// on 56×56, run after the block's second conv) in fp16 or bf16
			// NHWC takes its input plus its output forward, the NCHW
			// general rule (ResNet-18 b128 fp16: 73.5 MiB, b128 bf16 the
			// same, b512 bf16: 294.0, again in the recomputation; dev35,
			// dev41, dev39); the later shortcuts and ResNet-50's 256→512
			// take none
			o.fwdTemp = []int64{scale(inB + outB)}
		}
		o.gradWork = []int64{scale(wB), 0}
		b.g.params[b.tt(w).param].cloneGrad = true
	case x.channelsLast:
		o.bwdTemp = channelsLastConvWorkspace(inB, groups, x.c, k, ho, b.dt(xc), b.workspace)
	case groups == x.c && groups > 1 && b.dt(xc) == F16 && cudnnHalfDepthwise(x.n, x.c, x.w, k, stride):
		fw, dg, wg := halfDepthwiseWorkspace(x.c, x.w, k, stride, inB, outB)
		setConvWork(o, scale, fw, dg, wg, b.rg(xc), b.rg(wc))
	case groups != 1:
	case k == stride && !b.rg(xc):
		// a patchify stem on the image (ConvNeXt's 4×4/4, ViT's 16×16/16):
		// in float32 no forward workspace and a few MB backward (ConvNeXt-T
		// b64 fp32 trace: none beside the 77 MB output, 3.4 and 8 MB after
		// the bias gradient); in half precision the strided rule of
		// halfConvWorkspace
		if b.dt(xc).Size() == 2 {
			o.fwdTemp, o.bwdTemp = halfConvWorkspace(inB, outB, k, stride, b.workspace)
		}
	case b.dt(xc).Size() == 2 && !b.rg(xc) && x.c == 3 && k == 3 && stride == 2:
		o.gradWork = []int64{0, 0}
		if b.rg(wc) {
			o.gradWork[1] = scale(halfStem3x3Wgrad(inB, outB, wB))
		}
	case b.dt(xc) == BF16 && !b.rg(xc) && k > stride && stride > 1:
		// a strided bf16 stem with overlapping windows (the image needs no
		// gradient) picks other algorithms than float32 and fp16 do: 1.5×
		// its output forward, and for the weight gradient 1.5× its output
		// plus 328 bytes per weight byte: 160.3 MB at ResNet-50 b64 and
		// 237.4 MB at b96 (with and without checkpointing), the fixed part
		// the same at both batches; one block larger than any the cache
		// holds then.
		o.fwdTemp = []int64{scale(maxI64(5*inB/4, 3*outB/2))}
		o.gradWork = []int64{0, scale(3*outB/2 + 328*wB)}
	case b.dt(xc) == F16 && !b.rg(xc) && x.c == 3 && k == 7 && stride == 2:
		// ResNet's fp16 NCHW stem works on the image with its channels
		// padded to four (stemPadBytes): forward its output plus that,
		// 183.77 MiB at b96, 9.19 more than input plus output, and its
		// weight gradient the padded channel more than the general rule
		// (9.11 MiB at b96, 24.43 at b256, 49.31 at ResNet-34 b512; dev44,
		// dev54, dev55)
		_, dg, wg := convWorkspace(convWork{n: x.n, cin: x.c, cout: cout, k: k, stride: stride, h: x.h, ho: ho,
			in: inB, out: outB, weight: wB, half: true})
		fw := outB + stemPadBytes(x, F16)
		wg += inB / 3
		setConvWork(o, scale, fw, dg, wg, false, b.rg(wc))
	default:
		fw, dg, wg := convWorkspace(convWork{n: x.n, cin: x.c / groups, cout: cout, k: k, stride: stride, h: x.h, ho: ho,
			in: inB, out: outB, weight: wB, half: b.dt(xc).Size() == 2})
		setConvWork(o, scale, fw, dg, wg, b.rg(xc), b.rg(wc))
	}
	if bias && b.rg(ins[2]) {
		// the bias gradient sums the output gradient over batch and pixels
		o.bwdTemp = append(o.bwdTemp, biasGradScratch(x.n*ho*wo, cout, b.ctaLimit)...)
	}
	return fmap{y, x.n, cout, ho, wo, x.channelsLast}
}

// stemPadBytes is the forward workspace of ResNet's 7×7 stem on a
// channels-last image: cuDNN's NHWC kernels take the 3-channel image
// copied with its channels padded, to 8 in bf16 and 4 in fp16, unpadded
// in float32, freed when the call returns (the stem's forward in every
// channels-last ResNet trace: ResNet-50 b64 bf16 49.05 MiB, fp32 36.79;
// ResNet-18 b128 fp16 49.02, b512 bf16 392.05; each 20–50 KB over the
// padded image, covered by stemPadSlack). EfficientNet's 3×3 stem and
// ConvNeXt's 4×4 patchify stem take none (dev35's traces). Beside the
// step's peak it is one more transient block, which decides how the
// backward's gradients fit the cache: without it plan put ResNet-18 b512
// bf16 checkpointed 6.7% over on reserved (late34, dev39).
func stemPadBytes(x fmap, dt DType) int64 {
	c := int64(3)
	switch dt {
	case BF16:
		c = 8
	case F16:
		c = 4
	}
	return x.n*c*x.h*x.w*dt.Size() + stemPadSlack
}

// stemPadSlack is what the stem's padded copy asks beyond the padded
// image (20–50 KB in the traces).
const stemPadSlack = 64 << 10

// channelsLastConvWorkspace is the backward cuDNN workspace of a conv on
// an NHWC map (ConvNeXt after its stem). The dense 2×2 downsampling convs
// take a few MB at most, forward or backward, in float32 and in bf16
// (half-precision depthwise convs: depthwiseHalfWgradWorkspace); the float32 depthwise 7×7 conv's
// weight gradient takes 8× its input plus about 10 MB while its maps are
// 28×28 or larger (ConvNeXt-T b64 and ConvNeXt-S b32, fp32, with and without
// checkpointing: 626.5 MB for a 77 MB input, 318.5 MB for 38.5 MB, 164.4 MB
// for 19.3 MB) and none at 14×14 and 7×7. These blocks get a segment of their
// own, which is what float32 ConvNeXt's reserved memory is made of.
// EfficientNet's float32 3×3 and 5×5 depthwise convolutions take none of
// it: given the same rule, plan put EfficientNet-B0 b192 fp32 channels-last
// 54% over its reserved peak (late34), and dev37's snapshots of B0 b64 and
// B2 b32 54% and 35% over.
func channelsLastConvWorkspace(inB, groups, cin, k, ho int64, dt DType, scale float64) []int64 {
	if groups == 1 || groups != cin || dt != F32 || ho < 28 || k != 7 {
		return nil
	}
	return []int64{int64(float64(8*inB+10<<20) * scale)}
}

// depthwiseHalfWgradWorkspace is the workspace cuDNN takes for the weight
// gradient of a half-precision depthwise k×k conv on an NHWC map: 32 bytes
// per image, channel and tap, whatever the map's size, allocated after the
// weight gradient and freed when the call returns; the data gradient and
// the forward take none. Read off every depthwise 7×7 conv of the ConvNeXt
// bf16 H200 traces (tiny b64 and b128, small b32, b64 and b96, with and
// without checkpointing: 4.8 MB for 96 channels at b32 up to 154 MB for
// 768 at b128, all four stages). Only k = 7 was measured: the per-tap
// form is an assumption for other kernels.
func depthwiseHalfWgradWorkspace(n, c, k int64) int64 { return n * c * k * k * 32 }

// halfStem3x3Wgrad is the weight-gradient workspace of a half-precision
// 3×3 stride-2 stem on the RGB image (EfficientNet's, 3→32 or 3→40
// channels); it runs forward without a workspace and needs no data
// gradient. cuDNN asks the image with its 3 channels padded to 8 (8/3 of
// its bytes), plus the output, plus 675 bytes per weight byte: the
// EfficientNet-B0 traces in bf16 at batch 64, 96 and 128 (vision6, dev12,
// unseen, dev17's checkpointed b128) and fp16 at 64 (blind, dev17's
// checkpointed) ask 99.11, 148.11 and 197.12 MiB, n·1605632 bytes plus
// 1165968 (1175184 at b128), and B3's 40-channel stem at b64 (dev10) 111.64
// MiB, n·1806336 plus 1457424; the fixed part is 674.7 weight bytes on
// both. At 300 px (B3 b64 fp16, dev17's resv13 trace, the only one) it
// asks 148.98 MiB where this gives 199.1, another algorithm: over, at the
// end of the backward, where the cache has room (that row is planned
// -0.3% reserved). ResNet's 7×7 stem asks the same padded image plus
// output (its 1.5× output), but forward too and with another fixed part
// (the bf16 case of conv2d).
func halfStem3x3Wgrad(in, out, weight int64) int64 { return 8*in/3 + out + 675*weight }

// halfConvWorkspace is the earlier, coarser estimate of a dense fp16/bf16
// conv's workspace, kept for the convolutions convWorkspace was not read
// on: half-precision patchify stems (ViT, ConvNeXt, DiT) and Whisper's
// conv1d. It was fitted on ResNet-50 (b64 bf16/fp16 fixtures and the b96
// bf16 blind capture, all stages): a 1×1 stride-1 conv runs without a
// forward workspace and takes about a third of its larger tensor for the
// weight gradient; a strided conv wants 1.5× its input (1×1) or the larger
// of 1.25× its input and 1.5× its output (k>1, the stem included); a k>1
// stride-1 conv twice its output. Backward asks the same again for the
// data gradient and slightly more for the weight gradient, one after the
// other (the strided 1×1 downsample's 231 MB requests at b96 are what grow the
// cache under checkpointing).
func halfConvWorkspace(inB, outB, k, stride int64, scale float64) (fwd, bwd []int64) {
	var ws int64
	switch {
	case k == 1 && stride == 1:
		return nil, []int64{int64(float64(maxI64(inB, outB)) / 3 * scale)}
	case k == 1:
		ws = 3 * inB / 2
	case stride > 1:
		ws = maxI64(5*inB/4, 3*outB/2)
	default:
		ws = 2 * outB
	}
	ws = int64(float64(ws) * scale)
	// the weight-gradient algorithm asks 1–4% more than the data one, enough
	// to need a segment of its own when the cache holds one of ws exactly
	return []int64{ws}, []int64{ws, ws * 51 / 50}
}

// batchNorm is nn.BatchNorm2d in training mode: saves its input and the
// per-channel mean and inverse std.
func (b *builder) batchNorm(x fmap) fmap {
	w, bb := b.param(x.c), b.param(x.c)
	b.buffer(x.c * 4)
	b.buffer(x.c * 4)
	b.buffer(8)
	y := b.out(b.numel(x.t), b.dt(x.t), x.t, w)
	m := b.g.newTensor(x.c, F32, false)
	v := b.g.newTensor(x.c, F32, false)
	o := b.op("batch_norm", []Tensor{x.t, w, bb}, []Tensor{y, m, v}, []Tensor{x.t, m, v})
	o.flops, o.bwdFlops = 4*float64(b.numel(x.t)), 6*float64(b.numel(x.t))
	o.plane, o.nhwc = x.h*x.w, x.channelsLast
	x.t = y
	return x
}

// relu_ is nn.ReLU(inplace=True): no new storage, saves its result.
func (b *builder) relu_(x fmap) fmap {
	y := b.alias(x.t)
	o := b.op("relu_", []Tensor{x.t}, []Tensor{y}, []Tensor{y})
	o.flops = float64(b.numel(x.t))
	x.t = y
	return x
}

// act applies an out-of-place activation (SiLU, GELU) to a feature map.
func (b *builder) act(x fmap, kind string) fmap {
	x.t = b.unary(kind, x.t, b.dt(x.t), true, false)
	return x
}

// maxPool is nn.MaxPool2d; it saves its input and int64 indices.
func (b *builder) maxPool(x fmap, k, stride, pad int64) fmap {
	ho := (x.h+2*pad-k)/stride + 1
	wo := (x.w+2*pad-k)/stride + 1
	n := x.n * x.c * ho * wo
	y := b.out(n, b.dt(x.t), x.t)
	idx := b.g.newTensor(n, I64, false)
	o := b.op("max_pool2d", []Tensor{x.t}, []Tensor{y, idx}, []Tensor{x.t, idx})
	o.flops = float64(n * k * k)
	return fmap{y, x.n, x.c, ho, wo, x.channelsLast}
}

// avgPool is adaptive average pooling to 1×1 (+ flatten, a view).
func (b *builder) avgPool(x fmap) fmap {
	y := b.out(x.n*x.c, b.dt(x.t), x.t)
	o := b.op("adaptive_avg_pool2d", []Tensor{x.t}, []Tensor{y}, nil)
	o.flops = float64(b.numel(x.t))
	if x.channelsLast {
		// on an NHWC map the mean over H and W is a column reduction (the
		// H·W values of each of the n·c outputs lie c apart), whose
		// float32 partial sums ATen stages in a buffer for the call
		// (biasGradScratch, to the byte: EfficientNet's squeeze-excitation
		// pools on 112×112 and 56×56 maps, 49–135 MiB in dev35's, dev37's,
		// dev39's and dev40's traces; none on 28×28 and smaller). Without
		// it plan put EfficientNet-B4 b32 bf16 channels-last 5.9% over on
		// reserved (late35): the block is a segment later requests split.
		o.fwdTemp = biasGradScratch(x.h*x.w, x.n*x.c, b.ctaLimit)
	}
	return fmap{y, x.n, x.c, 1, 1, false}
}

func maxI64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

func minI64(a, b int64) int64 {
	if a < b {
		return a
	}
	return b
}

// addMap_ is the in-place residual `out += identity` of torchvision blocks.
func (b *builder) addMap_(x, y fmap) fmap {
	z := b.alias(x.t)
	b.tt(z).grad = b.rg(x.t) || b.rg(y.t)
	o := b.op("add_", []Tensor{x.t, y.t}, []Tensor{z}, nil)
	o.passGrad = []bool{true, true}
	o.flops = float64(b.numel(x.t))
	x.t = z
	return x
}

// imageInput allocates the batch of images and labels.
func (b *builder) imageInput(batch, image int64) (fmap, Tensor) {
	x := b.input(batch*3*image*image, b.pdt)
	y := b.input(batch, I64)
	if b.channelsLast {
		// the batch arrives NCHW and is copied to channels-last
		// (x = x.contiguous(memory_format=torch.channels_last), as the
		// PyTorch tutorial and the reference training scripts do after
		// the copy to the GPU): for a moment the image is held twice,
		// then the NCHW original is dropped (every channels-last trace:
		// two image-sized blocks, the first freed after the copy)
		o := b.op("contiguous", []Tensor{x}, nil, nil)
		o.fwdTemp = []int64{b.tt(x).bytes()}
		o.bytes = float64(2 * b.tt(x).bytes())
		o.light = true // one tensor method call, no module
	}
	return fmap{x, batch, 3, image, image, b.channelsLast}, y
}

// classify ends a vision model: linear head on pooled features and the loss.
func (b *builder) classify(x fmap, classes int64) {
	logits := b.linear(x.t, x.c, classes, true, "fc")
	b.g.loss = b.crossEntropy(logits, classes)
}

// setConvWork gives a convolution its cuDNN workspaces: fw forward (none
// when zero), dg for the data gradient and wg for the weight gradient,
// each only where that gradient is taken.
func setConvWork(o *op, scale func(int64) int64, fw, dg, wg int64, dataGrad, weightGrad bool) {
	if fw > 0 {
		o.fwdTemp = []int64{scale(fw)}
	}
	o.gradWork = []int64{0, 0}
	if dataGrad {
		o.gradWork[0] = scale(dg)
	}
	if weightGrad {
		o.gradWork[1] = scale(wg)
	}
}

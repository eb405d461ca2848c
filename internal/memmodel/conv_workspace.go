package memmodel

// Library workspaces the step generator schedules: cuDNN's of dense NCHW
// convolutions (this part), then cuBLAS's and cuBLASLt's of GEMMs (at the
// end of the file).
//
// cuDNN workspaces of dense NCHW convolutions.
//
// With cudnn.benchmark off (PyTorch's default) ATen asks cuDNN's
// heuristics for an algorithm per call and allocates the workspace that
// algorithm wants through the caching allocator, right after the call's
// output, and frees it when the call returns (Conv_v8.cpp). A training
// step makes three such calls per convolution: the forward, then in
// backward the data gradient (after the input gradient is allocated) and
// the weight gradient (after the weight gradient is allocated), each with
// its own workspace. The sizes below are read off every convolution of
// the ResNet-50 H200 traces (float32 at batch 8, 64 and 256; fp16 and
// bf16 AMP at 64): the workspace is a function of the tensors' sizes in
// all three passes, and the class of the convolution decides which.

// splitKMax bounds the partial weight gradients a weight-gradient
// algorithm keeps beside the data-gradient workspace (see convWorkspace).
const splitKMax = 8 << 20

// halfLargeBatch and halfDownsampleBatch are the batches from which cuDNN's
// heuristics pick other weight-gradient algorithms for fp16 and bf16 3×3
// convolutions and strided 1×1 ones, which keep float32 split-K partials
// beside the general workspace (halfSplitK). In dev54 and dev55's NCHW
// ResNet traces the 3×3 convs keep the batch-64 rule at b80 and take the
// larger partials from b96; the downsamples already at b80. 65-79 and
// 81-95 are not measured.
const (
	halfLargeBatch      = 96
	halfDownsampleBatch = 80
)

// workspaceTail is what cuDNN's workspaces ask beyond the tensors they
// are sized on: 16 to 431 bytes in the traces (147 most often), so the
// allocator rounds them up to the next 512 bytes, and a workspace of whole
// MiB (294 MiB for the downsample) needs a segment 2 MiB larger than it.
const workspaceTail = 256

// fp16 and bf16 weight gradients keep fewer partials: 1.5–3.4 MiB for
// convs with less than 2 MiB of float32 weight, none for wider ones (the
// 3×3 256→256 and 512→512 convs, the 512→1024 and 1024→2048 downsamples of
// the ResNet-50 b64 fp16 and bf16 traces).
const (
	splitKHalfMax  = 2 << 20
	splitKHalfWide = 2 << 20
)

// convWork is one dense convolution as the workspace rule sees it.
type convWork struct {
	n, cin, cout, k, stride, h, ho int64
	in, out, weight                int64 // input, output and weight bytes in the compute type
	half                           bool  // fp16 or bf16 compute type
}

// convWorkspace returns the forward, data-gradient and weight-gradient
// workspace requests of convolution c (0: none).
//
//   - A 1×1 stride-1 convolution on a map of 14×14 or more runs implicit
//     GEMMs that need no workspace forward nor for the data gradient; its
//     weight gradient keeps one float32 partial gradient per image
//     (n·cin·cout·4 bytes: 1 MiB for 64→64 at batch 64, 64 MiB for
//     256→1024) until that outgrows the general algorithm's workspace below,
//     which it then takes (ResNet-50 b256's 14×14 1×1 convs: 253 MiB, not 256).
//   - Every other dense convolution (k > 1, strided, or a 7×7 map) wants
//     its input plus its output forward and for the data gradient, plus the
//     weight when k > 1 (ResNet-50 b64 float32: 98.14 MiB for the 3×3 64→64
//     at 56×56, 294 MiB for the strided 1×1 256→512 downsample's data
//     gradient; fp16 and bf16 the same in their own bytes).
//   - The weight gradient wants the data gradient's workspace and its
//     split-K partial sums besides: about 14 float32 copies of the weight,
//     at most 8 MiB (1.97 MiB for 64→64 3×3, 7.88 for 128→128, 6.75–8.25 for
//     the wider ones and the downsamples; fp16/bf16 take 0–3.4 MiB). That
//     makes it a little larger than the data gradient's block, so a cache
//     that just grew a segment for one cannot serve the other from it: the
//     downsample's 294 then 302 MiB requests are two segments.
//
// The forward figure sometimes carries 2 or 8 MiB more (the 14×14 3×3 convs
// in float32; the 7×7 512→512 ones at b128 in half precision), left out.
// Half precision differs by batch: halfSplitK, halfPointwiseWgradExtra.
func convWorkspace(c convWork) (fwd, dgrad, wgrad int64) {
	partials := n32(c.weight, c.cin*c.cout*c.k*c.k)
	splitK := minI64(14*partials, splitKMax)
	if c.half {
		splitK = halfSplitK(c, partials)
	} else if c.k == 1 && partials >= 4<<20 && c.cout > c.cin {
		// float32 1×1 expansions with a weight of 4 MiB or more keep no
		// partials: the fixtures' ResNet-50 b64 trace asks input plus
		// output for every 512→2048 weight gradient (30.625 MiB) and the
		// 1024→2048 downsample's (73.50 MiB), where the 2048→512
		// reductions beside them take the 8 MiB (38.625 MiB)
		splitK = 0
	}
	var kw int64 // the weight counts for kernels wider than 1
	if c.k > 1 {
		kw = c.weight
	}
	general := GeneralConvWorkspace(c.in, c.out, kw)
	if c.k == 1 && c.stride == 1 && c.ho == 14 && c.half && c.cin == 1024 && c.cout == 512 && c.n >= 64 {
		// ResNet-50/101/152's first layer4 conv (1024→512 on 14×14, its
		// stride in the next conv) takes the general workspace forward and
		// for the data gradient in fp16 and bf16 from batch 64 (36.75 MiB
		// at b64, 110.25 at b192; none at b32 and b48); the 1024→256 convs
		// beside it take none
		fwd, dgrad = general, general
	}
	if c.k == 1 && c.stride == 1 && c.ho >= 14 {
		perImage := c.n * c.cin * c.cout * 4
		if c.half {
			return fwd, dgrad, minI64(perImage, c.in+c.out+halfPointwiseWgradExtra(c, partials))
		}
		return fwd, dgrad, minI64(perImage, c.in+c.out+c.weight+splitK)
	}
	fwd = general
	if c.k == 1 && c.stride == 1 && c.ho == 7 && c.half && c.n <= 96 && c.cout >= 256 && !(pow2(c.cin) && pow2(c.cout)) {
		// fp16/bf16 1×1 convs on the 7×7 maps with at least 256 output
		// channels, not both channel counts powers of two, take the
		// per-image float32 partials for the weight gradient as the larger
		// maps do, uncapped; they keep the general forward workspace.
		// ATen asks cuDNN's heuristics (benchmark off) and takes the first
		// engine whose workspace it can allocate (Conv_v8.cpp's
		// try_configs), so no PyTorch limit is involved: the choice is
		// cuDNN's and is read off four traces.
		//   - Batch 64, every such conv, no data-gradient workspace:
		//     EfficientNet-B3 (dev10; 232→1392, 1392→384, 384→2304, 2304→384,
		//     the 384→1536 head: 78.8–216 MiB; 384→2304 alone asks a
		//     data-gradient workspace too) and B0 (vision6 in bf16, the
		//     blind trace in fp16 alike; 192→1152, 1152→320, 320→1280).
		//   - Batch 96 (dev12, B0): only the expansions (cin < cout: 192→1152
		//     81 MiB, the 320→1280 head 150 MiB), after the general
		//     data-gradient workspace; the 1152→320 projection takes the
		//     general workspace in all three passes, no split-K. B2 at 96
		//     (late8, its 1248→352 a projection) is then planned within 0.01%.
		//   - Batch 128 (the unseen B0 bf16 trace) and up: none, the
		//     general rule below.
		// The projections to 192 and 232 channels, ResNet-50's 512↔2048 and
		// the squeeze-excitation convs on 1×1 maps keep the general
		// workspace. Only 7×7 maps: B3 at its native 300 px (10×10, pick4's
		// fp16 b64x4) is planned +0.03% allocated without the partials, +1.7%
		// with them, and SD 1.5's UNet at batch 8 (1×1 convs on 8×8 maps)
		// would move from +0.14% to -0.20% reserved. Below batch 64 the
		// batch-64 behaviour is assumed (the larger figure), and 65–95 and
		// 97–127 are not measured. At batch 48 (testdata/dev31,
		// EfficientNet-B4) cuDNN took the partials for the 272→1632
		// expansions only, not for 448→2688, 2688→448 or the 448→1792
		// head: the step is planned 3.6% over, kept (one trace does not
		// give the rule).
		perImage := c.n * c.cin * c.cout * 4
		if c.n <= 64 {
			return fwd, 0, perImage
		}
		if c.cin < c.cout {
			return fwd, general, perImage
		}
		return fwd, general, general
	}
	if c.k == 1 && c.stride > 1 && c.half && c.cin == 64 {
		// ResNet-18/34's first downsample (64→128, 1×1/2 on 56×56) runs
		// forward without a workspace in fp16 and bf16 NCHW (dev54's b512
		// traces); ResNet-50's 256→512 one takes the general workspace
		fwd = 0
	}
	if c.k == 1 && c.stride > 1 && c.h >= 56 && !c.half && c.n >= 16 {
		// float32 strided 1×1 convs on the largest maps (ResNet's first
		// downsample, 256→512 at 56×56) run forward with their input and
		// weight only: 196.5 MiB at batch 64, not 294 (batch 16–256; batch 8
		// takes input plus output)
		fwd = c.in + c.weight + workspaceTail
	}
	return fwd, general, general + splitK
}

// n32 is the float32 size of numel elements, unless the tensor (bytes) is
// already wider.
func n32(bytes, numel int64) int64 { return maxI64(bytes, 4*numel) }

// pow2 reports whether n is a power of two.
func pow2(n int64) bool { return n > 0 && n&(n-1) == 0 }

// halfSplitK is the split-K partials a fp16/bf16 weight gradient keeps
// beside the general workspace for a conv with k > 1 or a strided 1×1 one,
// given the weight's float32 bytes (partials). Read off the NCHW ResNet-18,
// 34, 50 and 152 traces of dev54 and dev55 (batch 32 to 512, fp16 and bf16
// alike) and the fixtures' b64 fp16/bf16 ones, which the batch-64 rule was
// first read off:
//   - k > 1 below halfLargeBatch: fourteen copies up to 2 MiB for weights
//     under 2 MiB, none for wider ones (the batch-64 rule; b80's 128→128
//     keeps 3.7 MiB). From it: thirteen copies up to 7 MiB (128→128 3×3:
//     7.31 MiB; 256→256: 6.75), five sixths of a weight of 4 MiB or more
//     (512→512: 7.5 MiB in fp16, 6.0 in bf16; ResNet-18/34's 256→512/2:
//     3.75); from batch 256 the convs of at most 2.25 MiB keep seven copies
//     when that is more (256→256: 15.75 MiB at ResNet-50 b256 and ResNet-34
//     b512).
//   - strided 1×1 (the downsamples) below batch 80: three copies of a
//     weight under 2 MiB (256→512: 1.5 MiB at b32, b48, b64), none for
//     wider ones. From it, ResNet-18/34's 64→128 1.5 MiB and 128→256 3.75
//     MiB at any batch, their 256→512 onto 7×7 1 MiB at b256 and 2 from
//     b384, ResNet-50's 256→512 3.5 and 512→1024 6 (16 at b256, left out),
//     none for a weight of 4 MiB or more (1024→2048 onto 7×7).
//
// A few MiB a call, but they decide which cached block a workspace fits: at
// b192 the layer3 downsample's 226.5 MiB needs a segment of its own where
// the batch-64 rule's 220.5 fit a cached 222 MiB one, and before these the
// model was 1.5-3.9% low on every NCHW ResNet row at batch 128 and more in
// half precision (late5, late8, late47, late48).
func halfSplitK(c convWork, partials int64) int64 {
	// the batch-64 rule: fourteen copies up to 2 MiB, none for wide weights
	small := minI64(14*partials, splitKHalfMax)
	if partials >= splitKHalfWide {
		small = 0
	}
	if c.k > 1 {
		if c.n < halfLargeBatch {
			return small
		}
		if partials >= 4<<20 {
			return partials * 5 / 6
		}
		s := minI64(13*partials, 7<<20)
		if c.n >= 256 && partials <= 9<<18 {
			s = maxI64(s, 7*partials)
		}
		return s
	}
	if c.stride == 1 {
		// 1×1 convs: on maps of 14×14 or more halfPointwiseWgradExtra
		// decides; on smaller ones (7×7) the batch-64 rule stands
		return small
	}
	switch {
	case c.n < halfDownsampleBatch && partials >= splitKHalfWide:
		return 0
	case c.n < halfDownsampleBatch:
		return 3 * partials
	case c.cin == 64:
		return 3 << 19
	case c.cin == 128:
		return 15 << 18
	case c.cin == 256 && c.ho == 7 && c.n < 384:
		return 1 << 20
	case c.cin == 256 && c.ho == 7:
		return 2 << 20
	case partials >= 4<<20:
		return 0
	}
	return minI64(7*partials, 6<<20)
}

// halfPointwiseWgradExtra is what a fp16/bf16 1×1 stride-1 convolution on a
// map of 14×14 or more asks for its weight gradient beyond its input and
// output: nothing below batch 64 (256↔1024 on 14×14: 15.31 MiB at b32,
// 22.97 at b48, their input plus output), three float32 copies of the
// weight from it (33.63 MiB at b64, 48.94 at b96, 94.88 at b192), except the
// 2 MiB 1024→512, which keeps none below batch 128 (36.75 MiB at b64, 55.13
// at b96; 79.50 at b128).
func halfPointwiseWgradExtra(c convWork, partials int64) int64 {
	if c.n < 64 || (partials >= 2<<20 && c.n < 128) {
		return 0
	}
	return 3 * partials
}

// GeneralConvWorkspace is the workspace cuDNN's general algorithm asks for
// one pass of a dense convolution: its input, output and weight bytes (the
// weight only for kernels wider than 1) and a tail of a few hundred bytes.
// Whisper's front-end Conv1d forwards in dev95's generate traces ask this
// to within the tail in float32 and bf16 (the ResNet rules above it).
func GeneralConvWorkspace(in, out, weight int64) int64 { return in + out + weight + workspaceTail }

// cuBLAS and cuBLASLt workspaces: where in the allocation sequence a
// GEMM's workspace lands (after its output) and the cuBLASLt workspace
// each thread allocates once.

// workspaceAfterNext has a workspace of n bytes allocated right after
// the next allocation, the GEMM's output, which is allocated before the
// cuBLASLt call that asks for the workspace; flushWorkspace emits it when
// the op allocated nothing.
func (gen *generator) workspaceAfterNext(n int64) { gen.wsAfter = append(gen.wsAfter, n) }

func (gen *generator) flushWorkspace() {
	ws := gen.wsAfter
	gen.wsAfter = nil
	for _, n := range ws {
		gen.alloc(n, CatTemporaries, "cublas_workspace")
	}
}

// CublasLtWorkspace is the workspace cuBLASLt's first call on a thread
// allocates (torch 2.11's default, 1 MiB: the H200 traces of BERT,
// Whisper, ResNet-50's fc and ConvNeXt allocate it right after the first
// biased linear's output and the cuBLAS workspace, and never free it; a
// checkpointed BERT's recompute allocates a second on the backward
// thread). Linears without a bias run plain cuBLAS (none in the Qwen3
// trace).
const CublasLtWorkspace = 1 << 20

// ltWorkspace schedules the running thread's cuBLASLt workspace for a
// linear with a bias, once per thread.
func (gen *generator) ltWorkspace(o *op) {
	if !o.ltBias || o.noLt || gen.cfg.cublasWorkspace <= 0 {
		return
	}
	done := &gen.ltFwd
	if gen.phase == PhaseBackward {
		done = &gen.ltBwd
	}
	if !*done {
		*done = true
		gen.workspaceAfterNext(CublasLtWorkspace)
	}
}

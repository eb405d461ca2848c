package memmodel

import "math"

// layerNormRowS is the GPU time per normalised row that bounds a
// LayerNorm forward from below on the H200, whatever the row's width.
// ATen's vectorized_layer_norm_kernel runs one thread block per row: each
// block reduces its row to a mean and variance (a Welford combine across
// warps through shared memory), writes them and normalises. That work
// per row does not shrink with the row, so over narrow rows (ConvNeXt's
// channel-last LayerNorms over 96–384 channels, 150,528 rows per norm
// at batch 48) the kernel is bound by its rows, not its bytes: the
// ConvNeXt-S b48 bf16 profile (testdata/profile) spends 2.049 ms on its
// 41 forward LayerNorms where their bytes at the calibrated 1,024-wide
// rate take 0.74 ms. Its 1,166,592 rows of the 37 norms narrower than
// 768 give 1.73 ns per row (the three 768-wide stage-4 norms stay
// bandwidth-bound). The dev7 ConvNeXt-S b96 checkpointed profile, which
// fitted nothing, measures 6.959 ms for its 77 forward LayerNorms
// (recomputation included) against 6.98 ms so priced. Wide rows stay
// bandwidth-bound: ViT-B/16 b128's 768-wide norms (25,216 rows) would
// need 44 µs by rows against 62 µs by bytes (profiled 72 µs).
const layerNormRowS = 1.73e-9

// layerNormRows is how many rows a LayerNorm op normalises: its input's
// elements over its weight's (the normalised shape). ok is false for a
// norm without a weight (elementwise_affine=False, DiT's), whose width the
// graph does not record, and for every other op.
func layerNormRows(o *op, g *Graph) (float64, bool) {
	if o.kind != "layer_norm" || len(o.in) < 2 {
		return 0, false
	}
	w := g.tensors[o.in[1]].numel
	if w <= 0 || g.tensors[o.in[1]].param < 0 {
		return 0, false
	}
	return float64(g.tensors[o.in[0]].numel) / float64(w), true
}

// layerNormRowFloor is the least GPU time of LayerNorm op o's forward
// kernel by its rows (layerNormRowS), scaled to other GPUs by memS as a
// time bound by the SMs, not by bandwidth; 0 for any other op.
func (r *rates) layerNormRowFloor(o *op, g *Graph) float64 {
	rows, ok := layerNormRows(o, g)
	if !ok {
		return 0
	}
	return r.memS(rows*layerNormRowS, 0)
}

// gammaBetaRowS is the GPU time per row of ATen's single-pass LayerNorm
// weight-gradient kernel (GammaBetaBackwardCUDAKernelTemplate with a
// 32×32 thread block) on the H200. LaunchGammaBetaBackwardCUDAKernel
// (aten/src/ATen/native/cuda/layer_norm_kernel.cu, torch 2.11) launches
// one block per 32 columns of the normalised width N and no more: each
// block walks all M rows of its columns. With N/32 blocks — 24 for a
// 768-wide norm, 12 for 384 — far fewer than the H200's 132 SMs, the
// kernel takes time in proportion to its rows, whatever the width, until
// the width is wide enough for the bytes to bind (about 1,600 float32
// columns). Profiled per step (testdata/profile, dev7/profiles), the
// single-pass kernels with a partial last row tile: ViT-B/16 b128, 25 ×
// 25,216 rows of 768, 2.327 ms; ConvNeXt-S b48, 28 × 9,408 rows of 384
// and 3 × 2,352 of 768, 0.935 ms; ConvNeXt-S b96, 28 × 18,816 and 3 ×
// 4,704, 2.046 ms: 5.308 ms over 1,441,840 rows, 3.68 ns a row (3.46 to
// 3.78 by profile). The aligned-grid variant (M a multiple of 256) ran
// 4.2 ns a row on ConvNeXt-S b48's 37,632-row norms and about 4.4 on SD
// 1.5's UNet: not modelled apart.
const gammaBetaRowS = 3.68e-9

// gammaBetaTwoPassRows is the row count above which ATen splits a narrow
// LayerNorm's weight gradient over rows too (M > 64·1024 and N/32 below
// half the SMs): blocks of 32 rows write partial sums, which two
// .sum(0) reductions (weight, bias) then fold. That pass is
// bandwidth-bound: ConvNeXt-S b48's five 150,528-row norms, 578 MB in
// 0.164 ms, and b96's nine, 1.62 GB in 0.434 ms (3.5–3.7 TB/s).
const gammaBetaTwoPassRows = 64 * 1024

// gammaBeta is the GPU time of a LayerNorm's weight and bias gradients
// (see layerNormAffineGrad) and how many kernels they take; ok is false
// when op o launches none. Single-pass: the larger of its bytes at the
// reduction rate and its rows at gammaBetaRowS. Two-pass (a narrow norm
// over many rows): the bytes, then two small reductions of the partial
// sums.
func (r *rates) gammaBeta(o *op, g *Graph, dt DType) (float64, float64, bool) {
	b, ok := layerNormAffineGrad(o, g)
	if !ok {
		return 0, 0, false
	}
	bytes := math.Max(r.stream("sum", dt, b), r.launch())
	rows, ok := layerNormRows(o, g)
	if !ok {
		return bytes, 1, true
	}
	width := float64(g.tensors[o.in[1]].numel)
	sms := r.sms
	if sms == 0 {
		sms = 132 // the H200's
	}
	if rows > gammaBetaTwoPassRows && math.Floor(width/32) < float64(sms/2) {
		cols := math.Ceil(width / 32)
		parts := math.Min(math.Floor(32*1024/cols), math.Ceil(rows/32))
		partial := math.Max(r.stream("sum", F32, parts*width*4), r.launch())
		return bytes + 2*partial, 3, true
	}
	return math.Max(bytes, r.memS(rows*gammaBetaRowS, 0)), 1, true
}

// layerNormGradInput is the GPU time of a LayerNorm's input gradient
// (ATen's layer_norm_grad_input_kernel_vectorized, one block per row):
// it reads the output gradient and the input and writes the input's
// gradient, three tensors of the input's size, at the rate of a
// contiguous elementwise kernel. The calibration timed only the
// forward, whose rate (2.6 TB/s in float32) the backward does not share:
// profiled per step, ViT-B/16 b128's 25 float32 input gradients moved
// 5.8 GB in 1.474 ms (3.9 TB/s) where their forwards took 1.812 ms for
// two thirds of the bytes, and the input gradient took 0.56–0.90 of its
// forward's time in every profile with LayerNorms (ConvNeXt-S, DiT-XL,
// SD 1.5's UNet, Whisper). Like the forward it runs one block per row,
// and over narrow rows it is bound by them (layerNormGradRowS). ok is
// false for any other op.
func (r *rates) layerNormGradInput(o *op, g *Graph, dt DType) (float64, bool) {
	if o.kind != "layer_norm" || len(o.in) == 0 {
		return 0, false
	}
	t := r.stream("add", dt, 3*float64(g.tensors[o.in[0]].bytes()))
	if rows, ok := layerNormRows(o, g); ok {
		t = math.Max(t, r.memS(rows*layerNormGradRowS, 0))
	}
	return math.Max(t, r.launch()), true
}

// layerNormGradRowS is the least GPU time per row of a LayerNorm's input
// gradient on the H200, as layerNormRowS is the forward's: ConvNeXt-S
// b48 bf16 (testdata/profile) spends 1.149 ms on its 41 input gradients;
// less the 31 norms of 384 and 768 channels, bound by their bytes (0.37
// ms), the nine of 96 and 192 channels (903,168 rows) take 0.77 ms where
// their bytes need 0.33: 0.86 ns a row. The ConvNeXt-S b96 checkpointed
// profile (dev7), which fitted nothing, measures 2.303 ms for 41 and is
// priced 2.22.
const layerNormGradRowS = 0.86e-9

// issueContigIn charges the copy op o makes of its strided input before
// its own kernel (op.contigIn), in forward, recomputation and backward
// alike: a copy kernel reading and writing the input at contigInCopy's
// rate, issued by the op itself (no host of its own).
// torchvision's ViT-B/16 b128 bf16 profile counts 62 strided float32
// copies per step (3.65 ms), its 24 LayerNorms on the seq-first stream
// two each.
func (tm *timeModel) issueContigIn(o *op, g *Graph, p *pipeline) {
	if !o.contigIn || len(o.in) == 0 {
		return
	}
	p.issue(0, tm.r.contigInCopy(o, g), kCopy, 1)
}

// contigInCopy is the GPU time of the copy op.contigIn describes: input
// read and written at stridedCopySlowdown (rows of contiguous elements)
// or permutedCopySlowdown (a permuted innermost dimension) times fewer
// bytes a second than the calibrated contiguous copy.
func (r *rates) contigInCopy(o *op, g *Graph) float64 {
	bytes := 2 * float64(g.tensors[o.in[0]].bytes())
	if o.contigPermuted {
		bytes *= permutedCopySlowdown
	} else {
		bytes *= stridedCopySlowdown
	}
	return math.Max(r.stream("copy", g.tensors[o.in[0]].dt, bytes), r.launch())
}

// permutedCopySlowdown is how much longer than a contiguous copy of the
// same bytes (the calibrated copy rate) a .contiguous() of a tensor whose
// innermost dimension is permuted takes: TensorIterator cannot vectorise
// it and one side's accesses stride across rows. Whisper-c b12 bf16's
// profile (testdata/profile) runs its 26 encoder LayerNorm input copies
// (float32 [12, 1500, 512] laid out [12, 512, 1500], 73.7 MB moved each)
// in 63.8 µs apiece, 1.16 TB/s against the calibrated copy's 4.2.
const permutedCopySlowdown = 3.6

// stridedCopySlowdown is permutedCopySlowdown for a strided input whose
// rows stay contiguous (ViT's seq-first [s, b, d] stream copied to [b, s,
// d]): TensorIterator still runs its generic, unvectorised
// elementwise_kernel<128, 2> with an offset calculator per element, but
// every access is coalesced. ViT-B/16 b128 bf16's profile
// (testdata/profile) runs 62 such float32 copies per step in 3.646 ms,
// 58.8 µs apiece where its LayerNorms' copies move 155 MB each: 2.6 TB/s
// against the calibrated copy's 4.2.
const stridedCopySlowdown = 1.6

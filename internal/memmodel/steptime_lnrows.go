package memmodel

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
// kernel by its rows (layerNormRowS), scaled to other GPUs by their
// bandwidth like every memory-bound rate; 0 for any other op.
func (r *rates) layerNormRowFloor(o *op, g *Graph) float64 {
	rows, ok := layerNormRows(o, g)
	if !ok {
		return 0
	}
	return rows * layerNormRowS / r.bwScale
}

package memmodel

// The copies of a step that are not casts: .contiguous() of a permuted
// or transposed view (attention heads back to tokens, a packed
// projection split into q/k/v, a channels-last map), and the copies
// autograd makes when a gradient arrives in such a view's layout.
//
// A copy out of a permuted view runs ATen's generic elementwise kernel
// (direct_copy_kernel_cuda through gpu_kernel_impl_nocast, strided
// indexing, no vectorised loads), which is bound by elements rather than
// bytes: the Llama-small s1024 b8 profiles (testdata/profile) time its
// 168 strided copies per step at 17.8 µs each in bf16 and 17.3 µs in
// float32, the same tensors in half the bytes. A contiguous copy moves
// bf16 as fast per byte as float32 (4.05 and 4.18 TB/s calibrated), so
// a strided one runs at float32's copy bandwidth over four bytes per
// element whatever its dtype (stridedCopy).
//
// Backward, .contiguous() (CloneBackward) passes its gradient through;
// the gradient reaches the view's producer in the permuted layout, and
// the producer's backward copies it to contiguous once: one strided copy
// of the forward's size (copyBackwardBytes). A cast's gradient
// (ToCopyBackward) is one cast back, reading the gradient and writing it
// in the input's dtype: the forward's bytes once, not twice. The DiT-XL/2
// b32 bf16 profile (dev6) counts 1,624 cast kernels per step, 12.3 ms,
// which two casts per backward priced at 14.5 ms.

// stridedCopy is the GPU time of a copy out of a permuted view moving
// bytes of dtype dt (read and write): elements at float32's copy rate.
func (r *rates) stridedCopy(bytes float64, dt DType) float64 {
	return r.stream("copy", F32, bytes*4/float64(dt.Size()))
}

// copyBackwardBytes is what the backward of a cast or a .contiguous()
// moves: one copy of the forward's bytes (see above); ok is false for
// every other op.
func copyBackwardBytes(o *op) (float64, bool) {
	switch o.kind {
	case "to", "copy":
		if len(o.in) == 1 {
			return o.bytes, true
		}
	}
	return 0, false
}

// issueHeadsGradCopy charges the ViewBackward copy of a heads-split
// projection's gradient (op.headsGrad): a strided copy of the output's
// size. Its node (ViewBackward) is not charged to the host, like every
// other view's node but a slice's: Bwd was fitted without them. The
// Llama-small bf16 profile counts 7 strided bf16 copies per layer, where
// the step had 2 before the three q/k/v ones.
func issueHeadsGradCopy(o *op, g *Graph, tm timeModel, p *pipeline) {
	if len(o.out) == 0 || !g.tensors[o.out[0]].grad {
		return
	}
	y := &g.tensors[o.out[0]]
	b := 2 * float64(y.bytes())
	p.issue(0, maxF(tm.r.stridedCopy(b, y.dt), tm.r.launch()), kCopy, 1)
}

// issuePromotedGradCasts charges the casts the autograd engine makes
// when an elementwise op promoted its inputs (a bf16 projection added to
// a float32 residual stream, a bf16 query times float32 rotary tables
// under autocast): the gradient comes out in the op's output dtype and
// the engine's validate_outputs casts it to each input's own dtype, one
// cast kernel per promoted input that needs a gradient. The Llama-small
// bf16 profile counts 895 cast kernels per step, 169 more than the
// step's casts and their backward: six such inputs per layer (q and k
// each twice in apply_rotary_pos_emb, the two residual adds) are 144.
func issuePromotedGradCasts(o *op, g *Graph, tm timeModel, p *pipeline) {
	switch o.kind {
	case "add", "add_", "mul", "div":
	default:
		return // kernels that take mixed dtypes (norms, GEMMs) or one input
	}
	if g.compiled || len(o.out) == 0 || len(o.in) < 2 {
		return
	}
	out := g.tensors[o.out[0]].dt
	for _, t := range o.in {
		x := &g.tensors[t]
		if !x.grad || x.param >= 0 || x.dt == out || !x.dt.floating() || !out.floating() {
			continue
		}
		b := float64(x.numel) * float64(x.dt.Size()+out.Size())
		p.issue(tm.Small, maxF(tm.r.stream("copy", x.dt, b), tm.r.launch()), kCopy, 1)
	}
}

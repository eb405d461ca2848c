package memmodel

// Under autocast the residual stream of most transformers is float32 (the
// embedding, the position table or a norm's output) while every branch
// that joins it comes out of a bfloat16 GEMM: each residual add is
// float32 + bfloat16 → float32 over operands of one shape. TensorIterator
// does not vectorise operands of two dtypes: it runs
// unrolled_elementwise_kernel<CUDAFunctor_add<float>> with a conversion
// per load. The kernel profiles time it at one rate across families and
// sizes, bytes counting each operand once:
//
//	profile                               kernels  MB each  µs each  TB/s
//	ViT-B/16 b128 bf16 ckpt (dev12)            22      194     77.6  2.50
//	T5-large s256 b16 bf16 (dev6)              60       42     16.3  2.57
//	LLaMA-small s1024 b8 bf16 (profile)        48       84     32.1  2.61
//
// against 4.34–4.37 TB/s for the calibrated contiguous add: 1.7× longer.
// The walk priced them at the contiguous rate.
//
// Backward, AddBackward0 hands the output gradient to both inputs
// unchanged and the autograd engine casts it to each input's dtype
// (validate_outputs): one float32 → bfloat16 cast for the half operand
// (ViT-B/16's profile counts 24 such bfloat16_copy kernels beyond the
// graph's own casts). The walk still prices that backward as an add of
// twice the forward's bytes: pricing it as the cast lowered the
// predicted steps of GPT-2, BERT and ViT by 1–2%, which are already
// short, so it stays until what else their backward lacks is found.

// mixedAddSlowdown is how much longer than the calibrated contiguous add
// a same-shape add of a float32 and a half operand takes (see above).
const mixedAddSlowdown = 1.7

// mixedAdd reports whether o is an add of same-shape operands of float32
// and a half dtype.
func mixedAdd(o *op, g *Graph) bool {
	if o.kind != "add" || len(o.in) != 2 || len(o.out) != 1 {
		return false
	}
	a, b := &g.tensors[o.in[0]], &g.tensors[o.in[1]]
	if a.numel != b.numel || a.dt == b.dt || !a.dt.floating() || !b.dt.floating() {
		return false
	}
	return a.dt.Size() == 2 || b.dt.Size() == 2
}

// mixedAddForward is the forward time of a mixed add that is not
// permuted (permutedMixed prices those), ok false for any other op.
func (r *rates) mixedAddForward(o *op, g *Graph, dt DType) (float64, bool) {
	if !mixedAdd(o, g) || o.permuted {
		return 0, false
	}
	return r.stream("add", dt, o.bytes*mixedAddSlowdown), true
}

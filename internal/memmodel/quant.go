package memmodel

import "math"

// QLoRA-style 4-bit base weights, as bitsandbytes' Linear4bit stores and
// runs them, modelled from its source and then checked on four captures
// (testdata/dev6: bitsandbytes 0.50.2 built for the H200, transformers'
// from_pretrained with NF4, peft's prepare_model_for_kbit_training, bf16
// AMP; see TestQLoRAAndAdamW8bitDev6):
//
//   - storage: two 4-bit values per byte, plus one absmax per block of 64
//     weights; with double quantisation (QLoRA's default) the absmaxes
//     are themselves 8-bit, with one float32 scale per 256 of them;
//   - forward: MatMul4Bit dequantises the whole weight to the compute
//     dtype, multiplies and drops it; it saves no activation for the
//     frozen weight (the adapter's own A projection saves the input);
//   - backward: the weight is dequantised again for the input gradient.
//
// The LM head is left unquantised (llm_int8_skip_modules), as are
// embeddings and norms.

// nf4BytesPerWeight is 0.5 (4 bits) + 1/64 (8-bit absmax per 64) +
// 4/(64·256) (float32 scale per 256 absmaxes).
const nf4BytesPerWeight = 0.5 + 1.0/64 + 4.0/(64*256)

// linear4bit is a frozen bitsandbytes Linear4bit (in → outF).
func (b *builder) linear4bit(x Tensor, in, outF int64, bias bool) Tensor {
	w := b.param(in * outF)
	b.g.params[b.tt(w).param].quant = nf4BytesPerWeight
	var bc Tensor = -1
	if bias {
		bc = b.lowp(b.param(outF))
	}
	xc := b.lowp(x)
	if b.amp == F32 && b.pdt == BF16 && b.dt(xc) == F32 {
		// Linear4bit.forward casts its input to compute_dtype (bfloat16
		// where the model loads in it) before matmul_4bit, and its product
		// back: without autocast the float32 hidden states of
		// prepare_model_for_kbit_training's float32 norms still multiply
		// in bfloat16
		xc = b.cast(xc, BF16)
	}
	ins := []Tensor{xc, w}
	if bc >= 0 {
		ins = append(ins, bc)
	}
	dt := b.dt(ins[0])
	n := b.numel(x) / in
	y := b.out(n*outF, dt, ins...)
	o := b.op("linear4bit", ins, []Tensor{y}, nil)
	deq := in * outF * dt.Size()
	o.fwdTemp, o.bwdTemp = []int64{deq}, []int64{deq}
	o.flops = 2 * float64(n*in*outF)
	o.bwdFlops = o.flops
	o.matmul = true
	// priced as the Linear's GEMMs of its shape: the product and, for the
	// input's gradient, the data GEMM (the frozen 4-bit weight has none)
	o.gemm = &gemmShape{batch: 1, m: n, n: outF, k: in, dgrad: true}
	// Linear4bit.forward returns matmul_4bit(...).to(inp_dtype): under
	// AMP, where peft's prepare_model_for_kbit_training has cast the
	// embeddings and norms to float32, the projection's output is float32
	// (the compute-dtype product is a transient), so everything downstream
	// of a quantised projection saves float32.
	return b.cast(y, b.dt(x))
}

// bnb4bitHost is the host seconds bitsandbytes' 4-bit matmul adds to a
// linear4bit op's forward (and its recomputation) or its backward, beyond
// an ordinary Linear's, on tm's host; nothing for any other op.
func (tm *timeModel) bnb4bitHost(o *op) float64 {
	if o.kind != "linear4bit" {
		return 0
	}
	return bnb4bitCallHost * tm.hostScale()
}

// bnb4bitCallHost is what one pass of a Linear4bit costs the calibration
// host beyond a Linear: bitsandbytes runs it in Python (matmul_4bit's
// checks, MatMul4Bit's autograd Function, dequantize_4bit, which with
// double quantisation first dequantises the absmaxes, the cast and
// transpose of the dequantised weight) in the forward, again in a
// checkpointed recomputation, and again in the Function's Python
// backward. Without it the plan priced a QLoRA step like a LoRA one, and
// the QLoRA steps timed without history ran 1.6-2.1 times the plan on
// dev6 (three rows) and 1.0-2.3 times (median 1.65) on the nine held-out
// late9q-late12q rows, where the LoRA steps of the same captures ran a
// median 1.03 times theirs. Fitted on dev6 alone (median 1.00 at 0.24 ms
// a call-pass), the held-out rows run a median 0.97 times the plan,
// median |error| 14%, 0.70-1.23 (TestQLoRAStepTime). The dequantisation
// kernels themselves (a 4-bit weight read, its bf16 copy written, each
// pass) are not added: a few percent of a step at these sizes.
const bnb4bitCallHost = 0.24e-3

// dequant4bit is the GPU seconds a linear4bit op's dequantisation takes
// before each of its products (forward, recomputation, the input
// gradient): dequantize_4bit reads the packed weight and its absmaxes and
// writes the weight in the compute dtype, after a kernel that dequantises
// the absmaxes themselves (double quantisation); nothing for other ops.
func (tm *timeModel) dequant4bit(o *op) float64 {
	if o.kind != "linear4bit" || o.gemm == nil {
		return 0
	}
	elems := float64(o.gemm.n * o.gemm.k)
	return math.Max(tm.r.stream("copy", BF16, elems*(nf4BytesPerWeight+2)), tm.r.launch()) + tm.r.launch()
}

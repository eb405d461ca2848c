package memmodel

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
	ins := []Tensor{b.lowp(x), w}
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
	// Linear4bit.forward returns matmul_4bit(...).to(inp_dtype): under
	// AMP, where peft's prepare_model_for_kbit_training has cast the
	// embeddings and norms to float32, the projection's output is float32
	// (the compute-dtype product is a transient), so everything downstream
	// of a quantised projection saves float32.
	return b.cast(y, b.dt(x))
}

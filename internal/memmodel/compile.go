package memmodel

// torch.compile(model) for a training step, as AOTAutograd's min-cut
// partitioner (torch 2.11 defaults) and Inductor's fusion change what the
// step allocates:
//
//   - pointwise ops (casts, adds, products, activations, dropout, the
//     softmax, log-softmax and NLL of the loss, norms' arithmetic) are
//     fused into kernels: their outputs are materialised only when a
//     non-pointwise op (matmul, attention, embedding, convolution, MoE
//     routing) reads them, when they are saved for backward, or when the
//     model returns them;
//   - what a non-pointwise op saves is needed materialised in backward
//     anyway, so it stays saved (ban_recompute_materialized_backward):
//     matmul inputs, the autocast weight casts, attention's q/k/v/out;
//   - what a pointwise op saves is recomputed in backward from tensors
//     that are saved anyway (or parameters, or inputs) when its pointwise
//     ancestry reaches them within a few ops for fewer bytes than saving
//     it (greedy in forward order, an approximation of the min-cut): the
//     activation's output, RMSNorm's float32 intermediates, the loss's
//     float32 log-probabilities (the bf16 logits are kept instead);
//   - the backward of fused ops produces no gradient buffer of its own.
//
// On the H200 captures (GPT-2 s1024 b8 and LLaMA-small s1024 b4, bf16
// autocast) this puts peak allocated within −4.4%..+4.2% and reserved
// within +3.3%..+6.2% (testdata/captures/compile); the band widens by
// compileBand. The model treats the whole model as one graph (no graph
// breaks) and leaves the optimizer step eager, as torch.compile(model)
// does.

// compileBand is how much wider the uncertainty band is for a compiled
// step: the spread measured on the compile captures, with a margin.
const compileBand = 0.06

// pointwise are the op kinds Inductor fuses and the partitioner may
// recompute.
var pointwise = map[string]bool{
	"to": true, "mul_scalar": true, "add": true, "mul": true, "copy": true, "pow": true, "rsqrt": true,
	"gelu": true, "silu": true, "tanh": true, "add_scalar": true, "add_": true, "relu": true, "relu_": true,
	"div": true, "sigmoid": true, "dropout": true, "mean": true, "softmax": true, "log_softmax": true,
	"layer_norm": true, "where": true, "add_mask": true, "nll_loss": true,
}

// recomputeDepth bounds how far back through pointwise ops a saved tensor
// is traced: a residual stream reaches every earlier layer, and the
// partitioner saves it rather than replaying the model.
const recomputeDepth = 6

// compileGraph rewrites g's save lists and marks its fused ops.
func compileGraph(g *Graph) {
	prod := make([]int, len(g.tensors))
	for i := range prod {
		prod[i] = -1
	}
	for i := range g.ops {
		for _, t := range g.ops[i].out {
			if prod[t] < 0 {
				prod[t] = i
			}
		}
	}
	saved := map[Tensor]bool{}
	// cost is what keeping t available for backward adds: 0 when it is
	// free (a parameter, an input, already saved), else the cheaper of
	// saving it and recomputing it from its producer's inputs.
	var cost func(t Tensor, depth int) int64
	cost = func(t Tensor, depth int) int64 {
		b := g.tensors[t].base
		tt := &g.tensors[b]
		if tt.param >= 0 || tt.input || saved[b] {
			return 0
		}
		own := tt.bytes()
		p := prod[b]
		if p < 0 || !pointwise[g.ops[p].kind] || depth >= recomputeDepth {
			return own
		}
		var re int64
		for _, in := range g.ops[p].in {
			if re += cost(in, depth+1); re > own {
				return own
			}
		}
		return re
	}
	// keep lists the tensors to save so that t is available in backward.
	var keep func(t Tensor, depth int, out []Tensor) []Tensor
	keep = func(t Tensor, depth int, out []Tensor) []Tensor {
		b := g.tensors[t].base
		tt := &g.tensors[b]
		if tt.param >= 0 || saved[b] {
			return out
		}
		if tt.input {
			return append(out, b)
		}
		p := prod[b]
		if p >= 0 && pointwise[g.ops[p].kind] && depth < recomputeDepth && cost(t, depth) < tt.bytes() {
			for _, in := range g.ops[p].in {
				out = keep(in, depth+1, out)
			}
			return out
		}
		saved[b] = true
		return append(out, b)
	}
	// what a matmul, attention or other non-fusible op saves is needed
	// materialised in backward anyway: the partitioner keeps it
	// (ban_recompute_materialized_backward), weight casts included
	for i := range g.ops {
		if o := &g.ops[i]; !pointwise[o.kind] {
			for _, t := range o.save {
				saved[g.tensors[t].base] = true
			}
		}
	}
	for i := range g.ops {
		o := &g.ops[i]
		if !pointwise[o.kind] {
			continue
		}
		var save []Tensor
		for _, t := range o.save {
			save = keep(t, 0, save)
		}
		o.save = save
	}
	// materialise what is saved, held, returned or read by a
	// non-pointwise op; fuse the rest away
	need := map[Tensor]bool{g.tensors[g.loss].base: true}
	for b := range saved {
		need[b] = true
	}
	for i := range g.ops {
		o := &g.ops[i]
		for _, t := range o.save {
			need[g.tensors[t].base] = true
		}
		if !pointwise[o.kind] {
			for _, t := range o.in {
				need[g.tensors[t].base] = true
			}
		}
		if o.hold {
			for _, t := range o.out {
				need[g.tensors[t].base] = true
			}
		}
	}
	for i := range g.ops {
		o := &g.ops[i]
		if !pointwise[o.kind] {
			continue
		}
		o.fused = true
		for _, t := range o.out {
			if need[g.tensors[t].base] {
				o.fused = false
			}
		}
		o.fwdTemp, o.bwdTemp = nil, nil
	}
}

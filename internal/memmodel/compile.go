package memmodel

import "slices"

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
//   - identical casts of one activation are one (mergeCasts);
//   - what a non-pointwise op saves is needed materialised in backward
//     anyway, so it stays saved (ban_recompute_materialized_backward):
//     matmul inputs, the autocast weight casts, attention's q/k/v/out;
//   - what a pointwise op saves is recomputed in backward from tensors
//     that are saved anyway (or parameters, or inputs) when its pointwise
//     ancestry reaches them for fewer bytes than saving it, each tensor
//     counted once (greedy in forward order, an approximation of the
//     min-cut): the GELU's float32 intermediates, RMSNorm's float32
//     intermediates, the loss's float32 log-probabilities (the bf16 logits
//     are kept instead); the residual stream is not recomputed
//     (ban_recompute_long_fusible_chains: longFusibleChains);
//   - the backward of fused ops produces no gradient buffer of its own, and
//     a fused chain's gradient is written once, in the dtype where the
//     chain starts (fusedGradBytes: the loss's gradient is bf16);
//   - the backward starts with a gradient for every tensor the forward
//     returns (the logits, the key/value cache), live until it returns
//     (compiledBackwardInputs).
//
// Measured on the H200 (torch 2.11, bf16 autocast; 11 compiled rows, 7
// configurations of GPT-2, GPT-2 medium and LLaMA-small, three of them
// with memory-history snapshots in testdata/dev9/compile): peak allocated
// −1.4%..−0.3%, reserved +0.2%..+2.7% (TestCompiledRows); the band widens
// by compileBand. The model treats the whole model as one graph (the loss
// may be a graph of its own: the backward inputs are the same) and leaves
// the optimizer step eager, as torch.compile(model) does. Not modelled:
// Inductor's reuse of a dead buffer for a later one of the same size
// inside a graph (the GPT-2 snapshots allocate nothing for ln_1's output,
// which presumably takes the dead MLP c_proj output's buffer, which the replay makes a free and an allocation
// of the same size: peak allocated is the same) and the padded copies
// (pad_mm, by their size) of an unaligned vocabulary's logits gradient (GPT-2's 50,257 columns:
// two 1,572 MiB copies at s512 b32, one kept until the tied embedding's
// gradient at the end of the backward; the generated stream frees its
// bf16 logits gradient after lm_head's backward instead).

// compileBand is how much wider the uncertainty band is for a compiled
// step: the spread measured on the compile captures, with a margin. The
// fourteen blind compiled rows of late4 .. late19 ran from -8.75% (Llama
// 3.2 1B s1024 b4) to +2.62% on peak reserved, late22's two to -12.95%
// (SmolLM2-360M b8). Session 16 found three causes in dev23's and dev25's
// snapshots (float32 parameter gradients under autocast, SDPA's
// repeated grouped k and v, the q/k norms' saved projections); after them
// the 24 blind compiled rows run -3.5% (GPT-2 medium: the autotuner's 60 MiB
// L2-flush buffers and its first step's logits blocks, not modelled) to
// +8.4% (Qwen3-0.6B: one logits segment more than the GPU, over), and
// late23's seven blind rows (incl. the first compiled ViT-B/16 and
// ResNet-50) -1.4%..+8.3%, allocated -0.2%..+3.5%. late25's five compiled
// steps (timed, their peaks read): BERT-base -44% until its padding mask
// was modelled (dev26), -8.9% since; EfficientNet-B0 reserved -4.4%
// (allocated +42%: Inductor's fused batch norm and SiLU, not modelled).
// 10% holds every one.
const compileBand = 0.10

// pointwise are the op kinds Inductor fuses and the partitioner may
// recompute.
var pointwise = map[string]bool{
	"to": true, "mul_scalar": true, "add": true, "mul": true, "copy": true, "pow": true, "rsqrt": true,
	"gelu": true, "gelu_tanh": true, "silu": true, "tanh": true, "add_scalar": true, "add_": true, "relu": true, "relu_": true,
	"div": true, "sigmoid": true, "dropout": true, "mean": true, "softmax": true, "log_softmax": true,
	"layer_norm": true, "where": true, "add_mask": true, "nll_loss": true,
}

// recomputeDepth bounds how far back through pointwise ops a saved tensor
// is traced. The residual stream, which reaches every earlier layer, is cut
// by longFusibleChains; inside a layer the longest recomputed chain of the
// H200 traces is GPT-2's Python GELU, eight ops back to c_fc's output. The
// bound only keeps a graph without blocks from being replayed whole (every
// compiled row plans the same with 8 as with 100).
const recomputeDepth = 8

// compileGraph rewrites g's save lists and marks its fused ops.
func compileGraph(g *Graph) {
	mergeCasts(g)
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
	stream := longFusibleChains(g, prod)
	saved := map[Tensor]bool{}
	// need lists the base tensors backward must keep so that t is
	// available: t itself, or, when a fused pointwise op within
	// recomputeDepth produced it and that is cheaper, what recomputing it
	// reads. A tensor reached along two paths counts once: GPT-2's GELU
	// (0.5·x·(1+tanh(c·(x+0.044715·x³)))) reads c_fc's output four times,
	// and recomputing its float32 1+tanh from that one bf16 tensor costs
	// half of saving it (the dev9 GPT-2 s512 b32 snapshot saves c_fc's
	// output and the bf16 activation, 96 MiB each, per layer, and no
	// float32 intermediate).
	var need func(t Tensor, depth int) []Tensor
	need = func(t Tensor, depth int) []Tensor {
		b := g.tensors[t].base
		tt := &g.tensors[b]
		if tt.param >= 0 || saved[b] {
			return nil
		}
		p := prod[b]
		if tt.input || p < 0 || !pointwise[g.ops[p].kind] || depth >= recomputeDepth || stream(b) {
			return []Tensor{b}
		}
		var set []Tensor
		seen := map[Tensor]bool{}
		var re int64
		for _, in := range g.ops[p].in {
			for _, x := range need(in, depth+1) {
				if seen[x] {
					continue
				}
				seen[x] = true
				set = append(set, x)
				if !g.tensors[x].input {
					re += g.tensors[x].bytes()
				}
			}
			if re >= tt.bytes() {
				return []Tensor{b}
			}
		}
		return set
	}
	keep := func(t Tensor, out []Tensor) []Tensor {
		for _, x := range need(t, 0) {
			if !g.tensors[x].input {
				saved[x] = true
			}
			if !slices.Contains(out, x) {
				out = append(out, x)
			}
		}
		return out
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
			save = keep(t, save)
		}
		o.save = save
	}
	// materialise what is saved, held, returned or read by a
	// non-pointwise op; fuse the rest away
	materialise := map[Tensor]bool{g.tensors[g.loss].base: true}
	for b := range saved {
		materialise[b] = true
	}
	for i := range g.ops {
		o := &g.ops[i]
		for _, t := range o.save {
			materialise[g.tensors[t].base] = true
		}
		if !pointwise[o.kind] {
			for _, t := range o.in {
				materialise[g.tensors[t].base] = true
			}
		}
		if o.hold {
			for _, t := range o.out {
				materialise[g.tensors[t].base] = true
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
			if materialise[g.tensors[t].base] {
				o.fused = false
			}
		}
		o.fwdTemp, o.bwdTemp = nil, nil
	}
}

// longFusibleChains returns whether a tensor starts a chain of fusible
// (pointwise) ops that runs into a later block: a residual stream, which
// reaches every later layer through its adds without meeting a matmul.
// The partitioner bans recomputing such a chain
// (ban_recompute_long_fusible_chains: a fusible run of more than 100
// nodes), so the stream is saved as it is at each layer norm: the dev9
// GPT-2 snapshots keep two float32 residuals per layer (48 MiB each at s512
// b32), not the bf16 branch outputs they are sums of.
func longFusibleChains(g *Graph, prod []int) func(Tensor) bool {
	users := make([][]int, len(g.tensors))
	for i := range g.ops {
		for _, t := range g.ops[i].in {
			b := g.tensors[t].base
			users[b] = append(users[b], i)
		}
	}
	memo := map[Tensor]bool{}
	return func(t Tensor) bool {
		if v, ok := memo[t]; ok {
			return v
		}
		p := prod[t]
		if p < 0 {
			return false
		}
		blk := g.ops[p].block
		seen := map[int]bool{}
		queue := []Tensor{t}
		long := false
		for len(queue) > 0 && !long {
			x := queue[0]
			queue = queue[1:]
			for _, u := range users[x] {
				o := &g.ops[u]
				if seen[u] || !pointwise[o.kind] {
					continue
				}
				seen[u] = true
				if o.block > blk {
					long = true
					break
				}
				for _, y := range o.out {
					queue = append(queue, g.tensors[y].base)
				}
			}
		}
		memo[t] = long
		return long
	}
}

// mergeCasts makes every cast of one tensor to one dtype read the first
// such cast's output. Eager autocast casts an activation again for each
// matmul that reads it (LLaMA's q/k/v projections each cast the float32
// RMSNorm output to bf16, as do gate and up); the traced graph's common
// subexpression elimination keeps one: the dev9 LLaMA-small s1024 b8
// snapshot allocates one 16 MiB bf16 normed activation per norm where the
// eager step makes three (attention) and two (MLP). The later casts' outputs
// are then read by nobody, and the fusion below drops them.
func mergeCasts(g *Graph) {
	type key struct {
		in Tensor
		dt DType
	}
	first := map[key]Tensor{}
	alias := map[Tensor]Tensor{}
	for i := range g.ops {
		o := &g.ops[i]
		for k, t := range o.in {
			if a, ok := alias[t]; ok {
				o.in[k] = a
			}
		}
		for k, t := range o.save {
			if a, ok := alias[t]; ok {
				o.save[k] = a
			}
		}
		if o.kind != "to" || len(o.in) != 1 || len(o.out) != 1 || o.hold {
			continue
		}
		out := o.out[0]
		if g.tensors[out].base != out {
			continue
		}
		kk := key{g.tensors[o.in[0]].base, g.tensors[out].dt}
		if f, ok := first[kk]; ok {
			alias[out] = f
			continue
		}
		first[kk] = out
	}
	// a view of a merged cast's output is a view of the kept one
	for i := range g.tensors {
		if a, ok := alias[g.tensors[i].base]; ok && Tensor(i) != g.tensors[i].base {
			g.tensors[i].base = a
		}
	}
}

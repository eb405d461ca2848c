package memmodel

// viewBackward prices the autograd nodes of the views a forward cuts out
// of one tensor, which the graph records as aliases rather than ops and
// the walk therefore never issued. They launch kernels of their own in
// backward, each node paid on the host like any other (Bwd):
//   - SliceBackward (x[..., a:b], a fused projection's q/k/v, rotate_half's
//     halves) materialises a gradient of the base's size: a zero fill of
//     the base (at::zeros, ATen's FillFunctor) and a copy of the slice's
//     gradient into it; from the base's second slice on, the autograd
//     engine's input buffer adds that base-sized gradient into the one
//     already there (an add kernel);
//   - SplitBackward (chunk/split whose pieces are all used, Phi-3's
//     gate_up_proj halves) concatenates the pieces' gradients into one
//     of the base's size, one cat kernel per base.
//
// The dev7 Phi-3 bf16 profile counts 90 bf16 zero fills and 41 cats per
// step (ten layers) that the generated step lacked; each of its layers
// slices qkv three times and rotate_half four.
// GPU time is bytes over the calibrated bandwidth of the kernel's kind
// (a fill writes the base once, a copy and a cat read and write, an add
// reads two and writes one).
type viewBackward struct {
	g       *Graph
	gen     *generator
	done    map[Tensor]bool // views (and split bases) whose node was issued
	got     map[Tensor]int  // gradients a sliced base has received
	pieces  map[Tensor]int  // non-slice partial views per base
	catDone map[Tensor]bool
	fills   int // SliceBackward nodes issued (one zero fill each)
	cats    int // SplitBackward nodes issued (one cat each)
}

// newViewBackward counts, for every base, the partial views that are not
// slices (a chunk's or split's pieces) and carry a gradient.
func newViewBackward(g *Graph, gen *generator) *viewBackward {
	v := &viewBackward{g: g, gen: gen, done: map[Tensor]bool{}, got: map[Tensor]int{},
		pieces: map[Tensor]int{}, catDone: map[Tensor]bool{}}
	for i := range g.tensors {
		t := Tensor(i)
		if v.partial(t) && !g.tensors[t].slice {
			v.pieces[g.tensors[t].base]++
		}
	}
	return v
}

// partial reports whether t is a view of part of a non-parameter base
// that carries a gradient: a slice or a piece of a chunk, not a reshape.
func (v *viewBackward) partial(t Tensor) bool {
	x := &v.g.tensors[t]
	if x.base == t || !x.grad || v.gen.producer(t) >= 0 {
		return false
	}
	b := &v.g.tensors[x.base]
	return b.param < 0 && x.numel < b.numel
}

// issueOp charges the SliceBackward nodes op o stands for (viewGrads):
// a fill of its input's size and a copy each, and viewAdds adds of that
// size into the gradient already there.
func (v *viewBackward) issueOp(o *op, tm timeModel, p *pipeline) {
	if o.viewGrads == 0 || len(o.in) == 0 {
		return
	}
	x := &v.g.tensors[o.in[0]]
	b, r := float64(x.bytes()), tm.r
	for i := 0; i < o.viewGrads; i++ {
		v.fills++
		p.issue(tm.Bwd, maxF(r.stream("copy", x.dt, b), r.launch()), kPointwise, 1)
		p.issue(0, maxF(r.stream("copy", x.dt, b), r.launch()), kCopy, 1)
	}
	for i := 0; i < o.viewAdds; i++ {
		p.issue(tm.Issue, maxF(r.stream("add", x.dt, 3*b), r.launch()), kPointwise, 1)
	}
}

// issue charges the backward node of view t, once, when the gradient of
// the op that consumed it has been issued.
func (v *viewBackward) issue(t Tensor, tm timeModel, p *pipeline) {
	if v.done[t] || !v.partial(t) {
		return
	}
	v.done[t] = true
	x := &v.g.tensors[t]
	base := x.base
	bb := float64(v.g.tensors[base].bytes())
	r := tm.r
	if !x.slice {
		if v.pieces[base] > 1 && !v.catDone[base] {
			v.catDone[base] = true
			v.cats++
			p.issue(tm.Bwd, maxF(r.stream("copy", x.dt, 2*bb), r.launch()), kCopy, 1)
		}
		return
	}
	v.fills++
	p.issue(tm.Bwd, maxF(r.stream("copy", x.dt, bb), r.launch()), kPointwise, 1)
	p.issue(0, maxF(r.stream("copy", x.dt, 2*float64(x.bytes())), r.launch()), kCopy, 1)
	if v.got[base] > 0 {
		p.issue(tm.Issue, maxF(r.stream("add", x.dt, 3*bb), r.launch()), kPointwise, 1)
	}
	v.got[base]++
}

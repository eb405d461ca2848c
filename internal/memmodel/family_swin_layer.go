package memmodel

// Swin's layers as transformers 5's modeling_swin runs them (dev92's
// bf16 and float32 traces of swin-tiny at 224 pixels): the windowed
// attention with its relative position bias, the shifted windows' roll
// and mask, stochastic depth and patch merging.

// swinGeom is one Swin layer's geometry: batch images of an h×w map of c
// channels, heads attention heads over windows of win² patches, the map
// rolled by shift (0: not), the position table sized for tableWin (the
// configured window, which set_shift_and_window_size may shrink win
// below) and the layer's drop_path probability.
type swinGeom struct {
	batch, h, w, c, heads, win, shift, tableWin int64
	dropPath                                    float64
}

// roundUp is n rounded up to a multiple of m.
func roundUp(n, m int64) int64 { return (n + m - 1) / m * m }

// swinLayer is SwinLayer.forward. layernorm_before (float32 under
// autocast); maybe_pad's F.pad, a new map even when it pads nothing, which
// forward's hidden_states holds until the residual add rebinds it; the
// roll of shifted layers; window_partition's contiguous copy, a local
// until the layer returns (under autocast q, k and v each cast it and
// save their cast); the attention; window_reverse's copy, the reverse
// roll and, on a padded map, the crop's copy (attention_windows, a local
// too); drop_path and the residual add, promoted to the stream's float32
// in the first stage; then layernorm_after, the GELU MLP and its add.
func (b *builder) swinLayer(x Tensor, a *Arch, l swinGeom) Tensor {
	n, c := l.batch, l.c
	hp, wp := roundUp(l.h, l.win), roundUp(l.w, l.win)
	y := b.layerNorm(x, c, true)
	p := b.swinResize("pad", y, n*hp*wp*c)
	s := p
	if l.shift > 0 {
		s = b.roll(p)
	}
	// window_partition's transpose(2, 3).contiguous() copies unless the
	// map is one window wide (a swap with a dim of size 1 is a view); its
	// backward reshapes the transposed gradient, another copy
	wins := s
	if wp > l.win {
		wins = b.swinResize("window_partition", s, b.numel(s))
	}
	var mask Tensor = -1
	if l.shift > 0 {
		mask = b.swinShiftMask(hp, wp, l.win, b.dt(wins))
	}
	q := b.linear(wins, c, c, a.AttnBias, "q_proj")
	k := b.linear(wins, c, c, a.AttnBias, "k_proj")
	v := b.linear(wins, c, c, a.AttnBias, "v_proj")
	b.sel = true
	att, locals := b.swinAttention(q, k, v, mask, a, l, n*(hp/l.win)*(wp/l.win))
	b.sel = false
	o := b.linear(att, c, c, true, "o_proj")
	// SwinAttention.forward's locals (the projections, the bias and the
	// mask) live until it returns, after o_proj
	b.keep(append(locals, q, k, v)...)
	o = b.dropout(o, a.Dropout)
	aw := o
	if wp > l.win {
		aw = b.swinResize("window_reverse", o, b.numel(o))
	}
	if l.shift > 0 {
		aw = b.roll(aw)
	}
	if hp != l.h || wp != l.w {
		aw = b.swinResize("crop", aw, n*l.h*l.w*c)
	}
	br := aw
	if l.dropPath > 0 {
		br = b.swinDropPath(aw, n)
	}
	h := b.add(x, br)
	b.keep(p)
	y = b.layerNorm(h, c, true)
	ffn := int64(a.FFN) * c / int64(a.Widths[0])
	m := b.linear(y, c, ffn, true, "fc1")
	m = b.gelu(m)
	m = b.linear(m, ffn, c, true, "fc2")
	b.keep(y) // the MLP's argument until it returns
	m = b.dropout(m, a.Dropout)
	out := b.add(m, h)
	b.keep(wins, mask, o, aw) // forward's locals, until it returns
	return out
}

// swinResize is a copy of a map into a new tensor of numel elements whose
// backward makes a new gradient of x's size: F.pad (even when it pads
// nothing: constant_pad_nd's backward pads the gradient by the negated
// amounts, another constant_pad_nd), a crop's .contiguous() (the slice's
// backward fills zeros), window_partition's and window_reverse's
// transposed copies (their backward reshapes the transposed gradient).
func (b *builder) swinResize(kind string, x Tensor, numel int64) Tensor {
	y := b.out(numel, b.dt(x), x)
	b.op(kind, []Tensor{x}, []Tensor{y}, nil)
	return y
}

// roll is torch.roll over the two spatial dims: one dim at a time, so a
// first rolled copy is freed once the second exists, and its backward
// (rolling the gradient back) does the same.
func (b *builder) roll(x Tensor) Tensor {
	y := b.out(b.numel(x), b.dt(x), x)
	o := b.op("roll", []Tensor{x}, []Tensor{y}, nil)
	o.fwdHeld = []int64{b.tt(x).bytes()}
	o.inTemp = []int64{b.tt(x).bytes()}
	return y
}

// swinShiftMask is SwinLayer.get_attn_mask for a shifted layer: the
// region index of every patch of the padded hp×wp map (in the stream's
// dtype), partitioned into windows, their pairwise differences and two
// masked_fill, giving the -100/0 mask of (windows, win², win²). The layer
// holds it until it returns.
func (b *builder) swinShiftMask(hp, wp, win int64, dt DType) Tensor {
	n := (hp / win) * (wp / win) * win * win * win * win
	m := b.g.newTensor(n, dt, false)
	o := b.op("attn_mask", nil, []Tensor{m}, nil)
	o.noBackward = true
	img := hp * wp * dt.Size()
	o.fwdHeld = []int64{img, img, n * dt.Size(), n, n * dt.Size()}
	return m
}

// swinDropPath is SwinDropPath in training: a random (batch, 1, 1) tensor
// in x's dtype, floored to 0 or 1, and x.div(keep_prob) times it (the
// quotient freed once the product exists; the product saves the noise).
func (b *builder) swinDropPath(x Tensor, batch int64) Tensor {
	noise := b.g.newTensor(batch, b.dt(x), false)
	o := b.op("rand", nil, []Tensor{noise}, nil)
	o.noBackward = true
	o.fwdTemp = []int64{batch * b.dt(x).Size(), batch * b.dt(x).Size()}
	return b.mul(b.scale(x), noise)
}

// swinAttention is SwinAttention after its projections: the relative
// position bias gathered from its table (a float32 copy of (heads, win²,
// win²), permuted contiguous), on shifted layers plus the shift mask
// expanded to every window of the batch (reshape copies it), and the
// attention with that sum as its additive mask. It returns the attention
// output and the locals SwinAttention.forward holds until it returns.
func (b *builder) swinAttention(q, k, v, mask Tensor, a *Arch, l swinGeom, windows int64) (Tensor, []Tensor) {
	ss := l.win * l.win
	t := l.tableWin
	tab := b.param((2*t - 1) * (2*t - 1) * l.heads)
	b.buffer(t * t * t * t * 8) // relative_position_index, int64, moved with the model
	g := b.out(ss*ss*l.heads, b.dt(tab), tab)
	b.op("index", []Tensor{tab}, []Tensor{g}, nil)
	bias := b.copy(g) // permute(2, 0, 1).contiguous()
	locals := []Tensor{bias}
	comb := bias
	if mask >= 0 {
		me := b.out(windows*ss*ss, b.dt(mask), mask)
		b.op("expand_copy", []Tensor{mask}, []Tensor{me}, nil).noBackward = true
		// (1, heads, win², win²) + (windows, 1, win², win²): both broadcast
		comb = b.out(windows*l.heads*ss*ss, promote(b.dt(bias), b.dt(me)), bias, me)
		ao := b.op("add", []Tensor{bias, me}, []Tensor{comb}, nil)
		ao.passGrad, ao.flops = []bool{false, false}, float64(b.numel(comb))
		locals = append(locals, me, comb)
	}
	s := attnShape{batch: windows, heads: l.heads, sq: ss, sk: ss, hd: l.c / l.heads, dropout: a.AttnDropout, biasGrad: b.rg(comb)}
	switch {
	case b.attn == "eager":
		return b.eagerAttention(q, k, v, comb, s), locals
	case b.attn == "math":
		return b.sdpaMath(q, k, v, comb, s, false), locals
	case s.biasGrad || b.dt(b.lowp(q)) == F32 || b.attn == "mem_efficient":
		return b.sdpaPaddedBias(q, k, v, comb, s), locals
	}
	return b.sdpaCudnnBias(q, k, v, comb, s), locals
}

// sdpaCudnnBias is F.scaled_dot_product_attention with a half-precision
// additive mask that needs no gradient (Swin's under LoRA, whose position
// table is frozen): torch 2.11 runs cuDNN's fused attention, as dev92's
// LoRA trace shows it: autocast's cast of the mask, saved; the philox
// seed and offset; the output and a float32 log-sum-exp of unpadded rows;
// 256 bytes of workspace. Backward: dq, dk, dv, then a float32 dq
// accumulator and row sum, B·Sq·H·(D+1)·4 bytes (9,935,104 at 128
// windows of 49 patches, 12 heads of 32).
func (b *builder) sdpaCudnnBias(q, k, v, bias Tensor, s attnShape) Tensor {
	v, k, q = b.lowp(v), b.lowp(k), b.lowp(q)
	bc := b.lowp(bias)
	ins := []Tensor{q, k, v, bc}
	y := b.out(s.batch*s.heads*s.sq*s.hd, b.dt(q), q, k, v)
	lse := b.g.newTensor(s.batch*s.heads*s.sq, F32, false)
	seed := b.g.newTensor(1, I64, false)
	off := b.g.newTensor(1, I64, false)
	o := b.op("sdpa", ins, []Tensor{seed, off, y, lse}, []Tensor{q, k, v, bc, y, lse, seed, off})
	o.fwdTemp = []int64{256}
	o.bwdTemp = []int64{s.batch * s.sq * s.heads * (s.hd + 1) * 4}
	f := 4 * float64(s.batch*s.heads*s.sq*s.sk*s.hd)
	o.flops, o.bwdFlops, o.matmul = f, 2.5*f, true
	o.attn = &attnCost{attnShape: s, backend: "cudnn", eager: !b.compiled, bias: "const"}
	return y
}

// sdpaPaddedBias is F.scaled_dot_product_attention with an additive float
// mask on the memory-efficient kernel, which PyTorch picks for a mask
// that requires grad (Swin's position bias) and for float32 inputs:
// autocast's cast of the mask, freed once
// the kernel returns; its last dim padded to a multiple of 8 (a new
// tensor, saved; the kernel reads a view of the unpadded width), the
// output and a log-sum-exp of rows padded to 32. Backward (dev92's
// traces, bf16 and float32): dq, dk, dv and the bias gradient, written at
// the expanded (B, H, Sq, Sk) shape with Sk padded to 16; a float32 row
// sum of B·H·Sq (on float32 inputs after the output gradient times the
// output, B·Sq·H·D floats) and the kernel's workspace (sdpaBiasWorkspace);
// then the slice's backward copies the bias gradient into zeros of the
// padded mask's shape, the pad's backward copies the unpadded part
// contiguous and the cast's casts it back to the mask's float32.
func (b *builder) sdpaPaddedBias(q, k, v, bias Tensor, s attnShape) Tensor {
	v, k, q = b.lowp(v), b.lowp(k), b.lowp(q)
	bc := b.lowp(bias)
	padded := b.out(b.numel(bc)/s.sk*roundUp(s.sk, 8), b.dt(bc), bc)
	b.op("pad", []Tensor{bc}, []Tensor{padded}, nil)
	view := b.slice(padded, s.batch*s.heads*s.sq*roundUp(s.sk, 16))
	ins := []Tensor{q, k, v, view}
	y := b.out(s.batch*s.heads*s.sq*s.hd, b.dt(q), q, k, v)
	lse := b.g.newTensor(s.batch*s.heads*roundUp(s.sq, 32), F32, false)
	o := b.op("sdpa", ins, []Tensor{y, lse}, []Tensor{q, k, v, padded, y, lse})
	b.keep(bc) // the cast lives until the call returns
	f := 4 * float64(s.batch*s.heads*s.sq*s.sk*s.hd)
	o.flops, o.bwdFlops, o.matmul = f, 2.5*f, true
	o.attn = &attnCost{attnShape: s, backend: "efficient", eager: !b.compiled, bias: "const"}
	if s.biasGrad {
		o.attn.bias = "grad"
	}
	delta := s.batch * s.heads * s.sq * 4
	o.bwdTemp = []int64{delta, sdpaBiasWorkspace(s)}
	if b.dt(q) == F32 {
		// the output gradient times the output, its row sum and a copy
		o.bwdTemp = []int64{s.batch * s.sq * s.heads * s.hd * 4, delta, delta, sdpaBiasWorkspace(s)}
	}
	return y
}

// sdpaBiasWorkspace is the memory-efficient backward kernel's workspace
// (cutlass's workspace_size: per batch and head the key gradient's
// float32 accumulator, keys padded to the 64-row block and the head dim
// to 64, plus 16 bytes per 64-query block, aligned to 4 floats): dev92's
// Swin traces ask B·H·4100·4 bytes at 49 keys of 32 dims, bf16 and
// float32 alike, and it gives the 50,380,800 bytes attention.go records
// for float32 BERT b32 s512 (64 dims, no bias).
func sdpaBiasWorkspace(s attnShape) int64 {
	per := roundUp(roundUp(s.sk, 64)*roundUp(s.hd, 64)+4*((s.sq+63)/64), 4)
	return s.batch * s.heads * per * 4
}

// swinMerge is SwinPatchMerging: the map padded to even sides if odd, the
// four strided quarters x[:, r::2, c::2] concatenated along channels, a
// LayerNorm over the 4c channels (its float32 output the reduction's
// argument until it returns) and the bias-free reduction to 2c. cat's
// backward hands each quarter a slice of its gradient, and each quarter's
// two slicings write it into zeros, first of half the map (every other
// row), then of the whole map; the four whole-map gradients are summed
// into the first (dev92's traces, bf16 and float32). That sum reaches the
// map through its view as (B, H, W, C), and the residual stream's other
// gradient (the last layer's norm) is added to it out of place (the same
// traces: a new map-sized gradient at that add, in place everywhere else).
func (b *builder) swinMerge(x Tensor, batch, h, w, c int64) Tensor {
	if h%2 == 1 || w%2 == 1 {
		h, w = h+h%2, w+w%2
		x = b.swinResize("pad", x, batch*h*w*c)
	}
	q := batch * (h / 2) * (w / 2) * c
	cat := b.out(4*q, b.dt(x), x)
	o := b.op("cat", []Tensor{x}, []Tensor{cat}, nil)
	o.viewGrad = true
	half, full := 2*q*b.dt(x).Size(), b.tt(x).bytes()
	o.bwdHeld = []int64{half}
	o.bwdTemp = []int64{half, full, half, full, half, full}
	y := b.layerNorm(cat, 4*c, true)
	b.keep(cat) // the norm's argument (under autocast it saves its float32 cast)
	r := b.linear(y, 4*c, 2*c, false, "reduction")
	b.keep(y)
	return r
}

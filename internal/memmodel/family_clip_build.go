package memmodel

// buildCLIP's graph: CLIPModel.forward with return_loss=True and SDPA, in
// the order transformers 5 runs it (family_clip.go describes the model).

// paramSpan is the parameters a module created, [from, to) in b.g.params.
type paramSpan [2]int

// spanOf runs f and returns the parameters it created.
func (b *builder) spanOf(f func()) paramSpan {
	at := len(b.g.params)
	f()
	return paramSpan{at, len(b.g.params)}
}

// clipOrder collects the two orders of a CLIP model's parameters that
// differ from the order the forward creates them in: named_parameters()
// (the optimizer's: a module's own parameters before its children's) and
// Module._apply's (model.to(device): children first).
type clipOrder struct{ params, load []paramSpan }

// both appends spans that are in the same order either way.
func (o *clipOrder) both(s ...paramSpan) {
	o.params = append(o.params, s...)
	o.load = append(o.load, s...)
}

func flatten(spans []paramSpan) []int {
	var out []int
	for _, s := range spans {
		out = appendRanges(out, [2]int(s))
	}
	return out
}

// quickGELU is transformers' QuickGELUActivation, written in Python:
// input * torch.sigmoid(1.702 * input), three kernels. The scaled copy
// dies at the sigmoid; the product saves the input and the sigmoid's
// output (which the sigmoid's own backward reads too).
func (b *builder) quickGELU(x Tensor) Tensor {
	s := b.scale(x)
	g := b.unary("sigmoid", s, b.dt(s), false, true)
	return b.mul(x, g)
}

// clipLayer is CLIPEncoderLayer: layer_norm1, the attention (q, k, v,
// SDPA, out_proj), the residual add, layer_norm2, the MLP and its add.
// Python's references as in hf-vit's layer of the same shape: each norm's
// float32 output is bound until its branch returns, each branch's output
// until its residual add is bound. It returns the stream and the layer's
// parameters in named_parameters() order (self_attn's k, v, q, out_proj,
// layer_norm1, mlp's fc1, fc2, layer_norm2), which Module._apply follows
// too.
func (b *builder) clipLayer(h Tensor, d, ff int64, s attnShape) (Tensor, []paramSpan) {
	var y, q, k, v, att, m Tensor
	ln1 := b.spanOf(func() { y = b.layerNorm(h, d, true) })
	sq := b.spanOf(func() { q = b.linear(y, d, d, true, "q_proj") })
	sk := b.spanOf(func() { k = b.linear(y, d, d, true, "k_proj") })
	sv := b.spanOf(func() { v = b.linear(y, d, d, true, "v_proj") })
	b.sel = true
	att = b.sdpaMask(q, k, v, -1, s)
	b.sel = false
	so := b.spanOf(func() { att = b.linear(att, d, d, true, "out_proj") })
	// CLIPAttention.forward's queries, keys and values are its locals
	// until it returns (dev95's checkpointed trace, whose forward saves
	// none: freed after out_proj)
	b.keep(y, q, k, v)
	h = b.add(h, att)
	b.keep(att)
	ln2 := b.spanOf(func() { y = b.layerNorm(h, d, true) })
	f1 := b.spanOf(func() { m = b.linear(y, d, ff, true, "fc1") })
	m = b.quickGELU(m)
	f2 := b.spanOf(func() { m = b.linear(m, ff, d, true, "fc2") })
	b.keep(y)
	h = b.add(h, m)
	b.keep(m)
	return h, []paramSpan{sk, sv, sq, so, ln1, f1, f2, ln2}
}

// buildCLIP records one CLIPModel training forward: input_ids (batch ×
// seq) and pixel_values (batch × 3 × image²) as gt_work.py makes them,
// the vision tower, the text tower, both projections, the normalised
// embeddings' logits and the contrastive loss.
func buildCLIP(b *builder, a *Arch, in Input) {
	batch, seq, image := in.Batch, in.Seq, in.Image
	if image == 0 {
		image = int64(a.ImageSize) // CLIPVisionEmbeddings refuses any other side
	}
	c := &a.CLIP
	ids := b.input(batch*seq, I64)
	px := b.input(batch*3*image*image, b.pdt)
	// under LoRA the embeddings and each tower's first projections read
	// nothing requiring grad: autograd saves nothing for them
	defer b.noGradSaves(len(b.g.ops))
	// get_image_features: the vision tower and visual_projection, then
	// get_text_features: the text tower and text_projection (dev95's
	// traces: visual_projection runs before the text tower, and its
	// gradient comes after the text tower's backward); each frees its
	// pooled output when it returns
	d, dv, proj := int64(a.Hidden), int64(c.Hidden), int64(c.Projection)
	var ie, te, scale Tensor
	pooledV, vord := b.clipVision(a, px, batch, image)
	b.module = "visual_projection"
	vp := b.spanOf(func() { ie = b.linear(pooledV, dv, proj, false, "visual_projection") })
	pooledT, lastT, tord := b.clipText(a, ids, batch, seq)
	b.module = "text_projection"
	tp := b.spanOf(func() { te = b.linear(pooledT, d, proj, false, "text_projection") })
	b.module = "logit_scale"
	ls := b.spanOf(func() { scale = b.param(1) })
	b.g.loss = b.clipLoss(ie, te, scale, batch, proj)
	// CLIPOutput's text_model_output holds the text tower's last hidden
	// state (which the EOS index does not save) until the model returns;
	// the vision tower's is saved by post_layernorm's class-token view
	b.keep(lastT)

	// named_parameters(): CLIPModel's own logit_scale, the text tower,
	// the vision tower, the projections; model.to(): children first
	params := append(append(append([]paramSpan{ls}, tord.params...), vord.params...), vp, tp)
	load := append(append(append([]paramSpan{}, tord.load...), vord.load...), vp, tp, ls)
	order := flatten(params)
	b.reorderParams(order)
	at := make(map[int]int, len(order))
	for n, old := range order {
		at[old] = n
	}
	b.g.loadOrder = nil
	for _, old := range flatten(load) {
		b.g.loadOrder = append(b.g.loadOrder, at[old])
	}
}

// clipVision is CLIPVisionTransformer: the embeddings, pre_layrnorm, the
// layers (checkpoint blocks 0 to Layers-1) and post_layernorm on the
// class token. It returns the pooled output and the tower's parameter
// orders.
func (b *builder) clipVision(a *Arch, px Tensor, batch, image int64) (Tensor, clipOrder) {
	c := &a.CLIP
	var ord clipOrder
	dv, p := int64(c.Hidden), int64(a.Patch)
	b.module = "vision_model.embeddings"
	var cls, wpos, h Tensor
	clsSpan := b.spanOf(func() { cls = b.param(dv) })
	var x fmap
	conv := b.spanOf(func() { x = b.conv2d(fmap{px, batch, 3, image, image, b.channelsLast}, dv, p, p, 0, 1, false) })
	b.vitStemWorkspace()
	if b.inputGrad {
		// enable_input_require_grads hooks the vision tower's patch
		// conv too: its output becomes a leaf requiring grad, held with
		// its .grad until backward ends
		b.tt(x.t).grad = true
		b.g.leafHeld = append(b.g.leafHeld, x.t)
	}
	seqV := x.h*x.w + 1
	// torch.cat([class_embeds, patch_embeds]): the float32 class token
	// promotes the cat under autocast
	h = b.out(batch*seqV*dv, promote(b.dt(x.t), b.dt(cls)), x.t, cls)
	o := b.op("cat", []Tensor{x.t, cls}, []Tensor{h}, nil)
	o.passGrad = []bool{false, false}
	pos := b.spanOf(func() { wpos = b.param(seqV * dv) })
	b.buffer(seqV * 8) // position_ids
	pe := b.out(seqV*dv, b.dt(wpos), wpos)
	b.op("embedding", []Tensor{wpos}, []Tensor{pe}, nil)
	h = b.add(h, pe)
	// patch_embeds, CLIPVisionEmbeddings.forward's local, lives until it
	// returns (dev95's traces free it after the position add)
	b.keep(x.t)
	ord.params = append(ord.params, clsSpan, conv, pos)
	ord.load = append(ord.load, conv, pos, clsSpan)
	b.module = "vision_model.pre_layrnorm"
	ord.both(b.spanOf(func() { h = b.layerNorm(h, dv, true) }))
	for l := 0; l < c.Layers; l++ {
		b.block, b.module = l, "vision_model.encoder.layers."+itoa(l)
		var spans []paramSpan
		h, spans = b.clipLayer(h, dv, int64(c.FFN), attnShape{batch: batch, heads: int64(c.Heads), sq: seqV, sk: seqV,
			hd: dv / int64(c.Heads), dropout: c.AttnDropout})
		ord.both(spans...)
	}
	b.block = -1
	// pooled_output = last_hidden_state[:, 0, :], then post_layernorm:
	// the norm saves the class-token view, which holds the whole last
	// hidden state until its backward
	b.module = "vision_model.post_layernorm"
	var pooled Tensor
	ord.both(b.spanOf(func() { pooled = b.layerNorm(b.slice(h, batch*dv), dv, true) }))
	// layer_norm copies the strided view contiguous first (freed once
	// the norm is done)
	b.g.ops[len(b.g.ops)-1].fwdTemp = []int64{batch * dv * 4}
	return pooled, ord
}

// clipText is CLIPTextTransformer: token and position embeddings, the
// causal layers (checkpoint blocks after the vision tower's),
// final_layer_norm and the pooling at each row's EOS token. It returns
// the pooled output, the last hidden state and the parameter orders.
func (b *builder) clipText(a *Arch, ids Tensor, batch, seq int64) (Tensor, Tensor, clipOrder) {
	var ord clipOrder
	d, vocab := int64(a.Hidden), int64(a.Vocab)
	b.module = "text_model.embeddings"
	var e, wpos, h Tensor
	ord.both(b.spanOf(func() { e = b.embedding(ids, b.param(vocab*d), vocab, d) }))
	ord.both(b.spanOf(func() { wpos = b.param(int64(a.MaxPos) * d) }))
	b.buffer(int64(a.MaxPos) * 8) // position_ids
	pe := b.out(seq*d, b.dt(wpos), wpos)
	b.op("embedding", []Tensor{wpos}, []Tensor{pe}, nil)
	h = b.add(e, pe)
	vl := a.CLIP.Layers
	for l := 0; l < a.Layers; l++ {
		b.block, b.module = vl+l, "text_model.encoder.layers."+itoa(l)
		var spans []paramSpan
		h, spans = b.clipLayer(h, d, int64(a.FFN), attnShape{batch: batch, heads: int64(a.Heads), sq: seq, sk: seq,
			hd: d / int64(a.Heads), causal: true, dropout: a.AttnDropout})
		ord.both(spans...)
	}
	b.block = -1
	b.g.blocks = vl + a.Layers
	b.module = "text_model.final_layer_norm"
	ord.both(b.spanOf(func() { h = b.layerNorm(h, d, true) }))
	return b.clipEOSPool(h, ids, batch, seq, d), h, ord
}

// clipEOSPool is the text tower's pooled output: the row of each
// sequence's first EOS token, last_hidden_state[arange(batch),
// (input_ids.to(int) == eos_token_id).int().argmax(-1)] (small integer
// tensors, in that order in dev95's traces), an index that saves only its
// indices (its backward scatters into zeros of the stream's size).
func (b *builder) clipEOSPool(h, ids Tensor, batch, seq, d int64) Tensor {
	b.module = "text_model.pooler"
	rows := b.intOp("arange", batch, I64)
	// int32 copies take four bytes an id, as float32 does
	i32 := b.intOp("to", batch*seq, F32, ids)
	eq := b.intOp("to", batch*seq, F32, b.intOp("eq", batch*seq, U8, i32))
	idx := b.intOp("argmax", batch, I64, eq)
	y := b.out(batch*d, b.dt(h), h)
	o := b.op("index", []Tensor{h, rows, idx}, []Tensor{y}, []Tensor{rows, idx})
	o.flops = float64(batch * d)
	return y
}

// clipLoss is CLIPModel's head: each embedding divided by its L2 norm
// (_get_vector_norm: pow 2, sum, pow 0.5, float32 under autocast), the
// text-by-image logits (autocast matmul) times logit_scale.exp(), and
// clip_loss: cross entropy of the logits and of their transpose against
// arange(batch), averaged. Every tensor here is batch × projection or
// batch × batch.
func (b *builder) clipLoss(ie, te, scale Tensor, batch, proj int64) Tensor {
	b.module = "loss"
	norm := func(x Tensor) Tensor {
		s := b.reduce(b.pow(b.fp32(x)), batch)
		s = b.pow(s)
		return b.mul(x, s) // x / norm: a division saving both, float32 out
	}
	ie = norm(ie)
	te = norm(te)
	logits := b.matmul(te, ie, batch*batch, 2*float64(batch*batch*proj))
	e := b.unary("exp", scale, F32, false, true)
	// a 0-dim float32 factor keeps the half logits' dtype
	y := b.out(batch*batch, b.dt(logits), logits, e)
	o := b.op("mul", []Tensor{logits, e}, []Tensor{y}, []Tensor{logits, e})
	o.flops = float64(batch * batch)
	var loss Tensor = -1
	for i := range 2 {
		// the labels, then F.cross_entropy as the logits are (log_softmax
		// in their dtype, nll_loss in float32); the transposed logits are
		// first copied contiguous (a temporary)
		b.intOp("arange", batch, I64)
		x := y
		if i == 1 {
			x = b.copy(b.view(y, batch*batch))
		}
		l := b.crossEntropy(x, batch)
		if loss < 0 {
			loss = l
		} else {
			loss = b.scale(b.add(loss, l))
		}
	}
	return loss
}

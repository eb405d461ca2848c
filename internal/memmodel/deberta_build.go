package memmodel

// buildDeberta and its layer: transformers 5.17's DebertaV2Model as
// dev92's traces allocate it (testdata/dev92/debv3).

// buildDeberta records DebertaV2For{SequenceClassification, MaskedLM,
// TokenClassification, QuestionAnswering} (a.Head) over batch × seq tokens.
func buildDeberta(b *builder, a *Arch, batch, seq int64) {
	ids := b.encoderInput(a, batch, seq)
	// under LoRA nothing before the first adapter requires grad, and
	// autograd saves nothing for those ops
	defer b.noGradSaves(len(b.g.ops))
	dd := &a.Deberta
	d := int64(a.Hidden)
	// DebertaV2Model.forward: the attention mask it makes (ones, float32)
	// and token_type_ids (zeros, int64), both held by the forward
	ones := b.intOp("ones", batch*seq, F32)
	types := b.intOp("zeros", batch*seq, I64)
	x, wte := debertaEmbeddings(b, a, ids, types, ones, batch, seq)
	// DebertaV2Encoder: the mask expanded to [batch, 1, seq, seq] in the
	// attention mask's float32, the bucketed relative positions and the
	// normalised relative embeddings, made once and read by every layer
	mask := b.intOp("attention_mask", batch*seq*seq, F32, ones)
	var relPos, relE Tensor = -1, -1
	relParams := len(b.g.params)
	if dd.Span > 0 {
		relPos = b.intOp("relative_position", seq*seq, I64)
		if dd.Buckets > 0 {
			// make_log_bucket_position's differences, sign and absolute
			// positions (seq² int64 each) live while the bucket is
			// computed
			b.g.ops[len(b.g.ops)-1].fwdHeld = []int64{seq * seq * 8, seq * seq * 8, seq * seq * 8}
		}
		relE = b.param(2 * int64(dd.Span) * d)
		if dd.NormRel {
			relE = b.layerNorm(relE, d, true)
		}
	}
	layerParams := len(b.g.params)
	h := x
	states := []Tensor{x}
	convAt, convEnd := -1, -1
	for l := 0; l < a.Layers; l++ {
		b.block = l
		y := debertaLayer(b, a, h, mask, relPos, relE, batch, seq)
		b.block = -1
		if l == 0 && dd.ConvKernel > 0 {
			convAt = len(b.g.params)
			y = debertaConv(b, a, h, y, ones, batch, seq)
			convEnd = len(b.g.params)
		}
		h = y
		states = append(states, h)
	}
	b.g.blocks = a.Layers
	// the encoder's locals and the hidden states it collects (every
	// layer's input) until it returns: dev92's bf16 traces free them
	// there, the last layers' first (a tuple dropped)
	b.keep(mask, relPos, types)
	if dd.NormRel {
		b.keep(relE)
	}
	b.keep(states[:len(states)-1]...)
	// registration order: the layers, then rel_embeddings and its
	// LayerNorm, then the ConvLayer (model.parameters(), the order of the
	// optimizer's state)
	order := make([]int, 0, len(b.g.params))
	for i := 0; i < relParams; i++ {
		order = append(order, i)
	}
	for i := layerParams; i < len(b.g.params); i++ {
		if i < convAt || i >= convEnd {
			order = append(order, i)
		}
	}
	for i := relParams; i < layerParams; i++ {
		order = append(order, i)
	}
	for i := max(convAt, 0); i < convEnd; i++ {
		order = append(order, i)
	}
	b.reorderParams(order)
	debertaHead(b, a, h, wte, batch, seq)
}

// debertaEmbeddings is DebertaV2Embeddings: the word embedding, absolute
// positions where position_biased_input (else zeros_like of its size, a
// local until it returns), token types, embed_proj, LayerNorm, the product
// with the attention mask and dropout. Returns the output and the word
// embedding's weight.
func debertaEmbeddings(b *builder, a *Arch, ids, types, ones Tensor, batch, seq int64) (Tensor, Tensor) {
	dd := &a.Deberta
	d, e := int64(a.Hidden), int64(a.Hidden)
	if dd.EmbedSize > 0 {
		e = int64(dd.EmbedSize)
	}
	wte := b.param(int64(a.Vocab) * e)
	var pos, tte Tensor = -1, -1
	if dd.AbsPositions {
		pos = b.param(int64(a.MaxPos) * e)
	}
	if a.TypeVocab > 0 {
		tte = b.param(int64(a.TypeVocab) * e)
	}
	b.buffer(int64(a.MaxPos) * 8) // position_ids
	x := b.embedding(ids, wte, int64(a.Vocab), e)
	we := x
	var pe Tensor
	if pos >= 0 {
		pe = b.out(seq*e, b.dt(pos), pos)
		b.op("embedding", []Tensor{pos}, []Tensor{pe}, nil)
		x = b.add(x, pe)
	} else {
		pe = b.intOp("zeros_like", b.numel(x), b.dt(x))
	}
	if tte >= 0 {
		x = b.add(x, b.embedding(types, tte, int64(a.TypeVocab), e))
	}
	if e != d {
		x = b.linear(x, e, d, false, "embed_proj")
	}
	x = b.layerNorm(x, d, true)
	x = b.mul(x, b.cast(ones, b.dt(x)))
	x = b.dropout(x, a.Dropout)
	// inputs_embeds and position_embeddings: locals until it returns (the
	// LoRA trace, where LayerNorm saves nothing, frees them there)
	b.keep(we, pe)
	return x, wte
}

// debertaLayer is DebertaV2Layer: disentangled self-attention, its output
// dense, dropout and post-norm, then the GELU MLP likewise.
func debertaLayer(b *builder, a *Arch, h, mask, relPos, relE Tensor, batch, seq int64) Tensor {
	d, heads, hd := int64(a.Hidden), int64(a.Heads), a.headDim()
	all, bh := heads*hd, batch*heads
	// transpose_for_scores copies each projection to [batch·heads, seq, hd]
	q, qp := b.linearParams(h, d, all, true, "query_proj")
	q = b.copy(b.viewGradCopy(q))
	k, kp := b.linearParams(h, d, all, true, "key_proj")
	k = b.copy(b.viewGradCopy(k))
	v := b.copy(b.viewGradCopy(b.linear(h, d, all, true, "value_proj")))
	// the attention internals (selective checkpointing recomputes them)
	b.sel = true
	// q·(kᵀ/scale): the scaled keys are a new tensor, saved by the bmm
	sc := b.debertaBmm(q, b.unary("div", k, b.dt(k), false, false), bh, seq, seq, hd)
	var relD, rel Tensor = -1, -1
	if a.Deberta.Span > 0 {
		relD = b.dropout(relE, a.Dropout) // pos_dropout
		rel = debertaBias(b, a, q, k, relPos, relD, qp, kp, batch, seq)
		if rel >= 0 {
			sc = b.add(sc, rel)
		}
	}
	// masked_fill(~attention_mask.bool(), min): the bool mask a local,
	// its negation saved
	mb := b.intOp("to_bool", batch*seq*seq, U8, mask)
	nm := b.intOp("logical_not", batch*seq*seq, U8, mb)
	y := b.out(b.numel(sc), b.dt(sc), sc)
	b.op("masked_fill", []Tensor{sc, nm}, []Tensor{y}, []Tensor{nm})
	p := b.softmax(y)
	// its backward takes a temporary of the output's size right after
	// the gradient (both dev92 precisions: 24 MiB fp32 s256, 96 MiB bf16
	// s512, freed at once)
	b.g.ops[len(b.g.ops)-1].gradWork = []int64{b.tt(p).bytes()}
	pd := b.dropout(p, a.AttnDropout)
	ctx := b.copy(b.viewGradCopy(b.debertaBmm(pd, v, bh, seq, hd, seq)))
	// DisentangledSelfAttention.forward's locals until it returns
	b.keep(relD, rel, mb, y, pd)
	b.sel = false
	// DebertaV2SelfOutput and DebertaV2Output: the dropout's output is
	// hidden_states, rebound only when the LayerNorm returns
	att := b.linear(ctx, all, d, true, "dense")
	att = b.dropout(att, a.Dropout)
	drop := att
	att = b.layerNorm(b.add(att, h), d, true)
	b.keep(drop)
	m := b.linear(att, d, int64(a.FFN), true, "dense")
	m = b.debertaAct(a.Deberta.Act, m)
	inter := m
	m = b.linear(m, int64(a.FFN), d, true, "dense")
	m = b.dropout(m, a.Dropout)
	drop = m
	out := b.layerNorm(b.add(m, att), d, true)
	b.keep(drop)
	// DebertaV2Layer.forward's argument and locals until it returns
	b.keep(h, att, inter)
	return out
}

// debertaBias is disentangled_attention_bias: the relative embeddings
// (after pos_dropout) projected by the layer's query and key projections
// (share_att_key) or its own, copied per head and repeated over the batch;
// c2p = q·pos_keyᵀ and p2c = k·pos_queryᵀ, [batch·heads, seq, 2·span]
// each, gathered at the clamped relative positions into [batch·heads,
// seq, seq] and scaled. torch.gather saves its input, so both products
// are kept for backward; the scaled sum is a new tensor.
func debertaBias(b *builder, a *Arch, q, k, relPos, relD Tensor, qp, kp []Tensor, batch, seq int64) Tensor {
	dd := &a.Deberta
	d, heads, hd := int64(a.Hidden), int64(a.Heads), a.headDim()
	all, bh, r := heads*hd, batch*int64(a.Heads), 2*int64(dd.Span)
	proj := func(name string, ps []Tensor) Tensor {
		var y Tensor
		first := len(b.g.ops)
		if ps != nil {
			y = b.linearAgain(relD, d, all, true, name, ps)
			// the weight's cast is shared with the layer's own
			// projection, whose gradient autograd adds to this one out
			// of place (dev92's bf16 traces: a weight-sized sum per
			// projection; float32 accumulates into .grad in place)
			for i := first; i < len(b.g.ops); i++ {
				if b.g.ops[i].kind == "linear" {
					b.g.ops[i].viewGrad = true
					break
				}
			}
		} else {
			y = b.linear(relD, d, all, true, name)
		}
		return b.repeated(b.copy(b.viewGradCopy(y)), batch*r*all)
	}
	var pq, pk Tensor = -1, -1
	switch {
	case !dd.OwnPosProj:
		pq, pk = proj("query_proj", qp), proj("key_proj", kp)
	default:
		if dd.C2P {
			pk = proj("pos_key_proj", nil)
		}
		if dd.P2C {
			pq = proj("pos_query_proj", nil)
		}
	}
	n := bh * seq * seq
	var score, c2p, p2c Tensor = -1, -1, -1
	if dd.C2P {
		c := b.debertaBmm(q, pk, bh, seq, r, hd)
		idx := b.intOp("clamp", seq*seq, I64, b.intOp("add", seq*seq, I64, relPos))
		c2p = b.gather(c, idx, n)
		score = b.addScalar(b.unary("div", c2p, b.dt(c2p), false, false))
	}
	if dd.P2C {
		idx := b.intOp("neg", seq*seq, I64, relPos)
		idx = b.intOp("clamp", seq*seq, I64, b.intOp("add", seq*seq, I64, idx))
		p := b.debertaBmm(k, pq, bh, seq, r, hd)
		p2c = b.gather(p, idx, n)
		s := b.unary("div", p2c, b.dt(p2c), false, false)
		if score < 0 {
			score = b.addScalar(s)
		} else {
			score = b.addInPlace(score, s)
		}
	}
	b.keep(c2p, p2c) // locals until the function returns
	return score
}

package memmodel

// buildModernBERT records ModernBertModel and the planned head as dev92's
// traces allocate them (family_modernbert.go).
func buildModernBERT(b *builder, a *Arch, batch, seq int64) {
	o := &a.ModernBERT
	ids := b.encoderInput(a, batch, seq)
	// under LoRA the embeddings and the first layer's frozen projections
	// read nothing requiring grad: autograd saves nothing for them
	defer b.noGradSaves(len(b.g.ops))
	d, heads, ff := int64(a.Hidden), int64(a.Heads), int64(a.FFN)
	hd, tokens := d/heads, batch*seq
	b.module = "embeddings"
	wte := b.param(int64(a.Vocab) * d)
	we := b.embedding(ids, wte, int64(a.Vocab), d)
	h := b.dropout(b.layerNorm(we, d, o.NormBias), o.EmbedDropout)
	emb := h
	// the sliding layers' boolean seq² mask, held until the forward ends
	// (made whenever a layer slides: dev92's s512 traces have one for a
	// 128-token window), and each layer type's float32 cos and sin
	slide := Tensor(-1)
	if a.Decoder.SlidingWindow > 0 {
		for l := range a.Layers {
			if a.Decoder.Sliding(l) {
				slide = b.slidingMask(seq)
				break
			}
		}
	}
	tables := map[bool][2]Tensor{}
	for l := range a.Layers {
		sl := a.Decoder.Sliding(l)
		if _, ok := tables[sl]; ok {
			continue
		}
		cos := b.g.newTensor(seq*hd, b.dt(h), false)
		sin := b.g.newTensor(seq*hd, b.dt(h), false)
		b.op("rotary", []Tensor{ids}, []Tensor{cos, sin}, nil).noBackward = true
		tables[sl] = [2]Tensor{cos, sin}
	}
	// apply_rotary_pos_emb upcasts: (x.float()·cos) + (rotate_half(
	// x.float())·sin), each .float() a new copy under autocast, the sum
	// cast back to the projection's dtype once both q and k are turned
	turn := func(x, cos, sin Tensor, n int64) Tensor {
		xc := b.mul(b.cast(x, F32), cos)
		rot := b.rotateHalf(b.cast(x, F32), n)
		return b.add(xc, b.mul(rot, sin))
	}
	for l := 0; l < a.Layers; l++ {
		b.block = l
		b.module = layerModule(l, "attn")
		x := h
		if l > 0 {
			x = b.layerNorm(h, d, o.NormBias)
		}
		qkv := b.linear(x, d, 3*d, a.AttnBias, "Wqkv")
		// qkv.view(...).unbind(): pieces whose gradients one stack joins
		q, k, v := b.view(qkv, tokens*d), b.view(qkv, tokens*d), b.view(qkv, tokens*d)
		cs := tables[a.Decoder.Sliding(l)]
		qe, ke := turn(q, cs[0], cs[1], tokens*d), turn(k, cs[0], cs[1], tokens*d)
		q, k = b.cast(qe, b.dt(q)), b.cast(ke, b.dt(k))
		b.keep(qe, ke)
		s := attnShape{batch: batch, heads: heads, sq: seq, sk: seq, hd: hd, dropout: a.AttnDropout}
		b.sel = true
		var att Tensor
		if slide >= 0 && a.Decoder.Sliding(l) {
			att = b.sdpaMask(q, k, v, b.boolBias(slide, batch*seq*seq), s)
		} else {
			att = b.sdpaMask(q, k, v, -1, s)
		}
		b.sel = false
		att = b.linear(att, d, d, a.AttnBias, "Wo")
		att = b.dropout(att, a.AttnDropout)
		// the attention's argument, until it returns
		b.keep(x)
		h = b.add(h, att)
		b.module = layerModule(l, "mlp")
		y := b.layerNorm(h, d, o.NormBias)
		wi := b.linear(y, d, 2*ff, o.MLPBias, "Wi")
		in, gate := b.view(wi, tokens*ff), b.view(wi, tokens*ff) // chunk(2)
		m := b.dropout(b.mul(b.gelu(in), gate), o.MLPDropout)
		m = b.linear(m, ff, d, o.MLPBias, "Wo")
		// the MLP's argument until it returns; the attention's outputs
		// tuple until the layer does
		b.keep(y)
		h = b.add(h, m)
		b.keep(att)
	}
	b.block = -1
	b.g.blocks = a.Layers
	b.module = "final_norm"
	// the embeddings' output, the first layer's input, stays referenced
	// until the encoder's loop ends (the traces free it at the final norm)
	h = b.layerNorm(h, d, o.NormBias)
	b.keep(emb)
	b.holdOutput(h)
	b.g.returned = append(b.g.returned, h)
	modernBERTHead(b, a, h, wte, batch, seq)
}

// modernBERTHead is the head on the final norm's output h: the prediction
// head (dense, GELU, LayerNorm) on the pooled or every token, dropout, and
// the classifier, QA outputs or the tied decoder with its loss.
func modernBERTHead(b *builder, a *Arch, h, wte Tensor, batch, seq int64) {
	o := &a.ModernBERT
	d := int64(a.Hidden)
	predict := func(x Tensor) Tensor {
		b.module = "head"
		x = b.linear(x, d, d, o.ClassifierBias, "dense")
		x = b.gelu(x)
		return b.layerNorm(x, d, o.NormBias)
	}
	switch a.Head {
	case "masked-lm":
		t := predict(h)
		bias := Tensor(-1)
		if o.DecoderBias {
			bias = b.param(int64(a.Vocab))
		}
		b.module = "decoder"
		logits := b.linearWith(t, wte, bias, d, int64(a.Vocab))
		// ForMaskedLMLoss: logits.float(), cross entropy over every token
		b.lmLoss(logits, batch, seq, int64(a.Vocab))
		return
	case "token-classification", "question-answering":
		t := b.dropout(predict(h), o.HeadDropout)
		b.module = "classifier"
		if a.Head == "question-answering" {
			logits := b.linear(t, d, 2, true, "qa_outputs")
			start := b.copy(b.slice(logits, batch*seq))
			end := b.copy(b.slice(logits, batch*seq))
			b.g.returned = append(b.g.returned, start, end)
			b.module = "loss"
			b.g.loss = b.scale(b.add(b.crossEntropy(start, seq), b.crossEntropy(end, seq)))
			return
		}
		classes := int64(max(a.Labels, 2))
		logits := b.linear(t, d, classes, true, "classifier")
		b.g.returned = append(b.g.returned, logits)
		b.module = "loss"
		b.g.loss = b.crossEntropy(logits, classes)
		return
	}
	// sequence classification: the first token (a view, which the head's
	// dense saves where no autocast cast copies it) or the masked mean
	var pooled Tensor
	if o.MeanPool {
		prod := b.mul(h, b.g.newTensor(batch*seq, F32, false))
		pooled = b.out(batch*d, b.dt(prod), prod)
		b.op("sum", []Tensor{prod}, []Tensor{pooled}, nil)
	} else {
		pooled = b.slice(h, batch*d)
	}
	t := b.dropout(predict(pooled), o.HeadDropout)
	classes := int64(max(a.Labels, 2))
	b.module = "classifier"
	logits := b.linear(t, d, classes, true, "classifier")
	b.g.returned = append(b.g.returned, logits)
	b.module = "loss"
	b.g.loss = b.crossEntropy(logits, classes)
}

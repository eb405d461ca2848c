package memmodel

// textInput allocates token ids (and the labels the task needs).
func (b *builder) textInput(batch, seq int64, labels int64) Tensor {
	ids := b.input(batch*seq, I64)
	if labels > 0 {
		b.input(labels, I64)
	}
	return ids
}

// lmLoss is Hugging Face's ForCausalLMLoss: logits.float(), labels padded
// and shifted, cross entropy over the vocabulary. The half logits stay
// referenced by the model output while the loss runs.
func (b *builder) lmLoss(logits Tensor, batch, seq, vocab int64) {
	b.holdOutput(logits)
	l := b.cast(logits, F32)
	b.g.loss = b.crossEntropy(l, vocab)
}

// buildBERT follows transformers' BertForSequenceClassification with SDPA.
func buildBERT(b *builder, a *Arch, batch, seq int64) {
	ids := b.textInput(batch, seq, batch)
	d, heads, ff := int64(a.Hidden), int64(a.Heads), int64(a.FFN)
	wte := b.param(int64(a.Vocab) * d)
	h := b.embedding(ids, wte, int64(a.Vocab), d)
	tt := b.param(int64(max(a.TypeVocab, 1)) * d)
	h = b.add(h, b.embedding(ids, tt, int64(max(a.TypeVocab, 1)), d))
	pos := b.param(int64(a.MaxPos) * d)
	pe := b.out(seq*d, b.dt(pos), pos)
	b.op("embedding", []Tensor{pos}, []Tensor{pe}, nil)
	h = b.add(h, pe)
	h = b.layerNorm(h, d, true)
	h = b.dropout(h, a.Dropout)
	for l := 0; l < a.Layers; l++ {
		b.block = l
		q := b.linear(h, d, d, true, "query")
		k := b.linear(h, d, d, true, "key")
		v := b.linear(h, d, d, true, "value")
		b.sel = true
		att := b.sdpa(q, k, v, batch, heads, seq, seq, d/heads, false)
		b.sel = false
		att = b.linear(att, d, d, true, "dense")
		att = b.dropout(att, a.Dropout)
		h = b.layerNorm(b.add(att, h), d, true)
		y := b.linear(h, d, ff, true, "intermediate")
		y = b.gelu(y)
		y = b.linear(y, ff, d, true, "output")
		y = b.dropout(y, a.Dropout)
		h = b.layerNorm(b.add(y, h), d, true)
	}
	b.block = -1
	b.g.blocks = a.Layers
	// pooler on the [CLS] token, dropout, classifier
	c := b.copy(h)
	b.tt(c).numel = batch * d
	c = b.linear(c, d, d, true, "pooler")
	c = b.unary("tanh", c, b.dt(c), false, true)
	c = b.dropout(c, a.Dropout)
	labels := int64(max(a.Labels, 2))
	logits := b.linear(c, d, labels, true, "classifier")
	b.g.loss = b.crossEntropy(logits, labels)
}

// buildGPT2 follows transformers' GPT2LMHeadModel with SDPA, the Python
// NewGELU, a DynamicCache filled in training (use_cache is on unless
// checkpointing), and the LM head tied to the token embedding.
func buildGPT2(b *builder, a *Arch, batch, seq int64, cache bool) {
	ids := b.textInput(batch, seq, batch*seq)
	d, heads, ff, vocab := int64(a.Hidden), int64(a.Heads), int64(a.FFN), int64(a.Vocab)
	wte := b.param(vocab * d)
	h := b.embedding(ids, wte, vocab, d)
	wpe := b.param(int64(a.MaxPos) * d)
	pe := b.out(seq*d, b.dt(wpe), wpe)
	b.op("embedding", []Tensor{wpe}, []Tensor{pe}, nil)
	h = b.add(h, pe)
	h = b.dropout(h, a.Dropout)
	for l := 0; l < a.Layers; l++ {
		b.block = l
		y := b.layerNorm(h, d, true)
		qkv := b.linear(y, d, 3*d, true, "c_attn")
		k, v := qkv, qkv
		if cache {
			k, v = b.copy(b.lowp(qkv)), b.copy(b.lowp(qkv))
			b.tt(k).numel, b.tt(v).numel = batch*seq*d, batch*seq*d
		}
		b.sel = true
		att := b.sdpa(qkv, k, v, batch, heads, seq, seq, d/heads, true)
		b.sel = false
		att = b.linear(att, d, d, true, "c_proj")
		att = b.dropout(att, a.Dropout)
		h = b.add(att, h)
		y = b.layerNorm(h, d, true)
		y = b.linear(y, d, ff, true, "c_fc")
		y = b.geluTanhPy(y)
		y = b.linear(y, ff, d, true, "c_proj")
		y = b.dropout(y, a.Dropout)
		h = b.add(h, y)
	}
	b.block = -1
	b.g.blocks = a.Layers
	h = b.layerNorm(h, d, true)
	logits := b.linearWith(h, wte, -1, d, vocab)
	b.lmLoss(logits, batch, seq, vocab)
}

// buildLlama follows transformers' LlamaForCausalLM (also Mistral, Qwen2):
// RMSNorm in float32, rotary embeddings applied in the hidden dtype, GQA
// through SDPA, SwiGLU MLP, tied or untied LM head.
func buildLlama(b *builder, a *Arch, batch, seq int64, cache bool) {
	ids := b.textInput(batch, seq, batch*seq)
	d, heads, kvh, hd, ff, vocab := int64(a.Hidden), int64(a.Heads), a.kvHeads(), a.headDim(), int64(a.FFN), int64(a.Vocab)
	wte := b.param(vocab * d)
	h := b.embedding(ids, wte, vocab, d)
	// rotary cos/sin, shared by all layers, in the hidden dtype
	cos := b.g.newTensor(batch*seq*hd, b.dt(h), false)
	sin := b.g.newTensor(batch*seq*hd, b.dt(h), false)
	b.op("rotary", []Tensor{ids}, []Tensor{cos, sin}, nil).noBackward = true
	rope := func(x Tensor, nh int64) Tensor {
		n := batch * nh * seq * hd
		xc := b.mul(x, cos)
		b.tt(xc).numel = n
		rot := b.copy(x) // rotate_half: cat(-x2, x1)
		r := b.mul(rot, sin)
		b.tt(r).numel = n
		return b.add(xc, r)
	}
	for l := 0; l < a.Layers; l++ {
		b.block = l
		y := b.rmsNorm(h, d)
		q := b.linear(y, d, heads*hd, a.AttnBias, "q_proj")
		k := b.linear(y, d, kvh*hd, a.AttnBias, "k_proj")
		v := b.linear(y, d, kvh*hd, a.AttnBias, "v_proj")
		b.sel = true
		q, k = rope(q, heads), rope(k, kvh)
		if cache {
			k, v = b.cacheKV(k, v)
		}
		att := b.sdpa(q, k, v, batch, heads, seq, seq, hd, true)
		b.sel = false
		att = b.linear(att, heads*hd, d, false, "o_proj")
		h = b.add(h, att)
		y = b.rmsNorm(h, d)
		g := b.linear(y, d, ff, false, "gate_proj")
		u := b.linear(y, d, ff, false, "up_proj")
		y = b.mul(b.silu(g), u)
		y = b.linear(y, ff, d, false, "down_proj")
		h = b.add(h, y)
	}
	b.block = -1
	b.g.blocks = a.Layers
	h = b.rmsNorm(h, d)
	var logits Tensor
	if a.Tied {
		logits = b.linearWith(h, wte, -1, d, vocab)
	} else {
		logits = b.linear(h, d, vocab, false, "lm_head")
	}
	b.lmLoss(logits, batch, seq, vocab)
}

// t5Attention is transformers' T5Attention with the SDPA backend: q, k, v
// projections, in the decoder the key/value cache copies (use_cache is on
// unless checkpointing), and SDPA with the position bias as additive mask.
// The self-attention bias is learned, so its mask requires grad and SDPA
// runs the math path; the cross-attention bias is a constant (fused kernel).
func (b *builder) t5Attention(x, kv Tensor, a *Arch, batch, sq, sk int64, bias Tensor, cache bool) Tensor {
	d, heads, hd := int64(a.Hidden), int64(a.Heads), a.headDim()
	inner := heads * hd
	q := b.linear(x, d, inner, false, "q")
	k := b.linear(kv, d, inner, false, "k")
	v := b.linear(kv, d, inner, false, "v")
	b.sel = true
	if cache {
		k, v = b.cacheKV(k, v)
	}
	s := attnShape{batch: batch, heads: heads, sq: sq, sk: sk, hd: hd, dropout: a.Dropout}
	var o Tensor
	if b.rg(bias) {
		// a cached value is contiguous in [B, H, S, hd]: bmm takes it as is
		o = b.sdpaMath(q, k, v, bias, s, cache)
	} else {
		o = b.sdpaMask(q, k, v, bias, s)
	}
	b.sel = false
	return b.linear(o, inner, d, false, "o")
}

// buildT5 follows transformers' T5ForConditionalGeneration (seq2seq with
// labels as decoder inputs, tied embeddings rescaled before the LM head).
func buildT5(b *builder, a *Arch, batch, seq int64, cache bool) {
	ids := b.textInput(batch, seq, batch*seq)
	d, ff, vocab, heads := int64(a.Hidden), int64(a.FFN), int64(a.Vocab), int64(a.Heads)
	wte := b.param(vocab * d)
	ffn := func(h Tensor) Tensor {
		y := b.rmsNorm(h, d)
		var z Tensor
		// the activation runs in the projection's dtype (bf16 under
		// autocast), not the float32 of the residual stream
		if a.GatedFFN {
			z = b.gelu(b.linear(y, d, ff, false, "wi_0"))
			z = b.mul(z, b.linear(y, d, ff, false, "wi_1"))
		} else {
			z = b.linear(y, d, ff, false, "wi")
			z = b.unary("relu", z, b.dt(z), false, true)
		}
		z = b.dropout(z, a.Dropout)
		z = b.linear(z, ff, d, false, "wo")
		return b.add(h, b.dropout(z, a.Dropout))
	}
	relBias := func() Tensor {
		w := b.param(int64(max(a.RelBuckets, 32)) * heads)
		t := b.out(heads*seq*seq, b.dt(w), w)
		b.op("embedding", []Tensor{w}, []Tensor{t}, nil)
		return t
	}
	h := b.dropout(b.embedding(ids, wte, vocab, d), a.Dropout)
	eb := relBias()
	for l := 0; l < a.Layers; l++ {
		b.block = l
		y := b.rmsNorm(h, d)
		h = b.add(h, b.dropout(b.t5Attention(y, y, a, batch, seq, seq, eb, false), a.Dropout))
		h = ffn(h)
	}
	enc := b.dropout(b.rmsNorm(h, d), a.Dropout)
	h = b.dropout(b.embedding(ids, wte, vocab, d), a.Dropout)
	db := relBias()
	// the cross-attention bias is zeros, made once, needing no gradient
	xb := b.g.newTensor(heads*seq*seq, F32, false)
	b.op("zeros", nil, []Tensor{xb}, nil).noBackward = true
	for l := 0; l < a.DecLayers; l++ {
		b.block = a.Layers + l
		y := b.rmsNorm(h, d)
		// create_position_bias_mask: bias + causal mask, a fresh tensor
		m := b.unary("add_mask", db, F32, false, false)
		h = b.add(h, b.dropout(b.t5Attention(y, y, a, batch, seq, seq, m, cache), a.Dropout))
		y = b.rmsNorm(h, d)
		h = b.add(h, b.dropout(b.t5Attention(y, enc, a, batch, seq, seq, xb, cache), a.Dropout))
		h = ffn(h)
	}
	b.block = -1
	b.g.blocks = a.Layers + a.DecLayers
	h = b.dropout(b.rmsNorm(h, d), a.Dropout)
	var logits Tensor
	if a.Tied {
		logits = b.linearWith(b.scale(h), wte, -1, d, vocab)
	} else {
		logits = b.linear(h, d, vocab, false, "lm_head")
	}
	// CrossEntropyLoss on the logits as they are (no .float() as in the
	// causal-LM loss)
	b.g.loss = b.crossEntropy(logits, vocab)
}

package memmodel

import "fmt"

// The T5 family: transformers' T5ForConditionalGeneration (v1.0 and the
// gated-gelu v1.1).

func init() {
	register(&Family{
		Name: "t5", Task: "seq2seq", Attention: true,
		// enable_input_require_grads' leaves, held (dev100)
		InputGradHeld: true,
		ModelTypes:    []string{"t5"},
		LoRATargets:   []string{"q", "v"},
		Models: []Arch{
			t5("t5-small", 512, 2048, 8, 6),
			t5("t5-base", 768, 3072, 12, 12),
			t5("t5-large", 1024, 4096, 16, 24),
			t5Wide("t5-3b", 16384, 32),
			t5Wide("t5-11b", 65536, 128),
			flanT5("flan-t5-small", 512, 1024, 6, 8),
			flanT5("flan-t5-base", 768, 2048, 12, 12),
			flanT5("flan-t5-large", 1024, 2816, 16, 24),
			flanT5("flan-t5-xl", 2048, 5120, 32, 24),
			flanT5("flan-t5-xxl", 4096, 10240, 64, 24),
		},
		Aliases: t5Aliases(),
		Build:   func(b *builder, a *Arch, in Input) { buildT5(b, a, in.Batch, in.Seq, in.Cache, in.Checkpoint) },
		FromHF:  t5FromHF,
	})
}

func t5(name string, hidden, ffn, heads, layers int) Arch {
	return Arch{Name: name, Family: "t5", Hidden: hidden, FFN: ffn, Heads: heads, HeadDim: 64, Layers: layers,
		DecLayers: layers, Vocab: 32128, Dropout: 0.1, Tied: true, RelBuckets: 32, DefaultSeq: 512}
}

// t5Wide is T5 v1.0's 3B and 11B: t5-large's 1024-wide stream and 24
// layers with 128-wide heads and a wider MLP.
func t5Wide(name string, ffn, heads int) Arch {
	a := t5(name, 1024, ffn, heads, 24)
	a.HeadDim = 128
	return a
}

// flanT5 is a T5 v1.1 shape (google/flan-t5-*, google/t5-v1_1-*): the
// gated-GELU MLP and an LM head of its own, as their config.json files
// say (feed_forward_proj gated-gelu, tie_word_embeddings false), which
// transformers 5.17 ties anyway (T5HeadNote says so in the plan).
func flanT5(name string, hidden, ffn, heads, layers int) Arch {
	a := t5(name, hidden, ffn, heads, layers)
	a.GatedFFN, a.Tied = true, false
	return a
}

// t5Aliases maps the hub ids to the catalog: google-t5/* and google/*
// for v1.0, google/flan-t5-* and the v1.1 checkpoints, which have the
// Flan shapes.
func t5Aliases() map[string]string {
	m := map[string]string{}
	for _, n := range []string{"t5-small", "t5-base", "t5-large", "t5-3b", "t5-11b"} {
		m["google-t5/"+n], m["google/"+n] = n, n
	}
	for _, n := range []string{"small", "base", "large", "xl", "xxl"} {
		m["google/flan-t5-"+n] = "flan-t5-" + n
		m["google/t5-v1_1-"+n], m["t5-v1_1-"+n] = "flan-t5-"+n, "flan-t5-"+n
	}
	return m
}

func t5FromHF(_ string, data []byte) (Arch, error) {
	var h struct {
		DModel     int      `json:"d_model"`
		DFF        int      `json:"d_ff"`
		DKV        int      `json:"d_kv"`
		NumHeads   int      `json:"num_heads"`
		NumLayers  int      `json:"num_layers"`
		DecLayers  int      `json:"num_decoder_layers"`
		Vocab      int      `json:"vocab_size"`
		DropRate   *float64 `json:"dropout_rate"`
		FFProj     string   `json:"feed_forward_proj"`
		RelBuckets int      `json:"relative_attention_num_buckets"`
		Tie        *bool    `json:"tie_word_embeddings"`
	}
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	a := t5("t5", h.DModel, h.DFF, h.NumHeads, h.NumLayers)
	if h.DKV > 0 {
		a.HeadDim = h.DKV
	}
	if h.DecLayers > 0 {
		a.DecLayers = h.DecLayers
	}
	if h.Vocab > 0 {
		a.Vocab = h.Vocab
	}
	if h.RelBuckets > 0 {
		a.RelBuckets = h.RelBuckets
	}
	a.Dropout = orF64(h.DropRate, 0.1)
	switch h.FFProj {
	case "", "relu":
	case "gated-gelu":
		a.GatedFFN = true
	default:
		// T5Config reads "gated-ACT" and "ACT" for any activation; the
		// builders model the two the released checkpoints use
		return Arch{}, fmt.Errorf("config.json: feed_forward_proj %q is not modelled for t5 (modelled: relu, gated-gelu)", h.FFProj)
	}
	a.Tied = orBool(h.Tie, !a.GatedFFN)
	if err := needPositive(hfKey{"d_model", h.DModel}, hfKey{"d_ff", h.DFF}, hfKey{"num_heads", h.NumHeads}, hfKey{"num_layers", h.NumLayers}); err != nil {
		return Arch{}, err
	}
	if err := notNegative(hfKey{"d_kv", h.DKV}, hfKey{"num_decoder_layers", h.DecLayers}, hfKey{"vocab_size", h.Vocab},
		hfKey{"relative_attention_num_buckets", h.RelBuckets}); err != nil {
		return Arch{}, err
	}
	return a, nil
}

// t5Attention is transformers' T5Attention with the SDPA backend: q, k, v
// projections, in the decoder the key/value cache copies (use_cache is on
// unless checkpointing), and SDPA with the position bias as additive mask.
// Every self-attention (its mask the relative position bias) runs SDPA's
// math path, whether or not the bias requires grad: dev100's Flan-T5
// LoRA trace, its bias frozen, saves the float32 scores of each (as
// dev94's inference traces do); the cross-attention's bias is zeros
// (a fused kernel, unless checkpointing makes it require grad).
func (b *builder) t5Attention(x, kv Tensor, a *Arch, batch, sq, sk int64, bias Tensor, cache, biasGrad bool) Tensor {
	d, heads, hd := int64(a.Hidden), int64(a.Heads), a.headDim()
	inner := heads * hd
	q := b.linear(x, d, inner, false, "q")
	k := b.linear(kv, d, inner, false, "k")
	v := b.linear(kv, d, inner, false, "v")
	b.sel = true
	if cache {
		k, v = b.cacheKV(k, v)
	}
	s := attnShape{batch: batch, heads: heads, sq: sq, sk: sk, hd: hd, dropout: a.Dropout, biasGrad: biasGrad}
	var o Tensor
	if x == kv || b.rg(bias) {
		// a cached value is contiguous in [B, H, S, hd]: bmm takes it as is
		o = b.sdpaMath(q, k, v, bias, s, cache)
	} else {
		o = b.sdpaMask(q, k, v, bias, s)
	}
	b.sel = false
	return b.linear(o, inner, d, false, "o")
}

// t5LayerNorm is transformers' T5LayerNorm. Unlike the decoders' RMSNorm
// (which casts its input to float32 once and normalises the copy), it
// takes only the variance in float32 and multiplies the input as it is:
//
//	variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
//	hidden_states = hidden_states * torch.rsqrt(variance + eps)
//	if self.weight.dtype in [torch.float16, torch.bfloat16]:
//	    hidden_states = hidden_states.to(self.weight.dtype)
//	return self.weight * hidden_states
//
// Under autocast and in float32 the residual stream is float32 and the two
// forms are the same. With half weights and no autocast the product's
// MulBackward saves the half input, so every residual-stream tensor a norm
// reads stays alive until backward (the T5 bf16w snapshot, 12+12 layers,
// b16 s256: 62 norms each keep an 8 MiB bf16 input the float32-copy form
// let go, 520 MB of its peak), and backward casts that input's float32
// gradient down before adding it to the variance path's. The float32
// product is rebound by the cast, so it is not kept until the return.
func (b *builder) t5LayerNorm(x Tensor, dim int64) Tensor {
	w := b.param(dim)
	v := b.reduce(b.pow(b.cast(x, F32)), b.numel(x)/dim)
	r := b.unary("rsqrt", v, F32, false, true)
	o := &b.g.ops[len(b.g.ops)-1]
	o.extra = append(o.extra, epsAdd(b.numel(v)))
	h := b.mul(x, r)
	if wd := b.dt(w); wd == BF16 || wd == F16 {
		h = b.cast(h, wd)
	}
	return b.mul(w, h)
}

// buildT5 follows transformers' T5ForConditionalGeneration (seq2seq with
// labels as decoder inputs, tied embeddings rescaled before the LM head).
func buildT5(b *builder, a *Arch, batch, seq int64, cache, ckpt bool) {
	ids := b.textInput(batch, seq, batch*seq)
	// under LoRA what reads nothing requiring grad saves nothing (the
	// embedding's dropout, the first layer's norm and frozen k)
	defer b.noGradSaves(len(b.g.ops))
	d, ff, vocab, heads := int64(a.Hidden), int64(a.FFN), int64(a.Vocab), int64(a.Heads)
	wte := b.param(vocab * d)
	ffn := func(h Tensor) Tensor {
		y := b.t5LayerNorm(h, d)
		var z Tensor
		// the activation runs in the projection's dtype (bf16 under
		// autocast), not the float32 of the residual stream
		if a.GatedFFN {
			// T5Config turns gated-gelu into dense_act_fn "gelu_new":
			// NewGELUActivation's Python ops, whose intermediates
			// autograd saves (dev100's Flan-T5 trace: 3.0 GiB of them
			// at s256 b16 float32, planned as one fused GELU -35.7%)
			z = b.activation("gelu_new", b.linear(y, d, ff, false, "wi_0"))
			z = b.mul(z, b.linear(y, d, ff, false, "wi_1"))
		} else {
			z = b.linear(y, d, ff, false, "wi")
			z = b.unary("relu", z, b.dt(z), false, true)
		}
		z = b.dropout(z, a.Dropout)
		zdt := b.dt(z)
		z = b.linear(z, ff, d, false, "wo")
		if o := &b.g.ops[len(b.g.ops)-1]; b.amp != F32 && b.pdt == F32 && zdt.Size() == 2 && o.kind == "linear" {
			o.extra = append(o.extra, castRoundTrip(b.numel(o.in[0]), zdt)...)
		}
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
		y := b.t5LayerNorm(h, d)
		h = b.add(h, b.dropout(b.t5Attention(y, y, a, batch, seq, seq, eb, false, false), a.Dropout))
		h = ffn(h)
	}
	// the encoder's final norm and dropout, and the decoder's embedding,
	// run outside every checkpointed block: what they save is held
	// until backward (dev44: the last encoder block's output, the norm's
	// product and the two dropout masks, 40 MiB at t5-small b16 s512)
	b.block = -1
	enc := b.dropout(b.t5LayerNorm(h, d), a.Dropout)
	h = b.dropout(b.embedding(ids, wte, vocab, d), a.Dropout)
	db := relBias()
	// the cross-attention bias is zeros, made once, in the attention's
	// dtype: modeling_t5.py:338 asks for 2 bytes an element under bf16
	// autocast (t5-small, unseen) and in pure bf16 (dev7), so SDPA needs
	// no cast of it. It needs no gradient unless gradient checkpointing
	// is on (T5Attention sets requires_grad on it then): the calls take
	// the memory-efficient kernels with the bias gradient (dev49's
	// checkpointed profile, fmha_cutlassB; dev50's calibration), a
	// (B, H, S, S) gradient each backward (attention.go's biasGrad)
	bdt := b.pdt
	if b.amp != F32 {
		bdt = b.amp
	}
	xb := b.g.newTensor(heads*seq*seq, bdt, false)
	b.op("zeros", nil, []Tensor{xb}, nil).noBackward = true
	for l := 0; l < a.DecLayers; l++ {
		b.block = a.Layers + l
		y := b.t5LayerNorm(h, d)
		// create_position_bias_mask: bias + causal mask, a fresh tensor
		m := b.unary("add_mask", db, F32, false, false)
		h = b.add(h, b.dropout(b.t5Attention(y, y, a, batch, seq, seq, m, cache, false), a.Dropout))
		y = b.t5LayerNorm(h, d)
		h = b.add(h, b.dropout(b.t5Attention(y, enc, a, batch, seq, seq, xb, cache, ckpt), a.Dropout))
		h = ffn(h)
	}
	b.block = -1
	b.g.blocks = a.Layers + a.DecLayers
	h = b.dropout(b.t5LayerNorm(h, d), a.Dropout)
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

// T5HeadNote says, for a T5 whose config unties the LM head (Flan-T5 and
// T5 v1.1 ship tie_word_embeddings false), that transformers 5.17 ties it
// anyway: dev101's probe built T5Config three ways from
// google/flan-t5-base's keys and got a shared head and the tied count each
// time. Plans follow the file (untied, as transformers 4 runs it), the
// larger figure; "" for other models.
func T5HeadNote(a *Arch) string {
	if a.Family != "t5" || a.Tied {
		return ""
	}
	head := int64(a.Vocab) * int64(a.Hidden)
	return fmt.Sprintf("%s's config unties its LM head (tie_word_embeddings false): planned untied, as transformers 4 runs it; transformers 5.17 ties T5's head whatever the config says, so under it the model has %.1fM fewer parameters (the head's weights, and its gradients and optimizer state where it trains)",
		a.Name, float64(head)/1e6)
}

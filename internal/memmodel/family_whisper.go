package memmodel

// The Whisper family: transformers' WhisperForConditionalGeneration, an
// encoder-decoder on log-mel features. The encoder's front end is two
// Conv1d (k=3; the second halves the 2·max_source_positions frames) each
// followed by GELU, plus frozen sinusoidal positions; encoder and decoder
// layers are pre-LayerNorm transformer layers whose attention scales q
// after its projection (one more tensor); each decoder layer cross-attends over the encoder's
// max_source_positions outputs; the LM head is tied to the token
// embedding and the loss is CrossEntropyLoss on the logits as they are.
// The decoder fills its self- and cross-attention caches in training
// (use_cache) unless checkpointing turns them off.

func init() {
	register(&Family{
		Name: "whisper", Task: "speech-seq2seq", Attention: true,
		// enable_input_require_grads' leaves, held (dev100)
		InputGradHeld: true,
		ModelTypes:    []string{"whisper"},
		LoRATargets:   []string{"q_proj", "v_proj"},
		Models: []Arch{
			whisper("whisper-tiny", 384, 4, 6, 1536),
			whisper("whisper-base", 512, 6, 8, 2048),
			whisper("whisper-small", 768, 12, 12, 3072),
			whisper("whisper-medium", 1024, 24, 16, 4096),
			whisper("whisper-large-v2", 1280, 32, 20, 5120),
			whisperV3("whisper-large-v3", 32),
			whisperV3("whisper-large-v3-turbo", 4),
		},
		Aliases: map[string]string{
			"openai/whisper-tiny": "whisper-tiny", "openai/whisper-base": "whisper-base",
			"openai/whisper-small": "whisper-small", "openai/whisper-medium": "whisper-medium",
			"openai/whisper-large-v2": "whisper-large-v2", "openai/whisper-large-v3": "whisper-large-v3",
			"openai/whisper-large-v3-turbo": "whisper-large-v3-turbo", "whisper-large": "whisper-large-v3",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildWhisper(b, a, in.Batch, in.Seq, in.Cache) },
		FromHF: whisperFromHF,
	})
}

func whisper(name string, d, layers, heads, ffn int) Arch {
	return Arch{Name: name, Family: "whisper", Hidden: d, Layers: layers, DecLayers: layers, Heads: heads, FFN: ffn,
		Vocab: 51865, Tied: true, MaxPos: 448, DefaultSeq: 448, MelBins: 80, SourcePos: 1500}
}

// whisperV3 is large-v3's shape (128 mel bins, one more token) with its
// decoder's layer count (turbo keeps 4 of 32).
func whisperV3(name string, decLayers int) Arch {
	a := whisper(name, 1280, 32, 20, 5120)
	a.DecLayers, a.MelBins, a.Vocab = decLayers, 128, 51866
	return a
}

func whisperFromHF(_ string, data []byte) (Arch, error) {
	var h struct {
		hfEncDec
		Mel    int `json:"num_mel_bins"`
		Source int `json:"max_source_positions"`
		Target int `json:"max_target_positions"`
	}
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	if err := h.check(); err != nil {
		return Arch{}, err
	}
	if err := notNegative(hfKey{"num_mel_bins", h.Mel}, hfKey{"max_source_positions", h.Source}, hfKey{"max_target_positions", h.Target}); err != nil {
		return Arch{}, err
	}
	a := whisper("whisper", h.DModel, h.EncLayers, h.EncHeads, h.EncFFN)
	a.DecLayers = h.DecLayers
	if h.Vocab > 0 {
		a.Vocab = h.Vocab
	}
	if h.Mel > 0 {
		a.MelBins = h.Mel
	}
	if h.Source > 0 {
		a.SourcePos = h.Source
	}
	if h.Target > 0 {
		a.MaxPos, a.DefaultSeq = h.Target, h.Target
	}
	a.Dropout = orF64(h.Dropout, 0)
	return a, nil
}

// conv1d is nn.Conv1d with bias over [n, cin, l] (cuDNN runs it as a 2-D
// convolution of height 1: the half-precision workspace rules apply).
func (b *builder) conv1d(x Tensor, n, cin, l, cout, k, stride, pad int64) (Tensor, int64) {
	lo := (l+2*pad-k)/stride + 1
	w := b.param(cout * cin * k)
	bp := b.param(cout)
	xc, wc, bc := b.lowpArgs(x, w, bp)
	ins := []Tensor{xc, wc, bc}
	y := b.out(n*cout*lo, b.dt(xc), ins...)
	// ConvolutionBackward0 computes every gradient in one formula, so it
	// saves the input and the weight when either requires grad (dev100:
	// under LoRA with the encoder's conv1 output hooked to require grad,
	// the frozen conv2 keeps its input, the GELU's output)
	var save []Tensor
	if b.rg(wc) || b.rg(xc) {
		save = append(save, xc, wc)
	}
	o := b.op("conv1d", ins, []Tensor{y}, save)
	o.flops = 2 * float64(n*cout*lo*cin*k)
	o.bwdFlops = 2 * o.flops
	o.matmul, o.cudnn = true, true
	inB, outB := b.tt(xc).bytes(), b.tt(y).bytes()
	if b.dt(xc).Size() == 2 {
		// cuDNN's general algorithm, as for ResNet's dense convs
		// (convWorkspace): input + output + weight + 147 bytes forward and
		// for the data gradient, to the byte in the bf16 Whisper traces
		// (b16 and b32, both convs); the weight gradient the same plus the
		// split-K partials (0 for the 384→384 conv as traced; the first
		// conv's is 2.4 MB at b16 but 15 MB at b32, under-estimated there)
		fw, dg, wg := convWorkspace(convWork{n: n, cin: cin, cout: cout, k: k, stride: stride, h: l, ho: lo,
			in: inB, out: outB, weight: b.tt(wc).bytes(), half: true})
		scale := func(v int64) int64 { return int64(float64(v) * b.workspace) }
		o.fwdTemp = []int64{scale(fw)}
		o.gradWork = []int64{0, 0, 0}
		if b.rg(xc) {
			o.gradWork[0] = scale(dg)
		}
		if b.rg(wc) {
			o.gradWork[1] = scale(wg)
		}
	} else {
		// float32 forwards ask for the general algorithm's workspace too
		// (dev100's Conv1d probe over Whisper's front-end shapes: input +
		// output + weight, to the MiB, where 1.5 × the larger was
		// planned: 4-6 MiB short on Whisper-base's stride-2 conv, 15 MiB
		// over on its first); the backward's is not probed
		big := maxI64(outB, inB)
		o.fwdTemp = []int64{GeneralConvWorkspace(inB, outB, b.tt(wc).bytes())}
		o.bwdTemp = []int64{big}
	}
	return y, lo
}

// whisperAttention is WhisperAttention with SDPA: q projected (with
// bias) and scaled before the heads are split (the original order of
// scaling), k (no bias) and v (bias) projected from kv, all passed to SDPA
// as transposed views, the cache copies in the decoder, out_proj.
func (b *builder) whisperAttention(x, kv Tensor, a *Arch, batch, sq, sk int64, causal, cache bool) Tensor {
	d, heads := int64(a.Hidden), int64(a.Heads)
	// each projection is split into heads with view(...).transpose(1,
	// 2).contiguous(): a copy per projection (the late Whisper snapshot
	// allocates one at each of the q, k and v lines), so SDPA's output is
	// [b, h, s, d]-contiguous, and so is flash's output, which
	// sdpa_attention_forward's transpose(1, 2).contiguous() copies once
	// more; the memory-efficient kernel (float32) writes [b, s, h, d]
	// already, so the transpose is contiguous there
	q := b.copy(b.scale(b.linear(x, d, d, true, "q_proj")))
	k := b.copy(b.linear(kv, d, d, false, "k_proj"))
	v := b.copy(b.linear(kv, d, d, true, "v_proj"))
	qkv := []Tensor{x, q, k, v}
	b.sel = true
	if cache {
		k, v = b.cacheKV(k, v)
	}
	o := b.sdpa(q, k, v, batch, heads, sq, sk, d/heads, causal)
	if !b.efficientOut(o) {
		o = b.copy(o)
	}
	b.sel = false
	y := b.linear(o, d, d, true, "out_proj")
	// the layer's hidden_states (its LayerNorm's output) and the split
	// heads are the module's arguments and locals until it returns (the
	// dev8 checkpointed snapshot frees them after out_proj)
	b.keep(qkv...)
	return y
}

// contiguousNorm marks the LayerNorm just recorded as one on the
// encoder's stream, which is laid out as the permuted conv output it
// started as: layer_norm copies it contiguous before its output and
// again in backward (every encoder LayerNorm of the dev8 snapshot, none
// of the decoder's).
func (b *builder) contiguousNorm(y Tensor) Tensor {
	o := &b.g.ops[len(b.g.ops)-1]
	if o.kind == "layer_norm" {
		n := b.tt(o.in[0]).bytes()
		o.fwdHeld, o.bwdHeld = []int64{n}, []int64{n}
		o.contigIn, o.contigPermuted = true, true
	}
	return y
}

// permuted marks the add just recorded as one on the encoder's permuted
// stream against a contiguous operand (op.permuted).
func (b *builder) permuted(y Tensor) Tensor {
	if o := &b.g.ops[len(b.g.ops)-1]; o.kind == "add" {
		o.permuted = true
	}
	return y
}

// buildWhisper records WhisperForConditionalGeneration with labels of
// seq tokens (the decoder inputs are the labels shifted right).
func buildWhisper(b *builder, a *Arch, batch, seq int64, cache bool) {
	d, ff, vocab := int64(a.Hidden), int64(a.FFN), int64(a.Vocab)
	src := int64(a.SourcePos)
	feats := b.input(batch*int64(a.MelBins)*2*src, b.pdt) // input features in the weights' dtype
	b.input(batch*seq, I64)                               // labels
	ids := b.input(batch*seq, I64)
	// under LoRA the frozen front-end convolutions, their GELUs and the
	// first layers' frozen projections read nothing requiring grad:
	// autograd saves nothing for them (late92's Whisper-base LoRA row,
	// planned with the conv outputs held, +3.6%)
	defer b.noGradSaves(len(b.g.ops))
	b.module = "encoder.conv"
	x, l := b.conv1d(feats, batch, int64(a.MelBins), 2*src, d, 3, 1, 1)
	if b.inputGrad {
		// enable_input_require_grads hooks every sub-model's input
		// embeddings: WhisperEncoder's are conv1, whose output becomes a
		// leaf requiring grad (dev100's LoRA checkpointed trace: it and
		// the GELU after it saved, 70 MiB each at whisper-small b16),
		// held with its .grad until backward ends
		b.tt(x).grad = true
		b.g.leafHeld = append(b.g.leafHeld, x)
	}
	x = b.gelu(x)
	x, l = b.conv1d(x, batch, d, l, d, 3, 2, 1)
	x = b.gelu(x)
	inputsEmbeds := x
	b.frozen, b.module = true, "encoder.embed_positions"
	pos := b.param(src * d)
	b.frozen = b.lora != nil
	// embed_positions(arange(...)): an embedding lookup of all the
	// positions, a copy of the table freed once added (the dev8 Whisper
	// trace: 2.20 MiB at modeling_whisper.py:626, transformers 5.17)
	epos := b.out(src*d, b.dt(pos), pos)
	b.op("embedding", []Tensor{pos}, []Tensor{epos}, nil)
	h := b.permuted(b.add(x, epos)) // the permuted conv output plus all positions
	h = b.dropout(h, a.Dropout)
	ffn := func(h Tensor, enc bool) Tensor {
		y := b.layerNorm(h, d, true)
		if enc {
			y = b.contiguousNorm(y)
		}
		z := b.gelu(b.linear(y, d, ff, true, "fc1"))
		b.keep(y) // activation_fn(fc1(hidden_states)): one statement
		z = b.linear(z, ff, d, true, "fc2")
		z = b.add(h, b.dropout(z, a.Dropout))
		if enc {
			z = b.permuted(z)
		}
		return z
	}
	for i := 0; i < a.Layers; i++ {
		b.block, b.module = i, "encoder.layers."+itoa(i)
		y := b.contiguousNorm(b.layerNorm(h, d, true))
		h = b.permuted(b.add(h, b.dropout(b.whisperAttention(y, y, a, batch, l, l, false, false), a.Dropout)))
		h = ffn(h, true)
	}
	b.block, b.module = -1, "encoder.layer_norm"
	enc := b.contiguousNorm(b.layerNorm(h, d, true))
	// WhisperEncoder.forward's inputs_embeds, a local until it returns
	// (the dev8 Whisper trace: the second conv's GELU output alive
	// through the encoder)
	b.keep(inputsEmbeds)
	b.module = "decoder.embed_tokens"
	wte := b.param(vocab * d)
	h = b.embedding(ids, wte, vocab, d)
	wpe := b.param(int64(a.MaxPos) * d)
	pe := b.out(seq*d, b.dt(wpe), wpe)
	b.op("embedding", []Tensor{wpe}, []Tensor{pe}, nil)
	h = b.dropout(b.add(h, pe), a.Dropout)
	for i := 0; i < a.DecLayers; i++ {
		b.block, b.module = a.Layers+i, "decoder.layers."+itoa(i)
		y := b.layerNorm(h, d, true)
		h = b.add(h, b.dropout(b.whisperAttention(y, y, a, batch, seq, seq, true, cache), a.Dropout))
		y = b.layerNorm(h, d, true)
		h = b.add(h, b.dropout(b.whisperAttention(y, enc, a, batch, seq, l, false, cache), a.Dropout))
		h = ffn(h, false)
	}
	b.block, b.module = -1, "decoder.layer_norm"
	b.g.blocks = a.Layers + a.DecLayers
	h = b.layerNorm(h, d, true)
	b.module = "proj_out"
	logits := b.linearWith(h, wte, -1, d, vocab)
	b.module = "loss"
	b.g.loss = b.crossEntropy(logits, vocab)
}

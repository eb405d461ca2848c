package memmodel

// Wav2Vec2's graph (family_wav2vec2.go): the feature encoder's 1-D
// convolutions and norms, the positional convolution, the encoder and the
// two heads, as transformers' modeling_wav2vec2 runs them in training.

// conv1d1 is the shape of one nn.Conv1d call over [n, cin, l].
type conv1d1 struct{ n, cin, l, cout, k, stride, pad, groups int64 }

// w2vConv is nn.Conv1d with weight w and bias bp (-1: none). strided: its
// input is a transposed view, which the convolution copies contiguous
// before cuDNN runs, forward and again for its backward. Autograd saves
// input and weight whenever either needs a gradient (one formula for
// both, as conv2d notes). Returns the output and its length.
func (b *builder) w2vConv(x, w, bp Tensor, s conv1d1, strided bool) (Tensor, int64) {
	lo := (s.l+2*s.pad-s.k)/s.stride + 1
	xc, wc, bc := b.lowpArgs(x, w, bp)
	ins := []Tensor{xc, wc}
	if bc >= 0 {
		ins = append(ins, bc)
	}
	y := b.out(s.n*s.cout*lo, b.dt(xc), ins...)
	var save []Tensor
	if b.rg(xc) || b.rg(wc) {
		save = []Tensor{xc, wc}
	}
	o := b.op("conv1d", ins, []Tensor{y}, save)
	o.flops = 2 * float64(s.n*s.cout*lo*(s.cin/s.groups)*s.k)
	for _, t := range []Tensor{xc, wc} {
		if b.rg(t) {
			o.bwdFlops += o.flops
		}
	}
	o.matmul, o.cudnn = s.groups == 1, true
	inB, outB := b.tt(xc).bytes(), b.tt(y).bytes()
	if strided {
		o.fwdHeld = []int64{inB}
		if save != nil {
			o.bwdHeld = []int64{inB}
		}
	}
	scale := func(v int64) int64 { return int64(float64(v) * b.workspace) }
	switch half := b.dt(xc).Size() == 2; {
	case s.groups != 1:
		// the positional conv's workspace is small beside its weight
		// (0.2 MB at base b8 10 s bf16; 12 MB at b4 5 s fp32, left out)
	case s.cin == 1 && !half:
		// the first conv on the raw audio takes none in float32, forward
		// or backward (dev95's fp32 trace)
	case s.cin == 1:
		// in half precision cuDNN works on the audio with its one channel
		// padded to eight (as ResNet's bf16 stem pads its three,
		// stemPadBytes): output, eight times the input, the weight and
		// 71,696 bytes forward, to the byte in dev95's bf16 traces (base
		// b8 10 s: 282,697,744; large b4 8 s: 113,127,440), and the same
		// for its data gradient (the LoRA row, whose audio requires grad:
		// 226,164,752 both ways); the weight gradient is assumed to take
		// it too (not captured: no bf16 trace trains the feature
		// encoder). fp16 is assumed to pad to four as the stem does (not
		// captured).
		pad := int64(8)
		if b.dt(xc) == F16 {
			pad = 4
		}
		ws := outB + pad*inB + b.tt(wc).bytes() + 71696
		setConvWork(o, scale, ws, ws, ws, b.rg(xc), b.rg(wc))
	default:
		// cuDNN's general algorithm (input + output + weight), as for
		// ResNet's dense convs and Whisper's conv1d: dev95's traces, to
		// the byte for the bf16 512→512 k3 convs and the fp32 ones past
		// the second (the fp32 second, third and last take two or three
		// weights more, left out)
		fw, dg, wg := convWorkspace(convWork{n: s.n, cin: s.cin, cout: s.cout, k: s.k, stride: s.stride, h: s.l, ho: lo,
			in: inB, out: outB, weight: b.tt(wc).bytes(), half: half})
		setConvWork(o, scale, fw, dg, wg, b.rg(xc), b.rg(wc))
	}
	if bc >= 0 && b.rg(bc) {
		o.bwdTemp = append(o.bwdTemp, biasGradScratch(s.n*lo, s.cout, b.ctaLimit)...)
	}
	return y, lo
}

// channelNorm is nn.GroupNorm with one group a channel over [n, c, l]
// (float32 under autocast), the base layout's first conv layer.
func (b *builder) channelNorm(x Tensor, n, c int64) Tensor {
	w, bias := b.param(c), b.param(c)
	xc := b.fp32(x)
	y := b.out(b.numel(x), b.dt(xc), xc, w)
	mean := b.g.newTensor(n*c, F32, false)
	rstd := b.g.newTensor(n*c, F32, false)
	o := b.op("group_norm", []Tensor{xc, w, bias}, []Tensor{y, mean, rstd}, []Tensor{xc, mean, rstd})
	o.flops, o.bwdFlops = 5*float64(b.numel(x)), 8*float64(b.numel(x))
	return y
}

// w2vFeatures is Wav2Vec2FeatureEncoder on the audio x: the conv layers,
// each conv, its norm and GELU, the layer's argument bound until it
// returns. Unless frozen, input_values[:, None] is made to require grad
// (transformers sets it so, for checkpointing), so every layer saves its
// activations even where its weights are frozen (LoRA), and under
// checkpointing each conv layer is a block (blocks 0..). Returns the
// output and its frames.
func (b *builder) w2vFeatures(a *Arch, x Tensor, in Input) (Tensor, int64) {
	w := &a.Wav2Vec2
	fr := b.frozen
	b.frozen = fr || in.FreezeFeatures
	h := b.alias(x)
	b.tt(h).grad = !in.FreezeFeatures
	cin, l := int64(1), in.Samples
	strided := false
	for i, cd := range w.ConvDim {
		if in.Checkpoint && !in.FreezeFeatures {
			b.block = i
		}
		b.module = "wav2vec2.feature_extractor.conv_layers." + itoa(i)
		arg, cout, k := h, int64(cd), int64(w.ConvKernel[i])
		wt := b.param(cout * cin * k)
		var bp Tensor = -1
		if w.ConvBias {
			bp = b.param(cout)
		}
		y, lo := b.w2vConv(h, wt, bp, conv1d1{n: in.Batch, cin: cin, l: l, cout: cout, k: k,
			stride: int64(w.ConvStride[i]), groups: 1}, strided)
		// the conv's output stays bound (hidden_states, transposed for a
		// LayerNorm) until its norm returns, though the norm reads its
		// float32 cast (dev95's traces free it after the norm's output)
		switch conv := y; {
		case w.LayerNormConv:
			// over the channels of the transposed conv output: layer_norm
			// copies it contiguous, and GELU then keeps the [n, l, c]
			// layout, which the next conv copies back
			y = b.contiguousNorm(b.layerNorm(y, cout, true))
			b.keep(conv)
			strided = true
		case i == 0:
			y = b.channelNorm(y, in.Batch, cout)
			b.keep(conv)
		}
		h = b.gelu(y)
		b.keep(arg)
		cin, l = cout, lo
	}
	b.block = -1
	b.frozen = fr
	return h, l
}

// w2vPosConv is Wav2Vec2PositionalConvEmbedding on h [n, t, d]: the
// weight recomputed from weight_v and weight_g (weight_norm over the
// kernel dimension) at every call, the grouped conv over h transposed,
// the extra frame of an even kernel sliced off, GELU.
func (b *builder) w2vPosConv(h Tensor, a *Arch, batch, t int64) Tensor {
	w := &a.Wav2Vec2
	d, k, g := int64(a.Hidden), int64(w.PosConv), int64(w.PosGroups)
	bias := b.param(d)
	gain := b.param(k)
	v := b.param(d * d / g * k)
	wt := b.out(b.numel(v), b.dt(v), v, gain)
	norms := b.g.newTensor(k, F32, false)
	o := b.op("weight_norm", []Tensor{v, gain}, []Tensor{wt, norms}, nil)
	if b.rg(v) {
		o.save = []Tensor{v, gain, norms}
	}
	o.flops, o.bwdFlops = 3*float64(b.numel(v)), 6*float64(b.numel(v))
	y, lo := b.w2vConv(h, wt, bias, conv1d1{n: batch, cin: d, l: t, cout: d, k: k, stride: 1, pad: k / 2, groups: g}, true)
	if lo != t {
		y = b.slice(y, batch*d*t)
	}
	return b.gelu(y)
}

// w2vFeedForward is Wav2Vec2FeedForward: intermediate_dense, GELU,
// activation dropout, output_dense, hidden dropout.
func (b *builder) w2vFeedForward(x Tensor, a *Arch) Tensor {
	d, ff := int64(a.Hidden), int64(a.FFN)
	m := b.gelu(b.linear(x, d, ff, true, "intermediate_dense"))
	m = b.dropout(m, a.ActDropout)
	m = b.linear(m, ff, d, true, "output_dense")
	return b.dropout(m, a.Dropout)
}

// ctcLabelsPerSecond is how many CTC labels a second of audio is planned
// with (about 12 characters a second of read speech).
const ctcLabelsPerSecond = 12

// buildWav2Vec2 records Wav2Vec2ForCTC (or, Arch.Head
// sequence-classification, Wav2Vec2ForSequenceClassification) on in.Batch
// samples of in.Samples audio samples.
func buildWav2Vec2(b *builder, a *Arch, in Input) {
	w := &a.Wav2Vec2
	batch, d := in.Batch, int64(a.Hidden)
	// under LoRA or with the feature encoder frozen, ops that read nothing
	// requiring grad save nothing
	defer b.noGradSaves(len(b.g.ops))
	// the raw audio in the weights' dtype: a bfloat16 model's first conv1d
	// refuses float32 samples (input and bias types must match), so a
	// pure half-precision run casts them; under autocast they stay float32
	x := b.input(batch*in.Samples, b.pdt)
	cls := a.Head == "sequence-classification"
	if cls {
		b.input(batch, I64)
	} else {
		b.input(batch*in.Samples*ctcLabelsPerSecond/AudioRate, I64)
	}
	feat, t := b.w2vFeatures(a, x, in)
	c := int64(w.ConvDim[len(w.ConvDim)-1])
	b.module = "wav2vec2.feature_projection"
	e := b.layerNorm(feat, c, true)
	if !w.LayerNormConv {
		// the transposed [n, c, t] output of a GELU: copied contiguous
		e = b.contiguousNorm(e)
	}
	h := b.dropout(b.linear(e, c, d, true, "projection"), w.FeatProjDropout)
	b.keep(feat)
	if w.MaskTime {
		// _mask_hidden_states: hidden_states[mask] = masked_spec_embed,
		// in place on the projection's output
		b.module = "wav2vec2"
		emb := b.cast(b.param(d), b.dt(h))
		mask := b.intOp("spec_mask", batch*t, U8)
		z := b.alias(h)
		b.tt(z).grad = b.rg(h) || b.rg(emb)
		b.op("index_put_", []Tensor{h, emb, mask}, []Tensor{z}, nil).passGrad = []bool{true, false, false}
		h = z
	}
	b.module = "wav2vec2.encoder"
	pos := b.w2vPosConv(h, a, batch, t)
	s := b.add(h, pos)
	if !w.Stable {
		s = b.layerNorm(s, d, true)
	}
	s = b.dropout(s, a.Dropout)
	off := 0
	if in.Checkpoint && !in.FreezeFeatures {
		off = len(w.ConvDim)
	}
	// Wav2Vec2ForSequenceClassification's forward has the encoder return
	// every layer's input and its own output (hidden_states), bound until
	// it returns (dev95's LoRA trace: the embeddings' dropout output and
	// each layer's final LayerNorm output freed together after the loss);
	// the CTC head's does not (its traces free each at the next layer)
	var states []Tensor
	for i := range a.Layers {
		b.block, b.module = off+i, "wav2vec2.encoder.layers."+itoa(i)
		arg := s
		states = append(states, s)
		if w.Stable {
			y := b.layerNorm(s, d, true)
			att := b.bartAttention(y, y, a, batch, t, t, false)
			b.keep(y)
			s1 := b.add(s, att)
			y2 := b.layerNorm(s1, d, true)
			s = b.add(s1, b.w2vFeedForward(y2, a))
			b.keep(y2, s1)
		} else {
			h1 := b.bartResidual(s, b.bartAttention(s, s, a, batch, t, t, false), d)
			s = b.bartResidual(h1, b.w2vFeedForward(h1, a), d)
			b.keep(h1)
		}
		b.keep(arg)
	}
	b.block = -1
	b.g.blocks = off + a.Layers
	if w.Stable {
		s = b.layerNorm(s, d, true)
	}
	// the encoder's position_embeddings local, bound until it returns
	// (dev95's traces: the positional GELU's output freed after the last
	// layer); Wav2Vec2Model.forward's hidden_states (the projection's
	// output) and extract_features (the projection's LayerNorm output,
	// returned with the model output) until it returns
	b.keep(pos, h, e)
	if cls {
		w2vClassify(b, a, s, batch)
		b.keep(append(states, s)...)
		return
	}
	w2vCTC(b, a, s, batch, t, in.Samples)
}

// w2vCTC is Wav2Vec2ForCTC's head: dropout, lm_head, an int64 attention
// mask of ones the size of the audio (ones_like(input_values), alive
// until forward returns), log_softmax in float32 (the logits converted
// first), and ctc_loss with cuDNN off: the native kernel saves its log_alpha
// [n, t, 2·labels+1] beside the log-probabilities, and its backward makes
// log_beta of that size and the log-probabilities' gradient.
func w2vCTC(b *builder, a *Arch, s Tensor, batch, t, samples int64) {
	d, vocab := int64(a.Hidden), int64(a.Vocab)
	b.module = "lm_head"
	logits := b.linear(b.dropout(s, a.Wav2Vec2.FinalDropout), d, vocab, true, "lm_head")
	b.module = "loss"
	ones := b.intOp("ones_like", batch*samples, I64)
	labels := samples * ctcLabelsPerSecond / AudioRate
	targets := b.intOp("masked_select", batch*labels, I64)
	lp := b.unary("log_softmax", b.cast(logits, F32), F32, false, true)
	alpha := b.g.newTensor(batch*t*(2*labels+1), F32, false)
	nll := b.out(batch, F32, lp)
	o := b.op("ctc_loss", []Tensor{lp, targets}, []Tensor{nll, alpha}, []Tensor{lp, targets, nll, alpha})
	o.bwdHeld = []int64{b.tt(alpha).bytes()}
	o.flops, o.bwdFlops = float64(b.tt(alpha).numel)*4, float64(b.tt(alpha).numel)*8
	b.g.loss = b.reduce(nll, 1)
	b.keep(ones)
}

// w2vClassify is Wav2Vec2ForSequenceClassification's head: the projector
// on every frame, the mean over frames, the classifier, cross entropy.
func w2vClassify(b *builder, a *Arch, s Tensor, batch int64) {
	d, p, classes := int64(a.Hidden), int64(a.Wav2Vec2.ClassifierProj), int64(max(a.Labels, 2))
	b.module = "projector"
	h := b.linear(s, d, p, true, "projector")
	m := b.reduce(h, batch*p)
	b.module = "classifier"
	logits := b.linear(m, p, classes, true, "classifier")
	b.module = "loss"
	b.g.loss = b.crossEntropy(logits, classes)
}

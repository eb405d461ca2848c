package memmodel

// The ViT family: torchvision's vision_transformer (vit_b_16 …).

func init() {
	register(&Family{
		Name: "vit", Task: "image-classification", Vision: true, Attention: true, Captured: true,
		LoRATargets: []string{"qkv"},
		Models: []Arch{
			vit("vit-b16", 768, 12, 12, 3072, 16),
			vit("vit-l16", 1024, 24, 16, 4096, 16),
			vit("vit-h14", 1280, 32, 16, 5120, 14),
		},
		Aliases: map[string]string{
			"vit_b_16": "vit-b16", "vit_l_16": "vit-l16", "vit_h_14": "vit-h14",
			"vit-base-patch16-224": "vit-b16", "vit-large-patch16-224": "vit-l16",
			"vit-base": "vit-b16", "vit-large": "vit-l16",
		},
		Build: func(b *builder, a *Arch, in Input) { buildViT(b, a, in.Batch, in.Image) },
	})
}

func vit(name string, hidden, layers, heads, ffn, patch int) Arch {
	return Arch{Name: name, Family: "vit", Hidden: hidden, Layers: layers, Heads: heads, FFN: ffn, Patch: patch,
		Classes: 1000, ImageSize: 224}
}

// buildViT follows torchvision.models.vision_transformer: patch conv, class
// token, position embedding, encoder blocks with nn.MultiheadAttention
// (packed in-projection, fused SDPA), final LayerNorm, linear head.
//
// nn.MultiheadAttention runs batch_first inputs seq-first: its output is
// a transposed view of out_proj's [seq·batch, d] result, so from the
// first attention on the residual stream is laid out seq-first and every
// LayerNorm after it copies its input contiguous in forward and again in
// backward (layer_norm's X.contiguous(); the H200 ViT-B/16 traces, fp32
// and bf16, checkpointed or not: one transient of the stream's size
// before each LayerNorm's output but block 0's ln_1). Flash and cuDNN
// attention allocate their output in q's layout, which is seq-first
// here, so permute(2, 0, 1, 3).contiguous() copies nothing (bf16 traces:
// out_proj reads SDPA's output); the memory-efficient kernel (float32)
// allocates batch-first and the copy is made.
func buildViT(b *builder, a *Arch, batch, image int64) {
	x, _ := b.imageInput(batch, image)
	d := int64(a.Hidden)
	p := int64(a.Patch)
	x = b.conv2d(x, d, p, p, 0, 1, true)
	b.vitStemWorkspace()
	seq := x.h*x.w + 1
	first := len(b.g.params) // the class token's index; the patch conv's are before it
	cls := b.param(d)
	// the float32 class token promotes the cat under autocast
	h := b.out(batch*seq*d, promote(b.dt(x.t), b.dt(cls)), x.t, cls)
	o := b.op("cat", []Tensor{x.t, cls}, []Tensor{h}, nil)
	o.passGrad = []bool{false, false}
	pos := b.param(seq * d)
	// model.to(device)'s order (Module._apply: children before a module's
	// own parameters): the patch conv, then each block with
	// MultiheadAttention's out_proj before its own in_proj weight and
	// bias, the final LayerNorm, the encoder's position embedding, the
	// head, and the class token last (dev42's ViT-B/16 trace: 2.25, 6.75,
	// 9 and 9 MiB per block); parameters(), which the optimizer follows,
	// is own parameters first, the order the builder registers them in
	load := appendRanges(nil, [2]int{0, first})
	tokens := h
	h = b.add(h, pos)
	heads := int64(a.Heads)
	// seqFirst marks a LayerNorm whose input is the seq-first stream
	seqFirst := func(y Tensor) Tensor {
		o := &b.g.ops[len(b.g.ops)-1]
		n := b.tt(o.in[0]).bytes()
		o.fwdHeld, o.bwdHeld = []int64{n}, []int64{n}
		o.contigIn = true
		return y
	}
	flash := b.attn != "mem_efficient" && b.attn != "math" && b.attn != "eager"
	for l := 0; l < a.Layers; l++ {
		b.block = l
		start := len(b.g.params)
		y := b.layerNorm(h, d, true)
		if l > 0 {
			y = seqFirst(y)
		}
		// in_proj reads y through MultiheadAttention's seq-first
		// transpose, so y's gradient comes back strided and layer_norm's
		// backward copies it contiguous once dX exists, freed when it
		// returns (ViT-L/16 b128 fp16 and ViT-B/16 b64 bf16 checkpointed
		// traces: a third stream-sized request in every ln_1 backward,
		// none in ln_2's, whose gradient fc1 returns contiguous)
		if o := &b.g.ops[len(b.g.ops)-1]; o.kind == "layer_norm" {
			o.gradWork = make([]int64, len(o.in))
			o.gradWork[0] = b.tt(y).bytes()
		}
		// in_proj on the batch-first→seq-first transposed input: the
		// matmul folds it to 2-D through a contiguous copy. Under autocast
		// that copy is of the bias, weight then input casts, made inside
		// the call: the strided input cast and the copy both live until
		// the matmul's output exists, one of them saved for backward
		block := len(b.g.params) // ln_1's weight and bias
		var qkv Tensor
		if b.amp != F32 && b.dt(y) != b.amp {
			qkv = b.linear(y, d, 3*d, true, "qkv")
			if o := &b.g.ops[len(b.g.ops)-1]; o.kind == "linear" {
				o.fwdHeld = append(o.fwdHeld, b.numel(y)*b.amp.Size())
				o.savesHeldCopy = true
				// the copy and, the input being strided, the bias
				// added after the GEMM (stridedBiasAdd)
				o.extra = append(o.extra, stridedCopy(b.numel(y), b.amp, false), stridedBiasAdd(b.numel(qkv), b.amp))
			}
		} else {
			c := b.copy(y)
			b.g.ops[len(b.g.ops)-1].stridedRows = true
			qkv = b.linear(c, d, 3*d, true, "qkv")
		}
		if o := &b.g.ops[len(b.g.ops)-1]; o.kind == "linear" {
			o.noLt, o.mmThenBias = true, true
		}
		// its gradient arrives through the unflatten/transpose views
		// strided: the matmul takes a contiguous copy first
		heldGradCopy(b, qkv)
		qkv = b.copy(qkv) // unflatten/transpose(...).contiguous()
		b.g.ops[len(b.g.ops)-1].stridedRows = true
		// q, k and v are selects of that copy: their gradients come back
		// one per head block and SelectBackward scatters each into zeros
		// of the copy's size
		n := batch * seq * d
		q, k, v := b.slice(qkv, n), b.slice(qkv, n), b.slice(qkv, n)
		b.sel = true
		att := b.sdpa(q, k, v, batch, heads, seq, seq, d/heads, false)
		b.sel = false
		if !flash || b.dt(att) == F32 {
			att = b.copy(att) // permute(2, 0, 1, 3).contiguous()
		}
		inProj := len(b.g.params)
		att = b.linear(att, d, d, true, "out_proj")
		outProj := len(b.g.params)
		// the gradient comes back batch-first through the seq-first
		// view: view_backward's reshape copies it before the matmul
		heldGradCopy(b, att)
		if o := &b.g.ops[len(b.g.ops)-1]; o.kind == "linear" && o.out[0] == att && b.dt(att).Size() == 2 {
			o.extra = append(o.extra, stridedCopy(b.numel(att), b.dt(att), true))
		}
		// query/key/value and the in-projection's views until
		// multi_head_attention_forward returns
		b.keep(y, qkv)
		att = b.dropout(att, a.Dropout)
		h = b.add(att, h)
		y = seqFirst(b.layerNorm(h, d, true))
		z := b.linear(y, d, int64(a.FFN), true, "fc1")
		z = b.gelu(z)
		z = b.dropout(z, a.Dropout)
		z = b.linear(z, int64(a.FFN), d, true, "fc2")
		b.keep(y) // the MLP's argument until it returns
		z = b.dropout(z, a.Dropout)
		h = b.add(h, z)
		load = appendRanges(load, [2]int{start, block}, [2]int{inProj, outProj}, [2]int{block, inProj}, [2]int{outProj, len(b.g.params)})
	}
	b.block = -1
	b.g.blocks = a.Layers
	h = seqFirst(b.layerNorm(h, d, true))
	load = appendRanges(load, [2]int{len(b.g.params) - 2, len(b.g.params)}, [2]int{first + 1, first + 2})
	b.keep(tokens) // VisionTransformer.forward's x until the encoder returns
	// class token only: x[:, 0] is a view
	c := b.copy(h)
	b.tt(c).numel = batch * d
	head := len(b.g.params)
	b.classify(fmap{c, batch, d, 1, 1, false}, int64(a.Classes))
	b.g.loadOrder = appendRanges(load, [2]int{head, len(b.g.params)}, [2]int{first, first + 1})
}

// appendRanges appends the indices of each half-open range to order.
func appendRanges(order []int, rs ...[2]int) []int {
	for _, r := range rs {
		for i := r[0]; i < r[1]; i++ {
			order = append(order, i)
		}
	}
	return order
}

// heldGradCopy marks the linear that made y: its backward first copies
// the strided output gradient contiguous, live until the input's and
// weight's gradients exist.
// A LoRA-wrapped projection (y made by the branch's add) is left as it
// was.
func heldGradCopy(b *builder, y Tensor) {
	if o := &b.g.ops[len(b.g.ops)-1]; o.kind == "linear" && o.out[0] == y {
		o.heldCopy = len(o.bwdHeld) + 1
		o.bwdHeld = append(o.bwdHeld, b.tt(y).bytes())
	}
}

// vitStemWorkspace replaces the generic half-precision patchify
// workspaces of the patch conv just recorded with the ones cuDNN takes
// for ViT's p×p/p conv on the RGB image under fp16 or bf16 autocast. The
// image's three channels are padded to eight, so the forward asks 8/3 of
// the image and of the weight plus the output: 73,793,552 bytes at
// ViT-B/16 b64 bf16 (testdata/dev8), 144,441,360 at b128 bf16
// (testdata/blind), 158,334,992 at ViT-L/16 b128 fp16 (testdata/dev23),
// exactly, with cuDNN's 16-byte tail. In backward (the image needs no
// gradient) the output gradient arrives in the seq-first strides of the
// token stream and is copied contiguous, kept while the weight gradient
// runs, whose workspace is the padded image plus the output plus
// w·(40/3 + n/12) for a weight of w bytes and a batch of n: 92,668,048,
// 169,607,312 and 191,889,552 bytes on the same three traces, within 144
// bytes. The generic strided rule asked 1.5× the output forward and twice
// that backward: at ViT-L/16 b128 fp16 73.5 MiB where cuDNN took 151,
// and 73.5 and 75 MiB where it took one 183.
func (b *builder) vitStemWorkspace() {
	o := &b.g.ops[len(b.g.ops)-1]
	in, out := b.tt(o.in[0]).bytes(), b.tt(o.out[0]).bytes()
	w := b.tt(o.in[1]).bytes()
	n := o.conv.n
	scale := func(v int64) int64 { return int64(float64(v) * b.workspace) }
	if b.dt(o.out[0]).Size() != 2 {
		// float32: the channels padded to four, (in+w)·4/3 and the
		// output (ViT-B/16 b64, b160, b192 and ViT-L/16 b96, to the
		// byte), without the output once the image passes 2^27 bytes
		// (ViT-B/16 b256, ViT-L/16 b512 and b768), unpadded at ViT-L/16
		// b32 (in+w+out); backward a few MB (conv2d's rule). dev43: the
		// 217 MiB of ViT-B/16 b160 made a segment the forward reuses.
		ws := 4*(in+w)/3 + out + 16
		switch {
		case n <= 32:
			ws = in + w + out + 16
		case in > 1<<27:
			ws = 4*(in+w)/3 + 16
		}
		o.fwdTemp = []int64{scale(ws)}
		return
	}
	o.fwdTemp = []int64{scale(8*(in+w)/3 + out + 16)}
	o.bwdHeld = []int64{out}
	o.gradWork = []int64{0, scale(8*in/3 + out + w*40/3 + w*n/12 + 144)}
	o.bwdTemp = nil
	if len(o.in) > 2 { // the bias's gradient (CLIP's patch conv has none)
		c := o.conv
		o.bwdTemp = biasGradScratch(c.n*c.ho*c.ho, c.cout, b.ctaLimit)
	}
}

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
func buildViT(b *builder, a *Arch, batch, image int64) {
	x, _ := b.imageInput(batch, image)
	d := int64(a.Hidden)
	p := int64(a.Patch)
	x = b.conv2d(x, d, p, p, 0, 1, true)
	seq := x.h*x.w + 1
	cls := b.param(d)
	h := b.out(batch*seq*d, b.dt(x.t), x.t, cls)
	o := b.op("cat", []Tensor{x.t, cls}, []Tensor{h}, nil)
	o.passGrad = []bool{false, false}
	pos := b.param(seq * d)
	h = b.add(h, pos)
	heads := int64(a.Heads)
	for l := 0; l < a.Layers; l++ {
		b.block = l
		y := b.layerNorm(h, d, true)
		// in_proj on the batch-first→seq-first transposed input: cast, then
		// a contiguous copy for the matmul
		yc := b.copy(b.lowp(y))
		qkv := b.linear(yc, d, 3*d, true, "qkv")
		qkv = b.copy(qkv) // unflatten/transpose(...).contiguous()
		b.sel = true
		att := b.sdpa(qkv, qkv, qkv, batch, heads, seq, seq, d/heads, false)
		b.sel = false
		att = b.copy(att) // permute(2, 0, 1, 3).contiguous()
		att = b.linear(att, d, d, true, "out_proj")
		att = b.dropout(att, a.Dropout)
		h = b.add(att, h)
		y = b.layerNorm(h, d, true)
		y = b.linear(y, d, int64(a.FFN), true, "fc1")
		y = b.gelu(y)
		y = b.dropout(y, a.Dropout)
		y = b.linear(y, int64(a.FFN), d, true, "fc2")
		y = b.dropout(y, a.Dropout)
		h = b.add(h, y)
	}
	b.block = -1
	b.g.blocks = a.Layers
	h = b.layerNorm(h, d, true)
	// class token only: x[:, 0] is a view
	c := b.copy(h)
	b.tt(c).numel = batch * d
	b.classify(fmap{c, batch, d, 1, 1, false}, int64(a.Classes))
}

package memmodel

import "math"

// imageInput allocates the batch of images and labels.
func (b *builder) imageInput(batch, image int64) (fmap, Tensor) {
	x := b.input(batch*3*image*image, F32)
	y := b.input(batch, I64)
	return fmap{x, batch, 3, image, image}, y
}

// classify ends a vision model: linear head on pooled features and the loss.
func (b *builder) classify(x fmap, classes int64) {
	logits := b.linear(x.t, x.c, classes, true, "fc")
	b.g.loss = b.crossEntropy(logits, classes)
}

// buildResNet follows torchvision.models.resnet: conv-bn-relu stem, max
// pool, four stages of BasicBlock or Bottleneck, average pool, fc.
func buildResNet(b *builder, a *Arch, batch, image int64) {
	x, _ := b.imageInput(batch, image)
	x = b.conv2d(x, 64, 7, 2, 3, 1, false)
	x = b.relu_(b.batchNorm(x))
	x = b.maxPool(x, 3, 2, 1)
	inC := int64(64)
	blk := 0
	for s, n := range a.Blocks {
		width := int64(64 << s)
		for i := 0; i < n; i++ {
			stride := int64(1)
			if s > 0 && i == 0 {
				stride = 2
			}
			b.block = blk
			blk++
			id := x
			var y fmap
			outC := width
			if a.Bottleneck {
				outC = width * 4
				y = b.relu_(b.batchNorm(b.conv2d(x, width, 1, 1, 0, 1, false)))
				y = b.relu_(b.batchNorm(b.conv2d(y, width, 3, stride, 1, 1, false)))
				y = b.batchNorm(b.conv2d(y, outC, 1, 1, 0, 1, false))
			} else {
				y = b.relu_(b.batchNorm(b.conv2d(x, width, 3, stride, 1, 1, false)))
				y = b.batchNorm(b.conv2d(y, width, 3, 1, 1, 1, false))
			}
			if stride != 1 || inC != outC {
				id = b.batchNorm(b.conv2d(x, outC, 1, stride, 0, 1, false))
			}
			x = b.relu_(b.addMap_(y, id))
			inC = outC
		}
	}
	b.block = -1
	b.g.blocks = blk
	x = b.avgPool(x)
	b.classify(x, int64(a.Classes))
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
	b.classify(fmap{c, batch, d, 1, 1}, int64(a.Classes))
}

// buildConvNeXt follows torchvision.models.convnext: 4×4 stem with
// LayerNorm2d, CNBlocks (7×7 depthwise conv, LayerNorm, MLP with GELU,
// layer scale, stochastic depth) and LayerNorm2d + 2×2 conv downsampling.
func buildConvNeXt(b *builder, a *Arch, batch, image int64) {
	x, _ := b.imageInput(batch, image)
	x = b.conv2d(x, int64(a.Widths[0]), 4, 4, 0, 1, true)
	x.t = b.layerNorm(b.copy(x.t), x.c, true)
	total := 0
	for _, n := range a.Blocks {
		total += n
	}
	blk := 0
	for s, n := range a.Blocks {
		c := int64(a.Widths[s])
		if s > 0 {
			x.t = b.layerNorm(b.copy(x.t), x.c, true)
			x = b.conv2d(x, c, 2, 2, 0, 1, true)
		}
		for i := 0; i < n; i++ {
			b.block = blk
			sd := a.DropPath * float64(blk) / math.Max(1, float64(total-1))
			blk++
			y := b.conv2d(x, c, 7, 1, 3, c, true)
			t := b.copy(y.t) // permute to channels-last
			t = b.layerNorm(t, c, true)
			t = b.linear(t, c, 4*c, true, "pwconv1")
			t = b.gelu(t)
			t = b.linear(t, 4*c, c, true, "pwconv2")
			t = b.mul(t, b.param(c)) // layer scale
			t = b.copy(t)            // permute back
			if sd > 0 {
				t = b.scale(t) // stochastic depth: input * noise
			}
			x.t = b.add(x.t, t)
		}
	}
	b.block = -1
	b.g.blocks = blk
	x = b.avgPool(x)
	x.t = b.layerNorm(x.t, x.c, true)
	b.classify(x, int64(a.Classes))
}

// efficientNetStages is torchvision's EfficientNet-B0 MBConv table:
// expand ratio, kernel, stride, in, out, layers.
var efficientNetStages = [][6]int{
	{1, 3, 1, 32, 16, 1}, {6, 3, 2, 16, 24, 2}, {6, 5, 2, 24, 40, 2}, {6, 3, 2, 40, 80, 3},
	{6, 5, 1, 80, 112, 3}, {6, 5, 2, 112, 192, 4}, {6, 3, 1, 192, 320, 1},
}

func makeDivisible(v float64) int64 {
	n := int64(math.Max(8, float64(int64(v+4)/8*8)))
	if float64(n) < 0.9*v {
		n += 8
	}
	return n
}

// buildEfficientNet follows torchvision.models.efficientnet (MBConv blocks
// with squeeze-excitation and SiLU, scaled by width and depth multipliers).
func buildEfficientNet(b *builder, a *Arch, batch, image int64) {
	x, _ := b.imageInput(batch, image)
	wm, dm := a.WidthMult, a.DepthMult
	x = b.act(b.batchNorm(b.conv2d(x, makeDivisible(32*wm), 3, 2, 1, 1, false)), "silu")
	blk := 0
	for _, st := range efficientNetStages {
		n := int(math.Ceil(float64(st[5]) * dm))
		outC := makeDivisible(float64(st[4]) * wm)
		for i := 0; i < n; i++ {
			b.block = blk
			blk++
			stride := int64(st[2])
			if i > 0 {
				stride = 1
			}
			in := x
			exp := makeDivisible(float64(x.c) * float64(st[0]))
			y := x
			if exp != x.c {
				y = b.act(b.batchNorm(b.conv2d(y, exp, 1, 1, 0, 1, false)), "silu")
			}
			k := int64(st[1])
			y = b.act(b.batchNorm(b.conv2d(y, exp, k, stride, k/2, exp, false)), "silu")
			// squeeze-excitation
			sq := maxI64(1, makeDivisible(float64(in.c)/4)/1)
			s := b.avgPool(y)
			s = b.act(b.conv2d(s, sq, 1, 1, 0, 1, true), "silu")
			s = b.act(b.conv2d(s, exp, 1, 1, 0, 1, true), "sigmoid")
			y.t = b.mul(y.t, s.t)
			y = b.batchNorm(b.conv2d(y, outC, 1, 1, 0, 1, false))
			if stride == 1 && in.c == outC {
				y.t = b.scale(y.t) // stochastic depth
				y.t = b.add(y.t, in.t)
			}
			x = y
		}
	}
	b.block = -1
	b.g.blocks = blk
	x = b.act(b.batchNorm(b.conv2d(x, 4*makeDivisible(320*wm), 1, 1, 0, 1, false)), "silu")
	x = b.avgPool(x)
	x.t = b.dropout(x.t, 0.2)
	b.classify(x, int64(a.Classes))
}

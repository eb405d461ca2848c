package memmodel

import "math"

// The ConvNeXt family: torchvision's convnext_tiny … convnext_large.

func init() {
	register(&Family{
		Name: "convnext", Task: "image-classification", Vision: true,
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			convnext("convnext-tiny", []int{3, 3, 9, 3}, []int{96, 192, 384, 768}, 0.1),
			convnext("convnext-small", []int{3, 3, 27, 3}, []int{96, 192, 384, 768}, 0.4),
			convnext("convnext-base", []int{3, 3, 27, 3}, []int{128, 256, 512, 1024}, 0.5),
			convnext("convnext-large", []int{3, 3, 27, 3}, []int{192, 384, 768, 1536}, 0.5),
		},
		Aliases: map[string]string{
			"convnext_tiny": "convnext-tiny", "convnext_small": "convnext-small",
			"convnext_base": "convnext-base", "convnext_large": "convnext-large",
		},
		Build:          func(b *builder, a *Arch, in Input) { buildConvNeXt(b, a, in.Batch, in.Image) },
		PipelineLayers: sumBlocks,
	})
}

func convnext(name string, blocks, widths []int, dp float64) Arch {
	return Arch{Name: name, Family: "convnext", Blocks: blocks, Widths: widths, DropPath: dp, Classes: 1000, ImageSize: 224}
}

// buildConvNeXt follows torchvision.models.convnext: 4×4 stem with
// LayerNorm2d, CNBlocks (7×7 depthwise conv, LayerNorm, MLP with GELU,
// layer scale, stochastic depth, in-place residual) and LayerNorm2d + 2×2
// conv downsampling between stages.
func buildConvNeXt(b *builder, a *Arch, batch, image int64) {
	x, _ := b.imageInput(batch, image)
	x = b.conv2d(x, int64(a.Widths[0]), 4, 4, 0, 1, true)
	// LayerNorm2d permutes the stem's NCHW output to NHWC, which is not
	// contiguous: layer_norm copies it (after autocast's float32 cast,
	// which keeps the permuted strides). Its output, permuted back, and
	// every block after it keep NHWC strides, so every convolution after
	// the stem runs cuDNN's channels_last kernels and every later permute
	// is a contiguous view (no copy).
	x.t = b.layerNorm(b.copy(b.fp32(x.t)), x.c, true)
	x.channelsLast = true
	total := 0
	for _, n := range a.Blocks {
		total += n
	}
	blk := 0
	for s, n := range a.Blocks {
		c := int64(a.Widths[s])
		if s > 0 {
			// the downsampling layers belong to no CNBlock: per-block
			// checkpointing keeps what they save
			b.block = -1
			x.t = b.layerNorm(x.t, x.c, true)
			x = b.conv2d(x, c, 2, 2, 0, 1, true)
		}
		for i := 0; i < n; i++ {
			b.block = blk
			sd := a.DropPath * float64(blk) / math.Max(1, float64(total-1))
			blk++
			y := b.conv2d(x, c, 7, 1, 3, c, true)
			t := b.layerNorm(y.t, c, true)
			t = b.linear(t, c, 4*c, true, "pwconv1")
			t = b.gelu(t)
			t = b.linear(t, 4*c, c, true, "pwconv2")
			t = b.layerScale(t, c)
			if sd > 0 {
				t = b.stochasticDepth(t, batch)
			}
			x.t = b.addInPlace(t, x.t) // result += input
		}
	}
	b.block = -1
	b.g.blocks = blk
	x = b.avgPool(x)
	x.t = b.layerNorm(x.t, x.c, true)
	b.classify(x, int64(a.Classes))
}

// layerScale is CNBlock's `layer_scale * x` with a (c, 1, 1) parameter.
// Its output takes the parameter's float32 under autocast. Backward forms
// the gradient of x and the full-size product grad·x in that float32,
// reduces the product over batch and pixels into the parameter's gradient
// (a column reduction with its staging buffer), and only then casts x's
// gradient down to x's type (measured on the ConvNeXt bf16 traces: two
// float32 maps of x's size live at once, the cast after).
func (b *builder) layerScale(x Tensor, c int64) Tensor {
	y := b.mul(x, b.param(c))
	o := &b.g.ops[len(b.g.ops)-1]
	n := b.numel(y)
	o.bwdHeld = []int64{b.tt(y).bytes()}
	o.bwdTemp = biasGradScratch(n/c, c, b.ctaLimit)
	o.promotedGrad = true
	// mul's generic one-temporary-per-input backward (inTemp) would free
	// the float32 gradient before the product exists; the order above is
	// the measured one
	o.inTemp = nil
	return y
}

// stochasticDepth is torchvision's StochasticDepth(mode="row") in training:
// a per-sample Bernoulli noise of batch elements (saved) times x.
func (b *builder) stochasticDepth(x Tensor, batch int64) Tensor {
	noise := b.g.newTensor(batch, b.dt(x), false)
	b.op("bernoulli", nil, []Tensor{noise}, nil).noBackward = true
	return b.mul(x, noise)
}

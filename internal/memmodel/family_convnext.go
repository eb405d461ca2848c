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
// layer scale, stochastic depth) and LayerNorm2d + 2×2 conv downsampling.
func buildConvNeXt(b *builder, a *Arch, batch, image int64) {
	x, _ := b.imageInput(batch, image)
	x = b.conv2d(x, int64(a.Widths[0]), 4, 4, 0, 1, true)
	x.t = b.layerNorm(b.copy(x.t), x.c, true)
	// LayerNorm2d permutes to NHWC and back: its output, and every block
	// after it (layer_scale * permuted view, += input), keeps NHWC strides,
	// so every convolution after the stem runs cuDNN's channels_last kernels.
	x.channelsLast = true
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

package memmodel

import (
	"fmt"
	"math"
)

// The EfficientNet family: torchvision's efficientnet_b0 … b7.

func init() {
	f := &Family{
		Name: "efficientnet", Task: "image-classification", Vision: true, BatchNorm: true, CkptRegion: ckptRegionCNN,
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			efficientnet("efficientnet-b0", 1.0, 1.0, 224),
			efficientnet("efficientnet-b1", 1.0, 1.1, 240),
			efficientnet("efficientnet-b2", 1.1, 1.2, 288),
			efficientnet("efficientnet-b3", 1.2, 1.4, 300),
			efficientnet("efficientnet-b4", 1.4, 1.8, 380),
			efficientnet("efficientnet-b5", 1.6, 2.2, 456),
			efficientnet("efficientnet-b6", 1.8, 2.6, 528),
			efficientnet("efficientnet-b7", 2.0, 3.1, 600),
		},
		Aliases: map[string]string{},
		Build:   func(b *builder, a *Arch, in Input) { buildEfficientNet(b, a, in.Batch, in.Image) },
		// pipeline stages split the B0 table's 16 MBConv blocks
		PipelineLayers: func(*Arch) int { return 16 },
		// most timed small-gain pairs ran faster compiled, as planned
		// (0.96-0.99x alternated on H100 hosts in late101-late105);
		// late62's and late63's B0 pairs timed in blocks ran
		// 1.05-1.34x, late106's B0 b32 alternated on an H200 1.03x,
		// dev119's B0 b8, b16 and b32 on an H100 1.01-1.06x (B1 b16
		// beside them, dev120, 0.94x)
		CompiledSmallGain: SmallGainCount{Pairs: 18, Slower: 8},
	}
	for i := 0; i <= 7; i++ {
		f.Aliases[fmt.Sprintf("efficientnet_b%d", i)] = fmt.Sprintf("efficientnet-b%d", i)
	}
	register(f)
}

func efficientnet(name string, w, d float64, res int) Arch {
	return Arch{Name: name, Family: "efficientnet", WidthMult: w, DepthMult: d, ImageSize: res, Classes: 1000}
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
			// squeeze-excitation: torchvision's MBConv squeezes to
			// max(1, input_channels // 4), a plain floor (not rounded to 8)
			sq := maxI64(1, in.c/4)
			s := b.avgPool(y)
			s = b.act(b.conv2d(s, sq, 1, 1, 0, 1, true), "silu")
			s = b.act(b.conv2d(s, exp, 1, 1, 0, 1, true), "sigmoid")
			y.t = b.mul(y.t, s.t)
			if y.channelsLast {
				// the scale's gradient sums grad·y over H and W: on an NHWC
				// map the same column reduction as the pool, with its
				// staging buffer (dev40's EfficientNet-B3 b48 bf16
				// checkpointed trace: 110-135 MiB at the backward's peak,
				// where plan was 5.7% low on allocated)
				b.g.ops[len(b.g.ops)-1].inTempScratch = biasGradScratch(y.h*y.w, y.n*y.c, b.ctaLimit)
			}
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

package memmodel

// The ResNet family: torchvision's resnet18 … resnet152.

func init() {
	register(&Family{
		Name: "resnet", Task: "image-classification", Vision: true, BatchNorm: true, ScalerOverflow: true, Captured: true, CkptRegion: ckptRegionCNN,
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			resnet("resnet18", []int{2, 2, 2, 2}, false),
			resnet("resnet34", []int{3, 4, 6, 3}, false),
			resnet("resnet50", []int{3, 4, 6, 3}, true),
			resnet("resnet101", []int{3, 4, 23, 3}, true),
			resnet("resnet152", []int{3, 8, 36, 3}, true),
		},
		Aliases:        map[string]string{"microsoft/resnet-50": "resnet50", "resnet-50": "resnet50"},
		Build:          func(b *builder, a *Arch, in Input) { buildResNet(b, a, in.Batch, in.Image) },
		PipelineLayers: sumBlocks,
	})
}

func resnet(name string, blocks []int, bottleneck bool) Arch {
	return Arch{Name: name, Family: "resnet", Blocks: blocks, Bottleneck: bottleneck, Classes: 1000, ImageSize: 224}
}

// sumBlocks is the pipeline-splittable depth of a CNN: its blocks.
func sumBlocks(a *Arch) int {
	n := 0
	for _, b := range a.Blocks {
		n += b
	}
	return n
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

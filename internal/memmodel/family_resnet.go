package memmodel

import (
	"fmt"
	"slices"
)

// The ResNet family: torchvision's resnet18 … resnet152, and transformers'
// ResNetForImageClassification read from its config.json.

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
			// transformers' ResNetForImageClassification (microsoft/resnet-*)
			hfResNet("hf-resnet18", []int{2, 2, 2, 2}, false),
			hfResNet("hf-resnet50", []int{3, 4, 6, 3}, true),
			hfResNet("hf-resnet101", []int{3, 4, 23, 3}, true),
		},
		Aliases: map[string]string{"microsoft/resnet-50": "hf-resnet50", "resnet-50": "resnet50",
			"microsoft/resnet-18": "hf-resnet18", "microsoft/resnet-101": "hf-resnet101"},
		// transformers' ResNetForImageClassification: torchvision's
		// layers with out-of-place ReLUs (Arch.OutOfPlace; dev86:
		// microsoft/resnet-50's config at b64 bf16 and b32 float32 plan
		// -0.01% and +0.13% allocated, reserved +0.61% and -1.91% with
		// torchvision's in-place ReLUs, -0.04%/+0.88% and +0.00%/+0.17%
		// out of place)
		ModelTypes:     []string{"resnet"},
		FromHF:         resnetFromHF,
		Build:          func(b *builder, a *Arch, in Input) { buildResNet(b, a, in.Batch, in.Image) },
		PipelineLayers: sumBlocks,
		// the ResNets run slower compiled in most timed small-gain
		// pairs, alternated or not, on H100 and H200 hosts (0.99-1.10x
		// alternated in late104-late106)
		CompiledSmallGain: SmallGainCount{Pairs: 41, Slower: 28},
		// their compiled step costs the host 12% more at a real batch
		// than the other CNNs' (no one price of a compiled op moved
		// the ResNets' pairs apart from the EfficientNets'): fitted on
		// the seen alternated ResNet pairs (-10.6% -> -1.2%), then
		// adopted on late106 (blind, an H200): five new ResNet pairs'
		// median |ratio error| 12.0% -> 2.8%, 5 of 5 within 10%
		CompiledHost: 1.12,
	})
}

// hfResNet is transformers' ResNet of the same shape: out-of-place ReLUs.
func hfResNet(name string, blocks []int, bottleneck bool) Arch {
	a := resnet(name, blocks, bottleneck)
	a.OutOfPlace = true
	return a
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
	relu := b.relu_
	if a.OutOfPlace {
		// transformers' ResNetConvLayer: nn.ReLU() out of place
		relu = func(x fmap) fmap {
			x.t = b.unary("relu", x.t, b.dt(x.t), false, true)
			return x
		}
	}
	x, _ := b.imageInput(batch, image)
	x = b.conv2d(x, 64, 7, 2, 3, 1, false)
	x = relu(b.batchNorm(x))
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
				y = relu(b.batchNorm(b.conv2d(x, width, 1, 1, 0, 1, false)))
				y = relu(b.batchNorm(b.conv2d(y, width, 3, stride, 1, 1, false)))
				y = b.batchNorm(b.conv2d(y, outC, 1, 1, 0, 1, false))
			} else {
				y = relu(b.batchNorm(b.conv2d(x, width, 3, stride, 1, 1, false)))
				y = b.batchNorm(b.conv2d(y, width, 3, 1, 1, 1, false))
			}
			if stride != 1 || inC != outC {
				id = b.batchNorm(b.conv2d(x, outC, 1, stride, 0, 1, false))
			}
			x = relu(b.addMap_(y, id))
			inC = outC
		}
	}
	b.block = -1
	b.g.blocks = blk
	x = b.avgPool(x)
	b.classify(x, int64(a.Classes))
}

// resnetFromHF reads transformers' ResNetConfig (microsoft/resnet-*):
// depths per stage, bottleneck or basic layers, the standard widths.
func resnetFromHF(modelType string, data []byte) (Arch, error) {
	var h struct {
		Depths     []int             `json:"depths"`
		Hidden     []int             `json:"hidden_sizes"`
		Embedding  int               `json:"embedding_size"`
		LayerType  string            `json:"layer_type"`
		Act        string            `json:"hidden_act"`
		Channels   int               `json:"num_channels"`
		FirstStage bool              `json:"downsample_in_first_stage"`
		InBottle   bool              `json:"downsample_in_bottleneck"`
		NumLabels  int               `json:"num_labels"`
		ID2Label   map[string]string `json:"id2label"`
	}
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	bottleneck := h.LayerType != "basic"
	want := []int{64, 128, 256, 512}
	if bottleneck {
		want = []int{256, 512, 1024, 2048}
	}
	switch {
	case h.LayerType != "" && h.LayerType != "basic" && h.LayerType != "bottleneck":
		return Arch{}, fmt.Errorf("config.json: layer_type %q: want basic or bottleneck", h.LayerType)
	case len(h.Depths) != 4 || slices.ContainsFunc(h.Depths, func(n int) bool { return n <= 0 }):
		return Arch{}, fmt.Errorf("config.json: depths %v: want four positive stage depths", h.Depths)
	case len(h.Hidden) > 0 && !slices.Equal(h.Hidden, want):
		return Arch{}, fmt.Errorf("config.json: hidden_sizes %v: ResNet is modelled with the standard widths %v", h.Hidden, want)
	case h.Embedding != 0 && h.Embedding != 64:
		return Arch{}, fmt.Errorf("config.json: embedding_size %d: ResNet is modelled with a 64-channel stem", h.Embedding)
	case h.Act != "" && h.Act != "relu":
		return Arch{}, fmt.Errorf("config.json: hidden_act %q: ResNet is modelled with relu", h.Act)
	case h.Channels != 0 && h.Channels != 3:
		return Arch{}, fmt.Errorf("config.json: num_channels %d: ResNet is modelled on RGB images (3)", h.Channels)
	case h.FirstStage || h.InBottle:
		return Arch{}, fmt.Errorf("config.json: downsample_in_first_stage / downsample_in_bottleneck move the stride; ResNet is modelled with torchvision's placement (both false)")
	}
	a := resnet(modelType, h.Depths, bottleneck)
	a.Classes = max(h.NumLabels, len(h.ID2Label), 2)
	a.OutOfPlace = true
	return a, nil
}

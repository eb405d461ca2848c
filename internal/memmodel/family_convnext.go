package memmodel

import (
	"fmt"
	"math"
	"slices"
)

// The ConvNeXt family: torchvision's convnext_tiny … convnext_large, and
// transformers' ConvNextForImageClassification read from its config.json
// (facebook/convnext-*: the same layers with an out-of-place residual add).

func init() {
	register(&Family{
		Name: "convnext", Task: "image-classification", Vision: true, CkptRegion: ckptRegionCNN,
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			convnext("convnext-tiny", []int{3, 3, 9, 3}, []int{96, 192, 384, 768}, 0.1),
			convnext("convnext-small", []int{3, 3, 27, 3}, []int{96, 192, 384, 768}, 0.4),
			convnext("convnext-base", []int{3, 3, 27, 3}, []int{128, 256, 512, 1024}, 0.5),
			convnext("convnext-large", []int{3, 3, 27, 3}, []int{192, 384, 768, 1536}, 0.5),
			// transformers' ConvNextForImageClassification (facebook/convnext-*:
			// drop_path_rate 0 unless the config sets it)
			hfConvnext("hf-convnext-tiny", []int{3, 3, 9, 3}, []int{96, 192, 384, 768}),
			hfConvnext("hf-convnext-small", []int{3, 3, 27, 3}, []int{96, 192, 384, 768}),
			hfConvnext("hf-convnext-base", []int{3, 3, 27, 3}, []int{128, 256, 512, 1024}),
			hfConvnext("hf-convnext-large", []int{3, 3, 27, 3}, []int{192, 384, 768, 1536}),
		},
		Aliases: map[string]string{
			"convnext_tiny": "convnext-tiny", "convnext_small": "convnext-small",
			"convnext_base": "convnext-base", "convnext_large": "convnext-large",
			"facebook/convnext-tiny-224": "hf-convnext-tiny", "facebook/convnext-small-224": "hf-convnext-small",
			"facebook/convnext-base-224": "hf-convnext-base", "facebook/convnext-large-224": "hf-convnext-large",
		},
		// transformers' ConvNextForImageClassification (dev88:
		// facebook/convnext-tiny-224's config at b64 bf16 and b32 float32)
		ModelTypes:     []string{"convnext"},
		FromHF:         convnextFromHF,
		Build:          func(b *builder, a *Arch, in Input) { buildConvNeXt(b, a, in.Batch, in.Image) },
		PipelineLayers: sumBlocks,
	})
}

// hfConvnext is transformers' ConvNeXt of the same shape: out-of-place
// residual adds, no stochastic depth.
func hfConvnext(name string, blocks, widths []int) Arch {
	a := convnext(name, blocks, widths, 0)
	a.OutOfPlace = true
	return a
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
	b.convNeXtStemWorkspace()
	// LayerNorm2d permutes the stem's NCHW output to NHWC, which is not
	// contiguous: layer_norm copies it (after autocast's float32 cast,
	// which keeps the permuted strides). Its output, permuted back, and
	// every block after it keep NHWC strides, so every convolution after
	// the stem runs cuDNN's channels_last kernels and every later permute
	// is a contiguous view (no copy). The copy is native_layer_norm's own
	// temporary: layer_norm saves the cast (the tensor it was given), and
	// the copy is freed once the output exists (ConvNeXt bf16 traces: the
	// cast, the copy and the output are three live blocks of one size, the
	// copy freed first, the conv's output after them). The graph keeps the
	// copy as the norm's input, so gradients and kernels are as before.
	xf, stem := b.fp32(x.t), x.t
	x.t = b.layerNorm(b.copy(xf), x.c, true)
	b.g.ops[len(b.g.ops)-1].save[0] = xf
	b.keep(xf, stem) // nn.Sequential holds the conv's output until the norm returns
	x.channelsLast = true
	embedded := x.t
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
			// the stage's last residual sum gets its gradient through
			// LayerNorm2d's permute, a view: the block's branch gradient
			// is added to it out of place (the ConvNeXt traces, bf16 and
			// float32: a new map of the stream's size at the last block of
			// stages 1-3 in backward, in place everywhere else)
			b.g.ops[len(b.g.ops)-1].viewGrad = true
			ln := x.t
			x = b.conv2d(x, c, 2, 2, 0, 1, true)
			b.keep(ln) // nn.Sequential's reference, until the conv returns
			if nchwGrad(a, s) {
				// its output gradient arrives NCHW-contiguous: cuDNN runs
				// the channels_last kernels on a copy, held across the
				// call, and the bias gradient reduces the NCHW original
				// without a staging buffer
				o := &b.g.ops[len(b.g.ops)-1]
				o.bwdHeld, o.bwdTemp = []int64{b.tt(x.t).bytes()}, nil
			}
		}
		for i := 0; i < n; i++ {
			b.block = blk
			sd := a.DropPath * float64(blk) / math.Max(1, float64(total-1))
			blk++
			// the block is an nn.Sequential: each module's output is its
			// loop variable until the next module returns, so the depthwise
			// conv's output (behind Permute's view) lives until the norm's
			// output exists, and the norm's float32 output until pwconv1
			// returns (the ConvNeXt bf16 traces, forward and recompute);
			// the downsampling norm's output likewise until its conv
			// returns. With these, the stem's workspaces, the depthwise
			// weight-gradient workspace, nchwGrad and the backward order of
			// the layer scale and of convs and casts, the generated streams
			// grow the traces' segments one for one
			// (TestConvNeXtCheckpointedSegments).
			y := b.conv2d(x, c, 7, 1, 3, c, true)
			t := b.layerNorm(y.t, c, true)
			b.keep(y.t)
			ln := t
			t = b.linear(t, c, 4*c, true, "pwconv1")
			b.keep(ln) // until pwconv1 returns
			t = b.gelu(t)
			t = b.linear(t, 4*c, c, true, "pwconv2")
			if nchwGrad(a, s) {
				// Permute's backward hands it a permuted NCHW gradient:
				// the matmul reshapes it through a contiguous copy
				b.g.ops[len(b.g.ops)-1].gradCopy = true
			}
			t = b.layerScale(t, c, nchwGrad(a, s))
			if sd > 0 {
				t = b.stochasticDepth(t, batch)
			}
			if a.OutOfPlace {
				x.t = b.add(x.t, t) // transformers: input + drop_path(x)
			} else {
				x.t = b.addInPlace(t, x.t) // result += input
			}
		}
	}
	b.block = -1
	b.g.blocks = blk
	if a.OutOfPlace {
		// transformers' ConvNextModel.forward binds the embeddings'
		// output until the encoder returns (dev88's bf16 trace: the stem
		// norm's float32 output alive at the end of the forward, its peak)
		b.keep(embedded)
	}
	x = b.avgPool(x)
	x.t = b.layerNorm(x.t, x.c, true)
	b.classify(x, int64(a.Classes))
}

// convNeXtStemWorkspace replaces the generic half-precision patchify
// workspaces of the stem conv just recorded with the ones cuDNN takes for
// ConvNeXt's 4×4/4 stem under bf16 autocast. The H200 traces at batch 32,
// 64, 96 and 128 (ConvNeXt-T b64 unseen and checkpointed, b128 blind;
// ConvNeXt-S b32 and b96 checkpointed) all show no forward workspace, and
// in backward, where the gradient arrives in LayerNorm2d's NHWC strides:
// a contiguous copy of it (the output's size) kept while the weight
// gradient runs, that call's workspace of 7/3 of the output plus
// 12,263,568 bytes (57,221,264, 102,178,960, 147,136,656 and 192,094,352
// bytes: exactly linear in the batch), then the bias gradient's
// reduction. The generic strided rule asked 1.5× the output forward and
// twice in backward: an 84 MiB segment the GPU never made at b96. Read on
// 96 output channels (tiny and small) in bf16; the wider stems of base and
// large are taken to scale with their output, fp16 to match bf16.
func (b *builder) convNeXtStemWorkspace() {
	o := &b.g.ops[len(b.g.ops)-1]
	if b.dt(o.out[0]).Size() != 2 {
		return // float32: no forward workspace, a few MB backward (conv2d's rule)
	}
	out := b.tt(o.out[0]).bytes()
	scale := func(n int64) int64 { return int64(float64(n) * b.workspace) }
	o.fwdTemp = nil
	o.bwdHeld = []int64{out}
	o.gradWork = []int64{0, scale(7*out/3 + 12263568)}
	c := o.conv
	o.bwdTemp = biasGradScratch(c.n*c.ho*c.ho, c.cout, b.ctaLimit)
}

// nchwGrad reports whether stage s runs its backward on an NCHW-contiguous
// gradient. The classifier's AdaptiveAvgPool2d(1) is a mean over H and W,
// whose backward expands the pooled gradient and divides it into a fresh
// NCHW-contiguous map (an expanded input gives TensorIterator no layout to
// follow); the last stage's residual adds pass that tensor on and
// accumulate into it in place, so the whole stage sees it, until the
// downsampling conv's cuDNN backward returns a channels_last gradient
// again. Read on the ConvNeXt bf16 traces (tiny and small, b32-b128,
// every step): in stage 4 only, each block's layer-scale gradient is
// reduced without a staging buffer, pwconv2's output gradient is copied
// contiguous, and the downsampling conv copies its output gradient.
func nchwGrad(a *Arch, s int) bool { return s == len(a.Blocks)-1 }

// layerScale is CNBlock's `layer_scale * x` with a (c, 1, 1) parameter.
// Its output takes the parameter's float32 under autocast. Backward forms
// the gradient of x and the full-size product grad·x in that float32,
// reduces the product over batch and pixels into the parameter's gradient
// (a column reduction with its staging buffer), and only then casts x's
// gradient down to x's type (measured on the ConvNeXt bf16 traces: two
// float32 maps of x's size live at once, the cast after).
func (b *builder) layerScale(x Tensor, c int64, nchw bool) Tensor {
	y := b.mul(x, b.param(c))
	o := &b.g.ops[len(b.g.ops)-1]
	n := b.numel(y)
	o.bwdHeld = []int64{b.tt(y).bytes()}
	if !nchw {
		// on an NCHW gradient (nchwGrad) the product reduces along its
		// contiguous H·W rows: no staging buffer
		o.bwdTemp = biasGradScratch(n/c, c, b.ctaLimit)
	}
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

// convnextFromHF reads transformers' ConvNextConfig (facebook/convnext-*):
// four stages of depths and widths, its drop_path_rate (0 unless set) and
// labels; the layers are torchvision's with an out-of-place residual add.
func convnextFromHF(modelType string, data []byte) (Arch, error) {
	var h struct {
		Depths     []int             `json:"depths"`
		Hidden     []int             `json:"hidden_sizes"`
		Stages     int               `json:"num_stages"`
		Patch      int               `json:"patch_size"`
		Channels   int               `json:"num_channels"`
		Act        string            `json:"hidden_act"`
		DropPath   float64           `json:"drop_path_rate"`
		LayerScale *float64          `json:"layer_scale_init_value"`
		Image      int               `json:"image_size"`
		NumLabels  int               `json:"num_labels"`
		ID2Label   map[string]string `json:"id2label"`
	}
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	pos := func(n int) bool { return n <= 0 }
	switch {
	case len(h.Depths) != 4 || len(h.Hidden) != 4 || slices.ContainsFunc(h.Depths, pos) || slices.ContainsFunc(h.Hidden, pos):
		return Arch{}, fmt.Errorf("config.json: depths %v, hidden_sizes %v: want four positive stages", h.Depths, h.Hidden)
	case h.Stages != 0 && h.Stages != 4:
		return Arch{}, fmt.Errorf("config.json: num_stages %d: ConvNeXt is modelled with 4", h.Stages)
	case h.Patch != 0 && h.Patch != 4:
		return Arch{}, fmt.Errorf("config.json: patch_size %d: ConvNeXt is modelled with its 4×4 stem", h.Patch)
	case h.Channels != 0 && h.Channels != 3:
		return Arch{}, fmt.Errorf("config.json: num_channels %d: ConvNeXt is modelled on RGB images (3)", h.Channels)
	case h.Act != "" && h.Act != "gelu":
		return Arch{}, fmt.Errorf("config.json: hidden_act %q: ConvNeXt is modelled with gelu", h.Act)
	case h.LayerScale != nil && *h.LayerScale <= 0:
		return Arch{}, fmt.Errorf("config.json: layer_scale_init_value %g: ConvNeXt is modelled with its layer scale", *h.LayerScale)
	case h.DropPath < 0 || h.DropPath >= 1:
		return Arch{}, fmt.Errorf("config.json: drop_path_rate %g: want [0, 1)", h.DropPath)
	}
	a := convnext(modelType, h.Depths, h.Hidden, h.DropPath)
	a.Classes = max(h.NumLabels, len(h.ID2Label), 2)
	if h.Image > 0 {
		a.ImageSize = h.Image
	}
	a.OutOfPlace = true
	return a, nil
}

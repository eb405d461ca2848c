package memmodel

import (
	"fmt"
	"slices"
)

// The Swin Transformer family: transformers' SwinForImageClassification
// (microsoft/swin-{tiny,small,base,large}-patch4-window7-224 and the
// window12-384 fine-tunes, config.json model_type swin). A 4×4 patch
// convolution and LayerNorm, then four stages of pre-norm layers whose
// attention runs inside windows of window² patches (every other layer on
// a map rolled by half a window, with a mask between the regions the roll
// joins), a learned relative position bias added to the scores, and
// between stages a patch merging (four strided slices concatenated, a
// LayerNorm and a linear halving the width); a final LayerNorm, the mean
// over the patches and a linear classifier. Arch: Widths are the stages'
// widths (embed_dim·2^i), Blocks their depths, Heads the first stage's
// heads (doubling with the width, as in every released checkpoint), FFN
// the first stage's MLP width, Window the window side.

func init() {
	register(&Family{
		Name: "swin", Task: "image-classification", Vision: true, Attention: true,
		ModelTypes: []string{"swin"},
		// transformers 5 names Swin's projections q_proj/k_proj/v_proj/o_proj
		// (dev92's LoRA row matched q_proj and v_proj)
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			swin("swin-tiny", 96, []int{2, 2, 6, 2}, 3, 7, 224),
			swin("swin-small", 96, []int{2, 2, 18, 2}, 3, 7, 224),
			swin("swin-base", 128, []int{2, 2, 18, 2}, 4, 7, 224),
			swin("swin-large", 192, []int{2, 2, 18, 2}, 6, 7, 224),
			swin("swin-base-384", 128, []int{2, 2, 18, 2}, 4, 12, 384),
			swin("swin-large-384", 192, []int{2, 2, 18, 2}, 6, 12, 384),
		},
		Aliases: map[string]string{
			"microsoft/swin-tiny-patch4-window7-224": "swin-tiny", "microsoft/swin-small-patch4-window7-224": "swin-small",
			"microsoft/swin-base-patch4-window7-224": "swin-base", "microsoft/swin-large-patch4-window7-224": "swin-large",
			"microsoft/swin-base-patch4-window12-384": "swin-base-384", "microsoft/swin-large-patch4-window12-384": "swin-large-384",
		},
		Build:          func(b *builder, a *Arch, in Input) { buildSwin(b, a, in.Batch, in.Image) },
		FromHF:         swinFromHF,
		PipelineLayers: sumBlocks,
	})
}

// swin is a Swin of embed_dim embed, the given depths, heads in the first
// stage, a window of window patches a side, pre-trained at image pixels
// with 1000 classes (the released checkpoints' drop_path_rate 0.1, 4×4
// patches, MLP ratio 4, q/k/v biases).
func swin(name string, embed int, depths []int, heads, window, image int) Arch {
	a := Arch{Name: name, Family: "swin", Blocks: depths, Patch: 4, Heads: heads, FFN: 4 * embed, Window: window,
		ImageSize: image, Classes: 1000, DropPath: 0.1, AttnBias: true}
	for i := range depths {
		a.Widths = append(a.Widths, embed<<i)
		a.Layers += depths[i]
	}
	a.Hidden = a.Widths[len(a.Widths)-1]
	return a
}

// swinConfig is the config.json keys SwinConfig reads.
type swinConfig struct {
	Embed      int               `json:"embed_dim"`
	Depths     []int             `json:"depths"`
	Heads      []int             `json:"num_heads"`
	Window     int               `json:"window_size"`
	Image      int               `json:"image_size"`
	Patch      int               `json:"patch_size"`
	Channels   int               `json:"num_channels"`
	MLPRatio   *float64          `json:"mlp_ratio"`
	QKVBias    *bool             `json:"qkv_bias"`
	HiddenDrop float64           `json:"hidden_dropout_prob"`
	AttnDrop   float64           `json:"attention_probs_dropout_prob"`
	DropPath   *float64          `json:"drop_path_rate"`
	Act        string            `json:"hidden_act"`
	AbsPos     bool              `json:"use_absolute_embeddings"`
	NumLabels  int               `json:"num_labels"`
	ID2Label   map[string]string `json:"id2label"`
}

// swinFromHF reads SwinConfig (transformers' defaults where a key is
// missing: embed_dim 96, depths [2, 2, 6, 2], heads [3, 6, 12, 24], window
// 7, 224 pixels in 4×4 patches, MLP ratio 4, drop_path_rate 0.1).
func swinFromHF(modelType string, data []byte) (Arch, error) {
	var h swinConfig
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	if h.Depths == nil {
		h.Depths = []int{2, 2, 6, 2}
	}
	if h.Heads == nil {
		h.Heads = []int{3, 6, 12, 24}
	}
	embed, window, image, patch := orInt(h.Embed, 96), orInt(h.Window, 7), orInt(h.Image, 224), orInt(h.Patch, 4)
	if err := notNegative(hfKey{"embed_dim", h.Embed}, hfKey{"window_size", h.Window}, hfKey{"image_size", h.Image},
		hfKey{"patch_size", h.Patch}, hfKey{"num_labels", h.NumLabels}); err != nil {
		return Arch{}, err
	}
	notPos := func(n int) bool { return n <= 0 }
	ratio := orF64(h.MLPRatio, 4)
	dp := orF64(h.DropPath, 0.1)
	switch {
	case len(h.Depths) == 0 || len(h.Depths) != len(h.Heads) || slices.ContainsFunc(h.Depths, notPos) || slices.ContainsFunc(h.Heads, notPos):
		return Arch{}, fmt.Errorf("config.json: depths %v, num_heads %v: want one positive depth and head count per stage", h.Depths, h.Heads)
	case len(h.Depths) > 8:
		return Arch{}, fmt.Errorf("config.json: depths lists %d stages; Swin halves its map %d times", len(h.Depths), len(h.Depths)-1)
	case h.Channels != 0 && h.Channels != 3:
		return Arch{}, fmt.Errorf("config.json: num_channels %d: Swin is modelled on RGB images (3)", h.Channels)
	case h.Act != "" && h.Act != "gelu":
		return Arch{}, fmt.Errorf("config.json: hidden_act %q: Swin is modelled with gelu", h.Act)
	case embed%h.Heads[0] != 0:
		return Arch{}, fmt.Errorf("config.json: embed_dim %d is not a multiple of num_heads[0] %d", embed, h.Heads[0])
	case ratio <= 0 || int(ratio*float64(embed)) <= 0:
		return Arch{}, fmt.Errorf("config.json: mlp_ratio %g gives no MLP", ratio)
	case dp < 0 || dp >= 1:
		return Arch{}, fmt.Errorf("config.json: drop_path_rate %g: want [0, 1)", dp)
	case h.HiddenDrop < 0 || h.HiddenDrop >= 1 || h.AttnDrop < 0 || h.AttnDrop >= 1:
		return Arch{}, fmt.Errorf("config.json: dropout %g / %g: want [0, 1)", h.HiddenDrop, h.AttnDrop)
	}
	for i, n := range h.Heads {
		if n != h.Heads[0]<<i {
			return Arch{}, fmt.Errorf("config.json: num_heads %v: Swin is modelled with the heads doubling every stage, as the width does (every released checkpoint)", h.Heads)
		}
	}
	a := swin(modelType, embed, h.Depths, h.Heads[0], window, image)
	a.Patch, a.FFN, a.DropPath = patch, int(ratio*float64(embed)), dp
	a.AttnBias = orBool(h.QKVBias, true)
	a.Dropout, a.AttnDropout = h.HiddenDrop, h.AttnDrop
	// transformers' PretrainedConfig defaults to 2 labels
	a.Classes = max(h.NumLabels, len(h.ID2Label), 2)
	if h.AbsPos {
		// a learned table of the configured image's patches
		g := (image + patch - 1) / patch
		a.MaxPos = g * g
	}
	return a, nil
}

// orInt is n, or d when n is 0 (a config.json key left out).
func orInt(n, d int) int {
	if n == 0 {
		return d
	}
	return n
}

// buildSwin follows transformers 5's SwinForImageClassification as dev92's
// traces allocate it (SDPA, bf16 autocast and float32): the patch conv,
// whose output flatten(2).transpose(1, 2) leaves strided, so the
// embeddings' LayerNorm copies its (autocast-cast) input contiguous; the
// stages (swinLayer, swinMerge), each of which also returns its output
// permuted to NCHW, a contiguous copy the encoder's loop variable holds
// until the next stage returns; the final LayerNorm, the mean over the
// patches (AdaptiveAvgPool1d on the transposed float32 map) and the
// classifier. SwinStage and SwinLayer are both GradientCheckpointingLayers:
// each layer is a checkpoint block (b.block) inside its stage's
// (b.outer), whose patch merging is in the stage's checkpoint only
// (nested.go).
func buildSwin(b *builder, a *Arch, batch, image int64) {
	x, _ := b.imageInput(batch, image)
	// under LoRA the frozen stem and the ops before the first adapter
	// read nothing that requires grad: autograd saves nothing for them
	defer b.noGradSaves(len(b.g.ops))
	p, c := int64(a.Patch), int64(a.Widths[0])
	if image%p != 0 {
		// SwinPatchEmbeddings.maybe_pad: the image padded to whole patches
		n := (image + p - 1) / p * p
		t := b.out(batch*3*n*n, b.dt(x.t), x.t)
		b.op("pad", []Tensor{x.t}, []Tensor{t}, nil)
		x.t, x.h, x.w = t, n, n
	}
	b.module = "embeddings"
	x = b.conv2d(x, c, p, p, 0, 1, true)
	b.convNeXtStemWorkspace()
	stem := x.t
	xf := b.fp32(stem)
	h := b.layerNorm(b.copy(xf), c, true)
	b.g.ops[len(b.g.ops)-1].save[0] = xf
	// the patch embeddings' output is an argument until the norm returns,
	// which saves the cast it was given (the copy is its own temporary)
	b.keep(xf, stem)
	hh, ww := x.h, x.w
	if a.MaxPos > 0 {
		pos := b.param(int64(a.MaxPos) * c)
		if b.numel(pos) != hh*ww*c {
			// interpolate_pos_encoding: the table resized to this grid
			pi := b.out(hh*ww*c, b.dt(pos), pos)
			b.op("interpolate", []Tensor{pos}, []Tensor{pi}, nil)
			pos = pi
		}
		h = b.add(h, pos)
	}
	h = b.dropout(h, a.Dropout)
	emb := h // SwinModel.forward's embedding_output, held while the encoder runs
	total := sumBlocks(a)
	idx, blk := 0, 0
	var shown Tensor = -1 // the last stage's reshaped_hidden_state
	for s, depth := range a.Blocks {
		b.outer = s
		c = int64(a.Widths[s])
		heads := int64(a.Heads) << s
		in := h
		for i := 0; i < depth; i++ {
			b.module = "encoder.layers." + itoa(s) + ".blocks." + itoa(i)
			b.block, blk = blk, blk+1
			l := swinGeom{batch: batch, h: hh, w: ww, c: c, heads: heads, win: int64(a.Window)}
			if i%2 == 1 {
				l.shift = l.win / 2
			}
			if min(hh, ww) <= l.win {
				// set_shift_and_window_size: one window over the whole map
				l.shift, l.win = 0, min(hh, ww)
			}
			l.tableWin = int64(a.Window)
			l.dropPath = a.DropPath * float64(idx) / float64(max(total-1, 1))
			idx++
			h = b.swinLayer(h, a, l)
		}
		before := h // hidden_states_before_downsampling, held until the stage returns
		b.block = -1
		if s < len(a.Blocks)-1 {
			b.module = "encoder.layers." + itoa(s) + ".downsample"
			h = b.swinMerge(h, batch, hh, ww, c)
			hh, ww = (hh+1)/2, (ww+1)/2
		}
		// get_reshaped_hidden_states: the stage's output permuted to
		// (B, C, H, W) and made contiguous, whether or not it is wanted
		r := b.copy(h)
		// the previous stage's copy and this stage's input, the encoder's
		// loop variables, go when the stage returns
		b.keep(shown, in, before)
		shown = r
	}
	b.block, b.outer = -1, -1
	b.g.blocks = blk
	b.module = "layernorm"
	d := int64(a.Widths[len(a.Widths)-1])
	seq := h
	h = b.layerNorm(h, d, true)
	// its gradient comes from the pooler's backward through transpose(1,
	// 2): layer_norm_backward copies it contiguous for the call
	b.g.ops[len(b.g.ops)-1].bwdHeld = []int64{b.tt(h).bytes()}
	pooled := b.reduce(h, batch*d)
	b.keep(seq, emb) // the encoder's input and output, until SwinModel.forward returns
	b.module = "classifier"
	classes := int64(max(a.Classes, 2))
	logits := b.linear(pooled, d, classes, true, "classifier")
	b.g.loss = b.crossEntropy(logits, classes)
	b.keep(h, pooled) // SwinModelOutput's last_hidden_state and pooler_output, through the loss
}

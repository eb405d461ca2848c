package memmodel

import "fmt"

// The Hugging Face ViT family: transformers' ViTForImageClassification
// (google/vit-base-patch16-224 and the like, config.json model_type vit).
// Unlike torchvision's ViT (family vit) it runs batch-first throughout:
// a patch convolution, the class token concatenated in front (promoting
// the stream to float32 under autocast), learned positions added, then
// pre-norm layers of separate q/k/v projections (q_proj, k_proj, v_proj,
// o_proj in transformers 5), SDPA, a GELU MLP, and a final LayerNorm and a
// linear classifier on the class token (no pooler).

func init() {
	register(&Family{
		Name: "hf-vit", Task: "image-classification", Vision: true, Attention: true,
		ModelTypes: []string{"vit"},
		// transformers 5 names ViT's projections q_proj/k_proj/v_proj/o_proj
		// (PEFT's documented query/value match nothing there: call161)
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			hfViT("hf-vit-base-patch16", 768, 12, 12, 3072, 16),
			hfViT("hf-vit-large-patch16", 1024, 24, 16, 4096, 16),
			hfViT("hf-vit-huge-patch14", 1280, 32, 16, 5120, 14),
		},
		Aliases: map[string]string{
			"google/vit-base-patch16-224": "hf-vit-base-patch16", "google/vit-base-patch16-224-in21k": "hf-vit-base-patch16",
			"google/vit-large-patch16-224": "hf-vit-large-patch16", "google/vit-huge-patch14-224-in21k": "hf-vit-huge-patch14",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildHFViT(b, a, in.Batch, in.Image) },
		FromHF: hfViTFromHF,
	})
	// DINOv2 (facebook/dinov2-*) as transformers' Dinov2ForImageClassification:
	// these layers with a layer scale on each branch, patch 14, the
	// position embedding interpolated to the image (small tensors), and
	// the classifier on the class token beside the mean patch token
	register(&Family{
		Name: "dinov2", Task: "image-classification", Vision: true, Attention: true,
		ModelTypes:  []string{"dinov2"},
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			dinov2("dinov2-small", 384, 12, 6), dinov2("dinov2-base", 768, 12, 12),
			dinov2("dinov2-large", 1024, 24, 16),
		},
		Aliases: map[string]string{
			"facebook/dinov2-small": "dinov2-small", "facebook/dinov2-base": "dinov2-base",
			"facebook/dinov2-large": "dinov2-large",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildHFViT(b, a, in.Batch, in.Image) },
		FromHF: dinov2FromHF,
	})
}

// dinov2Positions is the rows of DINOv2's position table: the patches of
// its pre-training image plus the class token (1370 at 518 pixels, patch
// 14), interpolated to the input's grid in every forward.
func dinov2Positions(image, patch int) int { return (image/patch)*(image/patch) + 1 }

// dinov2 is a DINOv2 backbone with a 1000-class head, fine-tuned at 224
// pixels by default (the checkpoints' 518 is their pre-training side).
func dinov2(name string, hidden, layers, heads int) Arch {
	a := hfViT(name, hidden, layers, heads, 4*hidden, 14)
	a.Family, a.LayerScale = "dinov2", true
	a.MaxPos = dinov2Positions(518, 14)
	return a
}

func hfViT(name string, hidden, layers, heads, ffn, patch int) Arch {
	return Arch{Name: name, Family: "hf-vit", Hidden: hidden, Layers: layers, Heads: heads, FFN: ffn, Patch: patch,
		Classes: 1000, ImageSize: 224, AttnBias: true}
}

// hfViTConfig is the config.json keys ViTConfig and Dinov2Config share,
// with DINOv2's own (mlp_ratio, use_swiglu_ffn).
type hfViTConfig struct {
	Hidden     int               `json:"hidden_size"`
	Layers     int               `json:"num_hidden_layers"`
	Heads      int               `json:"num_attention_heads"`
	FFN        int               `json:"intermediate_size"`
	MLPRatio   *float64          `json:"mlp_ratio"`
	SwiGLU     bool              `json:"use_swiglu_ffn"`
	Image      int               `json:"image_size"`
	Patch      int               `json:"patch_size"`
	Channels   int               `json:"num_channels"`
	QKVBias    *bool             `json:"qkv_bias"`
	HiddenDrop *float64          `json:"hidden_dropout_prob"`
	AttnDrop   *float64          `json:"attention_probs_dropout_prob"`
	Act        string            `json:"hidden_act"`
	NumLabels  int               `json:"num_labels"`
	ID2Label   map[string]string `json:"id2label"`
}

// arch checks the shared keys and makes the Arch of a ViT whose MLP is
// ffn wide (patch 16 and 224 pixels unless the config says).
func (h *hfViTConfig) arch(modelType string, ffn int) (Arch, error) {
	if err := needPositive(hfKey{"hidden_size", h.Hidden}, hfKey{"num_hidden_layers", h.Layers},
		hfKey{"num_attention_heads", h.Heads}); err != nil {
		return Arch{}, err
	}
	if err := notNegative(hfKey{"image_size", h.Image}, hfKey{"patch_size", h.Patch}, hfKey{"num_labels", h.NumLabels}); err != nil {
		return Arch{}, err
	}
	switch {
	case h.Channels != 0 && h.Channels != 3:
		return Arch{}, fmt.Errorf("config.json: num_channels %d: ViT is modelled on RGB images (3)", h.Channels)
	case h.Act != "" && h.Act != "gelu":
		return Arch{}, fmt.Errorf("config.json: hidden_act %q: ViT is modelled with gelu", h.Act)
	case ffn <= 0:
		return Arch{}, fmt.Errorf("config.json: intermediate_size missing or not positive")
	case h.Hidden%h.Heads != 0:
		return Arch{}, fmt.Errorf("config.json: hidden_size %d is not a multiple of num_attention_heads %d", h.Hidden, h.Heads)
	}
	patch := h.Patch
	if patch == 0 {
		patch = 16
	}
	a := hfViT(modelType, h.Hidden, h.Layers, h.Heads, ffn, patch)
	if h.Image > 0 {
		a.ImageSize = h.Image
	}
	// transformers' ViTConfig defaults: no dropout, 2 labels
	a.Classes = max(h.NumLabels, len(h.ID2Label), 2)
	a.Dropout, a.AttnDropout = orF64(h.HiddenDrop, 0), orF64(h.AttnDrop, 0)
	a.AttnBias = orBool(h.QKVBias, true)
	return a, nil
}

func hfViTFromHF(modelType string, data []byte) (Arch, error) {
	var h hfViTConfig
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	return h.arch(modelType, h.FFN)
}

// dinov2FromHF reads Dinov2Config: mlp_ratio instead of intermediate_size,
// SwiGLU for giant only, the position table of its image_size's grid; the
// model is fine-tuned at 224 pixels unless asked.
func dinov2FromHF(modelType string, data []byte) (Arch, error) {
	var h hfViTConfig
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	if h.SwiGLU {
		return Arch{}, fmt.Errorf("config.json: use_swiglu_ffn (DINOv2 giant's SwiGLU MLP) is not modelled")
	}
	a, err := h.arch(modelType, int(float64(h.Hidden)*orF64(h.MLPRatio, 4)))
	if err != nil {
		return Arch{}, err
	}
	a.MaxPos = dinov2Positions(max(a.ImageSize, a.Patch), a.Patch)
	a.Family, a.LayerScale, a.ImageSize = "dinov2", true, 224
	return a, nil
}

// buildHFViT follows transformers 5's ViTForImageClassification with SDPA,
// as dev84's traces allocate it: the patch conv's output, the float32 cat
// with the class token and the position add; per layer layernorm_before
// (its output bound until the attention returns), the three projections
// each casting it, SDPA, o_proj (its output until the residual add),
// layernorm_after (until the MLP's second linear returns), fc1, GELU, fc2
// and the add; the final LayerNorm, held through the loss, and the
// classifier on the class token.
func buildHFViT(b *builder, a *Arch, batch, image int64) {
	x, _ := b.imageInput(batch, image)
	// under LoRA the embeddings and the first layer's frozen projections
	// read nothing requiring grad: autograd saves nothing for them
	defer b.noGradSaves(len(b.g.ops))
	d, p, heads, ff := int64(a.Hidden), int64(a.Patch), int64(a.Heads), int64(a.FFN)
	cls := b.param(d)
	x = b.conv2d(x, d, p, p, 0, 1, true)
	b.vitStemWorkspace()
	seq := x.h*x.w + 1
	// the float32 class token promotes the cat under autocast
	h := b.out(batch*seq*d, promote(b.dt(x.t), b.dt(cls)), x.t, cls)
	o := b.op("cat", []Tensor{x.t, cls}, []Tensor{h}, nil)
	o.passGrad = []bool{false, false}
	// the position table: one row a token, or DINOv2's pre-training
	// grid (Arch.MaxPos), interpolated to this one (small temporaries)
	pos := b.param(max(seq, int64(a.MaxPos)) * d)
	if a.LayerScale {
		b.param(d) // DINOv2's mask_token
	}
	if b.numel(pos) != seq*d {
		// interpolate_pos_encoding: the table resized to this grid
		pi := b.out(seq*d, b.dt(pos), pos)
		b.op("interpolate", []Tensor{pos}, []Tensor{pi}, nil)
		pos = pi
	}
	h = b.add(h, pos)
	h = b.dropout(h, a.Dropout)
	for l := 0; l < a.Layers; l++ {
		b.block = l
		b.module = layerModule(l, "attention")
		y := b.layerNorm(h, d, true)
		q := b.linear(y, d, d, a.AttnBias, "q_proj")
		k := b.linear(y, d, d, a.AttnBias, "k_proj")
		v := b.linear(y, d, d, a.AttnBias, "v_proj")
		b.sel = true
		att := b.sdpaMask(q, k, v, -1, attnShape{batch: batch, heads: heads, sq: seq, sk: seq, hd: d / heads,
			dropout: a.AttnDropout})
		b.sel = false
		att = b.linear(att, d, d, true, "o_proj")
		att = b.dropout(att, a.Dropout)
		var held []Tensor
		if a.LayerScale {
			// Dinov2Layer: the scaled branch and norm1's output are its
			// locals until it returns (dev90's traces)
			att = b.mul(att, b.param(d))
			held = []Tensor{y, att}
		} else {
			b.keep(y)
		}
		h = b.add(att, h)
		b.keep(att)
		b.module = layerModule(l, "mlp")
		y = b.layerNorm(h, d, true)
		m := b.linear(y, d, ff, true, "fc1")
		m = b.gelu(m)
		m = b.linear(m, ff, d, true, "fc2")
		b.keep(y)
		m = b.dropout(m, a.Dropout)
		if a.LayerScale {
			m = b.mul(m, b.param(d))
		}
		h = b.add(m, h)
		b.keep(m)
		b.keep(held...)
	}
	b.block = -1
	b.g.blocks = a.Layers
	b.module = "layernorm"
	h = b.layerNorm(h, d, true)
	// sequence_output[:, 0, :]: the classifier reads the class token's
	// row, a view (under autocast its cast copies only that row); DINOv2's
	// reads it beside the patch tokens' mean, a cat twice as wide
	c := b.slice(h, batch*d)
	in := d
	if a.LayerScale {
		mean := b.reduce(h, batch*d)
		c = b.out(2*batch*d, b.dt(h), c, mean)
		o := b.op("cat", []Tensor{b.slice(h, batch*d), mean}, []Tensor{c}, nil)
		o.passGrad = []bool{false, false}
		in = 2 * d
	}
	b.module = "classifier"
	classes := int64(max(a.Classes, 2))
	logits := b.linear(c, in, classes, true, "classifier")
	b.g.loss = b.crossEntropy(logits, classes)
	b.keep(h) // ViTForImageClassification's sequence_output, through the loss
}

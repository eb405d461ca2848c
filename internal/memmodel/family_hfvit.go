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
}

func hfViT(name string, hidden, layers, heads, ffn, patch int) Arch {
	return Arch{Name: name, Family: "hf-vit", Hidden: hidden, Layers: layers, Heads: heads, FFN: ffn, Patch: patch,
		Classes: 1000, ImageSize: 224, AttnBias: true}
}

func hfViTFromHF(modelType string, data []byte) (Arch, error) {
	var h struct {
		Hidden     int               `json:"hidden_size"`
		Layers     int               `json:"num_hidden_layers"`
		Heads      int               `json:"num_attention_heads"`
		FFN        int               `json:"intermediate_size"`
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
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	if err := needPositive(hfKey{"hidden_size", h.Hidden}, hfKey{"num_hidden_layers", h.Layers},
		hfKey{"num_attention_heads", h.Heads}, hfKey{"intermediate_size", h.FFN}); err != nil {
		return Arch{}, err
	}
	if err := notNegative(hfKey{"image_size", h.Image}, hfKey{"patch_size", h.Patch}, hfKey{"num_labels", h.NumLabels}); err != nil {
		return Arch{}, err
	}
	if h.Channels != 0 && h.Channels != 3 {
		return Arch{}, fmt.Errorf("config.json: num_channels %d: ViT is modelled on RGB images (3)", h.Channels)
	}
	if h.Act != "" && h.Act != "gelu" {
		return Arch{}, fmt.Errorf("config.json: hidden_act %q: ViT is modelled with gelu", h.Act)
	}
	a := hfViT(modelType, h.Hidden, h.Layers, h.Heads, h.FFN, max(h.Patch, 16))
	if h.Patch == 0 {
		a.Patch = 16
	}
	if h.Image > 0 {
		a.ImageSize = h.Image
	}
	// transformers' ViTConfig defaults: no dropout, 2 labels
	a.Classes = max(h.NumLabels, len(h.ID2Label), 2)
	a.Dropout, a.AttnDropout = orF64(h.HiddenDrop, 0), orF64(h.AttnDrop, 0)
	a.AttnBias = orBool(h.QKVBias, true)
	if a.Hidden%a.Heads != 0 {
		return Arch{}, fmt.Errorf("config.json: hidden_size %d is not a multiple of num_attention_heads %d", a.Hidden, a.Heads)
	}
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
	pos := b.param(seq * d)
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
		b.keep(y)
		h = b.add(att, h)
		b.keep(att)
		b.module = layerModule(l, "mlp")
		y = b.layerNorm(h, d, true)
		m := b.linear(y, d, ff, true, "fc1")
		m = b.gelu(m)
		m = b.linear(m, ff, d, true, "fc2")
		b.keep(y)
		m = b.dropout(m, a.Dropout)
		h = b.add(m, h)
		b.keep(m)
	}
	b.block = -1
	b.g.blocks = a.Layers
	b.module = "layernorm"
	h = b.layerNorm(h, d, true)
	// sequence_output[:, 0, :]: the classifier reads the class token's
	// row, a view (under autocast its cast copies only that row)
	c := b.slice(h, batch*d)
	b.module = "classifier"
	classes := int64(max(a.Classes, 2))
	logits := b.linear(c, d, classes, true, "classifier")
	b.g.loss = b.crossEntropy(logits, classes)
	b.keep(h) // ViTForImageClassification's sequence_output, through the loss
}

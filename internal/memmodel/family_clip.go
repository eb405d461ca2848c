package memmodel

import "fmt"

// The CLIP family: transformers' CLIPModel trained with its own
// contrastive loss (return_loss=True; openai/clip-vit-*, config.json
// model_type clip). Two towers of the same pre-norm layer (q/k/v/out_proj
// with biases, SDPA, an MLP of fc1, quick_gelu written out as
// x·sigmoid(1.702·x), fc2): the vision tower, run first, is a ViT (a patch
// convolution without bias, the class embedding concatenated in front,
// learned positions, pre_layrnorm, post_layernorm on the class token); the
// text tower embeds 77 tokens with learned positions, attends causally and
// ends in final_layer_norm, pooled at each row's EOS token. Both pooled
// vectors are projected (no bias) to projection_dim, divided by their
// norms, multiplied into the batch × batch logits and scaled by
// logit_scale.exp(); the loss is the mean of the cross entropies of the
// logits and of their transpose against arange(batch). Written from
// modeling_clip, then held to dev95's four traces (TestDev95CLIP,
// testdata/dev95/clip/NOTES.md).

func init() {
	register(&Family{
		Name: "clip", Task: "contrastive-image-text", Attention: true,
		ModelTypes: []string{"clip"},
		// transformers names both towers' projections q_proj/k_proj/
		// v_proj/out_proj; PEFT's q_proj, v_proj match in both
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			clipArch("clip-vit-base-patch32", clipTower{512, 12, 8, 2048}, clipTower{768, 12, 12, 3072}, 32, 224, 512),
			clipArch("clip-vit-base-patch16", clipTower{512, 12, 8, 2048}, clipTower{768, 12, 12, 3072}, 16, 224, 512),
			clipArch("clip-vit-large-patch14", clipTower{768, 12, 12, 3072}, clipTower{1024, 24, 16, 4096}, 14, 224, 768),
			clipArch("clip-vit-large-patch14-336", clipTower{768, 12, 12, 3072}, clipTower{1024, 24, 16, 4096}, 14, 336, 768),
		},
		Aliases: map[string]string{
			"openai/clip-vit-base-patch32": "clip-vit-base-patch32", "openai/clip-vit-base-patch16": "clip-vit-base-patch16",
			"openai/clip-vit-large-patch14": "clip-vit-large-patch14", "openai/clip-vit-large-patch14-336": "clip-vit-large-patch14-336",
		},
		Build:         buildCLIP,
		FromHF:        clipFromHF,
		InputGradHeld: true,
		NoModelParallel: "transformers gives CLIP no tensor-parallel plan, and its two towers of " +
			"different widths are not split by heads or layers here (ddp, fsdp and zero1-3 are planned)",
	})
}

// CLIPVision is the image tower of a CLIP model (Arch.CLIP) beside the
// text tower the Arch's own Hidden, Layers, Heads and FFN describe.
type CLIPVision struct {
	Hidden int `json:"hidden"`
	Layers int `json:"layers"`
	Heads  int `json:"heads"`
	FFN    int `json:"ffn"`
	// AttnDropout is the vision config's attention_dropout.
	AttnDropout float64 `json:"attn_dropout,omitempty"`
	// Projection is projection_dim, the width both towers project to.
	Projection int `json:"projection"`
}

// clipTower is one tower's sizes in a catalog entry.
type clipTower struct{ hidden, layers, heads, ffn int }

func clipArch(name string, text, vision clipTower, patch, image, proj int) Arch {
	return Arch{Name: name, Family: "clip", Hidden: text.hidden, Layers: text.layers, Heads: text.heads, FFN: text.ffn,
		Vocab: 49408, MaxPos: 77, DefaultSeq: 77, Patch: patch, ImageSize: image, AttnBias: true,
		CLIP: CLIPVision{Hidden: vision.hidden, Layers: vision.layers, Heads: vision.heads, FFN: vision.ffn, Projection: proj}}
}

// clipTowerConfig is the keys CLIPTextConfig and CLIPVisionConfig share
// that the graph reads; a key left out takes transformers' default.
type clipTowerConfig struct {
	Hidden   int      `json:"hidden_size"`
	FFN      int      `json:"intermediate_size"`
	Layers   int      `json:"num_hidden_layers"`
	Heads    int      `json:"num_attention_heads"`
	Act      string   `json:"hidden_act"`
	AttnDrop *float64 `json:"attention_dropout"`
	// text
	Vocab  int `json:"vocab_size"`
	MaxPos int `json:"max_position_embeddings"`
	// vision
	Image    int `json:"image_size"`
	Patch    int `json:"patch_size"`
	Channels int `json:"num_channels"`
}

// check fills transformers' defaults (def) into the keys left out and
// refuses what the graph does not model.
func (t *clipTowerConfig) check(key string, def clipTower) error {
	if err := notNegative(hfKey{key + ".hidden_size", t.Hidden}, hfKey{key + ".intermediate_size", t.FFN},
		hfKey{key + ".num_hidden_layers", t.Layers}, hfKey{key + ".num_attention_heads", t.Heads},
		hfKey{key + ".vocab_size", t.Vocab}, hfKey{key + ".max_position_embeddings", t.MaxPos},
		hfKey{key + ".image_size", t.Image}, hfKey{key + ".patch_size", t.Patch}); err != nil {
		return err
	}
	t.Hidden, t.FFN = orInt(t.Hidden, def.hidden), orInt(t.FFN, def.ffn)
	t.Layers, t.Heads = orInt(t.Layers, def.layers), orInt(t.Heads, def.heads)
	switch {
	case t.Act != "" && t.Act != "quick_gelu":
		return fmt.Errorf("config.json: %s.hidden_act %q: CLIP is modelled with quick_gelu (x·sigmoid(1.702·x))", key, t.Act)
	case t.Channels != 0 && t.Channels != 3:
		return fmt.Errorf("config.json: %s.num_channels %d: CLIP is modelled on RGB images (3)", key, t.Channels)
	case t.Hidden%t.Heads != 0:
		return fmt.Errorf("config.json: %s.hidden_size %d is not a multiple of num_attention_heads %d", key, t.Hidden, t.Heads)
	}
	return nil
}

// clipFromHF reads CLIPConfig: text_config and vision_config (each key
// defaulting as CLIPTextConfig and CLIPVisionConfig do: the ViT-B/32
// sizes) and projection_dim.
func clipFromHF(modelType string, data []byte) (Arch, error) {
	var h struct {
		Text   *clipTowerConfig `json:"text_config"`
		Vision *clipTowerConfig `json:"vision_config"`
		Proj   int              `json:"projection_dim"`
	}
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	switch {
	case h.Text == nil:
		return Arch{}, fmt.Errorf("config.json: text_config missing (CLIPModel's text tower)")
	case h.Vision == nil:
		return Arch{}, fmt.Errorf("config.json: vision_config missing (CLIPModel's image tower)")
	}
	if err := notNegative(hfKey{"projection_dim", h.Proj}); err != nil {
		return Arch{}, err
	}
	t, v := h.Text, h.Vision
	if err := t.check("text_config", clipTower{512, 12, 8, 2048}); err != nil {
		return Arch{}, err
	}
	if err := v.check("vision_config", clipTower{768, 12, 12, 3072}); err != nil {
		return Arch{}, err
	}
	a := clipArch(modelType, clipTower{t.Hidden, t.Layers, t.Heads, t.FFN}, clipTower{v.Hidden, v.Layers, v.Heads, v.FFN},
		orInt(v.Patch, 32), orInt(v.Image, 224), orInt(h.Proj, 512))
	if a.Patch > a.ImageSize {
		return Arch{}, fmt.Errorf("config.json: vision_config.patch_size %d is larger than its image_size %d", a.Patch, a.ImageSize)
	}
	a.Vocab, a.MaxPos = orInt(t.Vocab, 49408), orInt(t.MaxPos, 77)
	a.DefaultSeq = a.MaxPos
	a.AttnDropout, a.CLIP.AttnDropout = orF64(t.AttnDrop, 0), orF64(v.AttnDrop, 0)
	if n := a.Layers + a.CLIP.Layers; n > MaxLayers {
		return Arch{}, fmt.Errorf("config.json: %d layers in the two towers, more than the %d vramkit plans", n, MaxLayers)
	}
	// the image tower's weights, gradients and Adam's moments, bounded
	// as checkHFArch bounds the text tower's
	d, f := float64(v.Hidden), float64(v.FFN)
	if b := float64(v.Layers) * (4*d + f) * (4*d + f) * 16; b > MaxStepBytes {
		return Arch{}, fmt.Errorf("config.json: vision_config too large to plan: its parameters alone could take %s under Adam", scaleBytes(b))
	}
	return a, nil
}

package memmodel

import "fmt"

// The Wav2Vec2 family: transformers' Wav2Vec2ForCTC (speech recognition)
// and Wav2Vec2ForSequenceClassification (audio classification) on raw
// 16 kHz audio (audio.go). A feature encoder of 1-D convolutions (512
// channels; GroupNorm after the first, or LayerNorm after each) with GELU
// turns the audio into frames about 20 ms apart; a LayerNorm and a Linear
// project them to the hidden size, SpecAugment overwrites random spans
// with a learned vector in training, a grouped convolution under a
// weight-norm parametrization adds relative positions, and a BART-style
// encoder follows: post-norm layers (base) or pre-norm layers and a final
// LayerNorm (do_stable_layer_norm, large-lv60). The CTC head is dropout,
// lm_head, log_softmax in float32 and ctc_loss; the classification head
// projects every frame, averages them and classifies the mean.
// family_wav2vec2_ops.go holds the convolutions and heads.

func init() {
	register(&Family{
		Name: "wav2vec2", Task: "automatic-speech-recognition", Heads: []string{"sequence-classification"},
		Attention: true, Audio: true,
		NoModelParallel: "the convolutional feature encoder, positional convolution and heads would be whole on every " +
			"rank and the stages' split is not modelled; use ddp, fsdp or zero1-3",
		ModelTypes: []string{"wav2vec2"},
		// PEFT's default target modules for wav2vec2 have no entry: the
		// attention's q and v projections, as the recipes name them
		LoRATargets: []string{"q_proj", "v_proj"},
		Unmeasured: "Wav2Vec2 is modelled from transformers' source and checked on five H100 captures (dev95: base CTC " +
			"10 s b8 bf16-amp, 5 s b4 fp32 with the feature encoder trained, 10 s b8 checkpointed, large-lv60 8 s b4, " +
			"base classification 4 s b16 LoRA r16): peak allocated within 0.16% once LayerDrop's skipped layers are " +
			"accounted for. Plan runs every encoder layer with its optimizer state (layerdrop 0.1 skipped layers at random " +
			"in those runs, which lowered their peaks by up to 3.3%); fp16, pure bf16 (the audio then cast to bf16) and a trained feature encoder under " +
			"checkpointing are not measured; CTC labels are taken at 12 a second of audio",
		Models: []Arch{wav2vec2Base("wav2vec2-base"), wav2vec2Large("wav2vec2-large")},
		Aliases: map[string]string{
			"facebook/wav2vec2-base": "wav2vec2-base", "facebook/wav2vec2-base-960h": "wav2vec2-base",
			"facebook/wav2vec2-base-100h":  "wav2vec2-base",
			"facebook/wav2vec2-large-lv60": "wav2vec2-large", "facebook/wav2vec2-large-960h-lv60-self": "wav2vec2-large",
			"facebook/wav2vec2-large-960h-lv60": "wav2vec2-large", "facebook/wav2vec2-large-robust": "wav2vec2-large",
			"facebook/wav2vec2-large-xlsr-53": "wav2vec2-large", "facebook/wav2vec2-xls-r-300m": "wav2vec2-large",
		},
		Build:  buildWav2Vec2,
		FromHF: wav2vec2FromHF,
	})
}

// Wav2Vec2 is what a Wav2Vec2 config.json sets beyond the transformer's
// sizes (Arch.Wav2Vec2; zero for other families).
type Wav2Vec2 struct {
	// ConvDim, ConvKernel and ConvStride are the feature encoder's
	// channels, kernel widths and strides, one per conv layer.
	ConvDim    []int `json:"conv_dim,omitempty"`
	ConvKernel []int `json:"conv_kernel,omitempty"`
	ConvStride []int `json:"conv_stride,omitempty"`
	// LayerNormConv: feat_extract_norm "layer", a LayerNorm over the
	// channels after every conv; else "group", a GroupNorm of one group a
	// channel after the first conv only.
	LayerNormConv bool `json:"layer_norm_conv,omitempty"`
	ConvBias      bool `json:"conv_bias,omitempty"`
	// Stable is do_stable_layer_norm: pre-norm layers and a LayerNorm
	// after the last, where the base layout is post-norm with a
	// LayerNorm before the first.
	Stable bool `json:"stable_layer_norm,omitempty"`
	// PosConv and PosGroups are the positional convolution's kernel
	// (num_conv_pos_embeddings) and groups.
	PosConv   int `json:"pos_conv,omitempty"`
	PosGroups int `json:"pos_groups,omitempty"`
	// ClassifierProj is the classification head's projector width.
	ClassifierProj int `json:"classifier_proj,omitempty"`
	// FeatProjDropout follows the projection; FinalDropout precedes the
	// CTC head.
	FeatProjDropout float64 `json:"feat_proj_dropout,omitempty"`
	FinalDropout    float64 `json:"final_dropout,omitempty"`
	// MaskTime is SpecAugment's time masking in training (mask_time_prob
	// above 0 and apply_spec_augment), MaskLength its spans' frames.
	MaskTime   bool `json:"mask_time,omitempty"`
	MaskLength int  `json:"mask_length,omitempty"`
	// LayerDrop is config.json's layerdrop: in training each encoder
	// layer is skipped with this probability (Wav2Vec2Config's default
	// 0.1). Plan runs every layer, the most a step holds (audioNote).
	LayerDrop float64 `json:"layerdrop,omitempty"`
}

// frames is how many frames the feature encoder makes of samples
// (transformers' _get_feat_extract_output_lengths), 0 when too short.
func (w *Wav2Vec2) frames(samples int64) int64 {
	l := samples
	for i, k := range w.ConvKernel {
		if l < int64(k) {
			return 0
		}
		l = (l-int64(k))/int64(w.ConvStride[i]) + 1
	}
	return l
}

// minFrames is the fewest frames a training forward takes: SpecAugment
// refuses a sequence shorter than its span.
func (w *Wav2Vec2) minFrames() int64 {
	if w.MaskTime {
		return int64(max(w.MaskLength, 1))
	}
	return 1
}

func wav2vec2Base(name string) Arch {
	return Arch{Name: name, Family: "wav2vec2", Hidden: 768, Layers: 12, Heads: 12, FFN: 3072, Vocab: 32, Labels: 2,
		Dropout: 0.1, AttnDropout: 0.1, ActDropout: 0.1, Wav2Vec2: Wav2Vec2{
			ConvDim: []int{512, 512, 512, 512, 512, 512, 512}, ConvKernel: []int{10, 3, 3, 3, 3, 2, 2},
			ConvStride: []int{5, 2, 2, 2, 2, 2, 2}, PosConv: 128, PosGroups: 16, ClassifierProj: 256,
			FinalDropout: 0.1, MaskTime: true, MaskLength: 10, LayerDrop: 0.1}}
}

// wav2vec2Large is the lv60 layout of the large checkpoints: LayerNorm
// after every conv (with biases) and pre-norm layers.
func wav2vec2Large(name string) Arch {
	a := wav2vec2Base(name)
	a.Hidden, a.Layers, a.Heads, a.FFN = 1024, 24, 16, 4096
	a.Wav2Vec2.LayerNormConv, a.Wav2Vec2.ConvBias, a.Wav2Vec2.Stable = true, true, true
	return a
}

func wav2vec2FromHF(_ string, data []byte) (Arch, error) {
	var h struct {
		HiddenSize      int               `json:"hidden_size"`
		NumLayers       int               `json:"num_hidden_layers"`
		NumHeads        int               `json:"num_attention_heads"`
		Intermediate    int               `json:"intermediate_size"`
		Vocab           *int              `json:"vocab_size"`
		ConvDim         []int             `json:"conv_dim"`
		ConvKernel      []int             `json:"conv_kernel"`
		ConvStride      []int             `json:"conv_stride"`
		FeatNorm        string            `json:"feat_extract_norm"`
		FeatAct         string            `json:"feat_extract_activation"`
		HiddenAct       string            `json:"hidden_act"`
		ConvBias        bool              `json:"conv_bias"`
		Stable          bool              `json:"do_stable_layer_norm"`
		PosConv         int               `json:"num_conv_pos_embeddings"`
		PosGroups       int               `json:"num_conv_pos_embedding_groups"`
		ClassifierProj  int               `json:"classifier_proj_size"`
		WeightedSum     bool              `json:"use_weighted_layer_sum"`
		AddAdapter      bool              `json:"add_adapter"`
		AdapterAttnDim  *int              `json:"adapter_attn_dim"`
		HiddenDrop      *float64          `json:"hidden_dropout"`
		AttnDrop        *float64          `json:"attention_dropout"`
		ActDrop         *float64          `json:"activation_dropout"`
		FeatProjDrop    *float64          `json:"feat_proj_dropout"`
		FinalDrop       *float64          `json:"final_dropout"`
		MaskTimeProb    *float64          `json:"mask_time_prob"`
		LayerDrop       *float64          `json:"layerdrop"`
		MaskTimeLength  *int              `json:"mask_time_length"`
		MaskFeatureProb float64           `json:"mask_feature_prob"`
		SpecAugment     *bool             `json:"apply_spec_augment"`
		NumLabels       int               `json:"num_labels"`
		ID2Label        map[string]string `json:"id2label"`
	}
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	if err := needPositive(hfKey{"hidden_size", h.HiddenSize}, hfKey{"num_hidden_layers", h.NumLayers},
		hfKey{"num_attention_heads", h.NumHeads}, hfKey{"intermediate_size", h.Intermediate}); err != nil {
		return Arch{}, err
	}
	if err := notNegative(hfKey{"num_conv_pos_embeddings", h.PosConv}, hfKey{"num_conv_pos_embedding_groups", h.PosGroups},
		hfKey{"classifier_proj_size", h.ClassifierProj}, hfKey{"num_labels", h.NumLabels}); err != nil {
		return Arch{}, err
	}
	a := wav2vec2Base("wav2vec2")
	a.Hidden, a.Layers, a.Heads, a.FFN = h.HiddenSize, h.NumLayers, h.NumHeads, h.Intermediate
	w := &a.Wav2Vec2
	if h.ConvDim != nil || h.ConvKernel != nil || h.ConvStride != nil {
		w.ConvDim, w.ConvKernel, w.ConvStride = h.ConvDim, h.ConvKernel, h.ConvStride
	}
	if n := len(w.ConvDim); n == 0 || len(w.ConvKernel) != n || len(w.ConvStride) != n {
		return Arch{}, fmt.Errorf("config.json: conv_dim, conv_kernel and conv_stride must list the same conv layers, got %d, %d and %d",
			len(w.ConvDim), len(w.ConvKernel), len(w.ConvStride))
	}
	for i := range w.ConvDim {
		if w.ConvDim[i] <= 0 || w.ConvKernel[i] <= 0 || w.ConvStride[i] <= 0 {
			return Arch{}, fmt.Errorf("config.json: conv layer %d: conv_dim, conv_kernel and conv_stride must be positive, got %d, %d and %d",
				i, w.ConvDim[i], w.ConvKernel[i], w.ConvStride[i])
		}
	}
	switch h.FeatNorm {
	case "", "group":
	case "layer":
		w.LayerNormConv = true
	default:
		return Arch{}, fmt.Errorf("config.json: feat_extract_norm %q: transformers takes group or layer", h.FeatNorm)
	}
	for _, act := range []struct{ key, v string }{{"feat_extract_activation", h.FeatAct}, {"hidden_act", h.HiddenAct}} {
		if act.v != "" && act.v != "gelu" {
			return Arch{}, fmt.Errorf("config.json: %s %q: Wav2Vec2 is modelled with gelu", act.key, act.v)
		}
	}
	switch {
	case h.WeightedSum:
		return Arch{}, fmt.Errorf("config.json: use_weighted_layer_sum: the weighted sum of every layer's hidden states is not modelled")
	case h.AddAdapter:
		return Arch{}, fmt.Errorf("config.json: add_adapter: the convolutional adapter after the encoder is not modelled")
	case h.AdapterAttnDim != nil:
		return Arch{}, fmt.Errorf("config.json: adapter_attn_dim: the attention adapters (MMS) are not modelled")
	case h.MaskFeatureProb > 0 && orBool(h.SpecAugment, true):
		return Arch{}, fmt.Errorf("config.json: mask_feature_prob %g: SpecAugment's feature masking is not modelled", h.MaskFeatureProb)
	}
	if h.Vocab != nil {
		a.Vocab = *h.Vocab
	}
	if err := needPositive(hfKey{"vocab_size", a.Vocab}); err != nil {
		return Arch{}, err
	}
	w.ConvBias, w.Stable = h.ConvBias, h.Stable
	if h.PosConv > 0 {
		w.PosConv = h.PosConv
	}
	if h.PosGroups > 0 {
		w.PosGroups = h.PosGroups
	}
	if a.Hidden%w.PosGroups != 0 {
		return Arch{}, fmt.Errorf("config.json: hidden_size %d is not a multiple of num_conv_pos_embedding_groups %d", a.Hidden, w.PosGroups)
	}
	if h.ClassifierProj > 0 {
		w.ClassifierProj = h.ClassifierProj
	}
	a.Dropout, a.AttnDropout, a.ActDropout = orF64(h.HiddenDrop, 0.1), orF64(h.AttnDrop, 0.1), orF64(h.ActDrop, 0.1)
	w.FeatProjDropout, w.FinalDropout = orF64(h.FeatProjDrop, 0), orF64(h.FinalDrop, 0.1)
	w.MaskTime = orF64(h.MaskTimeProb, 0.05) > 0 && orBool(h.SpecAugment, true)
	w.LayerDrop = orF64(h.LayerDrop, 0.1)
	if w.LayerDrop < 0 || w.LayerDrop >= 1 {
		return Arch{}, fmt.Errorf("config.json: layerdrop %g: want a probability in [0, 1)", w.LayerDrop)
	}
	if h.MaskTimeLength != nil {
		w.MaskLength = *h.MaskTimeLength
	}
	a.Labels = max(h.NumLabels, len(h.ID2Label), 2)
	return a, nil
}

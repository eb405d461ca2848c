package memmodel

// Arch is a model architecture with its hyper-parameters. Every catalog
// entry is an Arch; Hugging Face config.json files parse into one.
type Arch struct {
	Name   string `json:"name"`
	Family string `json:"family"` // a registered Family's name (FamilyNames)

	// vision
	Blocks     []int   `json:"blocks,omitempty"`     // blocks per stage
	Widths     []int   `json:"widths,omitempty"`     // channels per stage
	Bottleneck bool    `json:"bottleneck,omitempty"` // ResNet-50+ bottleneck blocks
	Patch      int     `json:"patch,omitempty"`      // ViT patch size
	WidthMult  float64 `json:"width_mult,omitempty"` // EfficientNet
	DepthMult  float64 `json:"depth_mult,omitempty"` // EfficientNet
	ImageSize  int     `json:"image_size,omitempty"` // default input resolution
	Classes    int     `json:"classes,omitempty"`    // classifier width
	DropPath   float64 `json:"drop_path,omitempty"`  // stochastic depth probability
	// Window is the side, in patches, of the windows Swin attends within
	// (window_size).
	Window int `json:"window,omitempty"`
	// LayerScale: each residual branch of a ViT is multiplied by a learned
	// per-channel scale (DINOv2's lambda1/lambda2), which saves the branch
	// output and makes a float32 one under autocast; the classifier then
	// reads the class token beside the mean patch token (2·hidden wide).
	LayerScale bool `json:"layer_scale,omitempty"`
	// OutOfPlace: the CNN's ReLUs and residual adds run out of place
	// (transformers' ResNet and ConvNeXt), a new map each where
	// torchvision writes in place
	OutOfPlace bool `json:"out_of_place,omitempty"`

	// transformers
	Hidden    int `json:"hidden,omitempty"`
	Layers    int `json:"layers,omitempty"`
	DecLayers int `json:"decoder_layers,omitempty"` // T5
	Heads     int `json:"heads,omitempty"`
	KVHeads   int `json:"kv_heads,omitempty"`
	HeadDim   int `json:"head_dim,omitempty"`
	FFN       int `json:"ffn,omitempty"`
	Vocab     int `json:"vocab,omitempty"`
	MaxPos    int `json:"max_positions,omitempty"`
	TypeVocab int `json:"type_vocab,omitempty"`
	// EmbedSize is the token embeddings' width where a projection widens
	// them to Hidden (ELECTRA's embedding_size); 0 when they are Hidden wide.
	EmbedSize int     `json:"embedding_size,omitempty"`
	Tied      bool    `json:"tied,omitempty"`
	Dropout   float64 `json:"dropout,omitempty"`
	// AttnDropout is the attention-probability dropout a training step
	// passes to SDPA (BERT's attention_probs_dropout_prob, GPT-2's
	// attn_pdrop; T5 uses Dropout): no memory in the fused kernels, but
	// time (steptime_sdpa.go's sdpaVariant).
	AttnDropout float64 `json:"attn_dropout,omitempty"`
	// ActDropout follows the MLP's activation (BART's activation_dropout)
	ActDropout float64 `json:"act_dropout,omitempty"`
	GatedFFN   bool    `json:"gated_ffn,omitempty"` // T5 v1.1 gated-gelu
	Labels     int     `json:"labels,omitempty"`    // sequence classification heads
	// Head is the head trained when it is not the family's task:
	// "masked-lm" (the BERT family's BertForMaskedLM) or
	// "sequence-classification" (a decoder's score head, as reward models
	// train); from a config.json's class or spec key head.
	Head string `json:"head,omitempty"`
	// HFClass is the class a config.json names first in architectures
	// (the one it was saved from), "" for catalog models.
	HFClass    string `json:"hf_class,omitempty"`
	DefaultSeq int    `json:"default_seq,omitempty"`
	RelBuckets int    `json:"relative_buckets,omitempty"`
	AttnBias   bool   `json:"attention_bias,omitempty"` // LLaMA-style q/k/v bias (Qwen2)

	// Decoder holds what sets a Llama-like decoder apart from LLaMA
	// (Gemma, Phi-3, Qwen3, OLMo, Granite, the MoE decoders); zero for LLaMA.
	Decoder DecoderQuirks `json:"decoder,omitzero"`
	// ModernBERT holds a ModernBERT model's biases, pooling and dropouts.
	ModernBERT ModernBERTOpts `json:"modernbert,omitzero"`
	// MoE is the mixture-of-experts MLP; zero for a dense model.
	MoE MoE `json:"moe,omitzero"`
	// Images is the vision encoder of a multimodal checkpoint (Gemma 3
	// 4B-27B); nil for a text model.
	Images *ImageTower `json:"image_tower,omitempty"`
	// Deberta is DeBERTa-v2's relative attention and the config.json
	// choices around it (family_deberta.go); zero for other families.
	Deberta Deberta `json:"deberta,omitzero"`
	// BART is how a BART relative (Marian, mBART) departs from BART's
	// layout (family_bart.go); zero for BART.
	BART BARTOpts `json:"bart,omitzero"`
	// Whisper: mel bins of the input features and encoder positions
	// (the encoder sees 2·SourcePos frames).
	MelBins   int `json:"mel_bins,omitempty"`
	SourcePos int `json:"source_positions,omitempty"`
	// CLIP is a CLIP model's image tower and projection width
	// (family_clip.go; the text tower is Hidden, Layers, Heads, FFN); zero
	// for other families.
	CLIP CLIPVision `json:"clip,omitzero"`
	// Wav2Vec2 is a Wav2Vec2 model's feature encoder and the choices
	// around its encoder (family_wav2vec2.go); zero for other families.
	Wav2Vec2 Wav2Vec2 `json:"wav2vec2,omitzero"`
}

// Vision reports whether the model takes images.
func (a *Arch) Vision() bool { return a.family().Vision }

// Attention reports whether the model is a stack of attention blocks, so
// that selective checkpointing and tensor parallelism apply to it.
func (a *Arch) Attention() bool { return a.family().Attention }

func (a *Arch) headDim() int64 {
	if a.HeadDim > 0 {
		return int64(a.HeadDim)
	}
	return int64(a.Hidden / a.Heads)
}

func (a *Arch) kvHeads() int64 {
	if a.KVHeads > 0 {
		return int64(a.KVHeads)
	}
	return int64(a.Heads)
}

// scalerOverflows reports whether fp16 GradScaler skips the model's first
// steps (Family.ScalerOverflow): of the ResNets, those of bottleneck
// blocks. Every fp16 capture of ResNet-50, -101 and -152 skipped two to
// seven steps (late8, late31, pick3, pick4, dev35); every one of ResNet-18
// and -34 made Adam's state in its first step (dev23 and late19 ResNet-34
// b512, late29 b128, late33 b256 in both formats, dev35 ResNet-18 b128),
// which plan's first steps had left out: their measured peaks were 3.7%
// (ResNet-34 b256) and 5.5% (ResNet-18 b128) above its figure.
func (a *Arch) scalerOverflows() bool { return a.family().ScalerOverflow && a.Bottleneck }

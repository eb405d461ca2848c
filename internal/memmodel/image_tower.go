package memmodel

// ImageTower is the vision encoder a multimodal checkpoint carries beside
// its language model: a ViT whose patch embeddings become image tokens
// through a projector onto the text width. Training plans the text model
// alone; vLLM loads the tower with it and runs it in its profiling pass
// (package infer's serve). Gemma 3 4B-27B carry SigLIP-so400m (27 layers
// of width 1152 and MLP 4304, 896-pixel images in 14-pixel patches, pooled
// to 256 tokens an image); the 1B checkpoint is text only.
type ImageTower struct {
	Layers int `json:"layers"`
	Hidden int `json:"hidden"`
	FFN    int `json:"ffn"`
	// Image is the input resolution and Patch the patch size: an image
	// is (Image/Patch)² patches, each a row of every layer's activations.
	Image int `json:"image"`
	Patch int `json:"patch"`
	// Tokens is the embeddings one image becomes in the language model;
	// ItemTokens the prompt tokens it takes (Gemma 3: 256 and the start
	// and end markers, 258), what vLLM's encoder budget counts.
	Tokens     int `json:"tokens"`
	ItemTokens int `json:"item_tokens"`
}

// Patches is the rows of activations one image makes in each layer.
func (t ImageTower) Patches() int64 {
	side := int64(t.Image / t.Patch)
	return side * side
}

// Params are the tower's and its projector's parameters onto a language
// model of width hidden, split as vLLM's tensor parallelism splits them:
// sharded (the QKV, output and MLP projections, the position embedding)
// and replicated (the patch embedding, norms, row-parallel biases and the
// projector). SigLIP's layer: two LayerNorms (4H), QKV with biases
// (3H²+3H), the output projection (H²+H), fc1 (HF+F) and fc2 (FH+H).
func (t ImageTower) Params(hidden int64) (sharded, replicated int64) {
	h, f, l := int64(t.Hidden), int64(t.FFN), int64(t.Layers)
	p := int64(t.Patch)
	sharded = l*(3*h*h+3*h+h*h+h*f+f+f*h) + t.Patches()*h
	replicated = l*(4*h+h+h) + 3*p*p*h + h + 2*h + h*hidden + h
	return sharded, replicated
}

// siglipSO400M is Gemma 3's tower (its checkpoints' vision_config, no
// pooling head).
var siglipSO400M = ImageTower{Layers: 27, Hidden: 1152, FFN: 4304, Image: 896, Patch: 14, Tokens: 256, ItemTokens: 258}

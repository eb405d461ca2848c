package memmodel

// hfDecoder is the config.json of a Llama-like decoder: the keys every
// such family shares, with the families' extras (absent keys stay zero).
type hfDecoder struct {
	HiddenSize   int      `json:"hidden_size"`
	Layers       int      `json:"num_hidden_layers"`
	Heads        int      `json:"num_attention_heads"`
	KVHeads      int      `json:"num_key_value_heads"`
	HeadDim      int      `json:"head_dim"`
	Intermediate int      `json:"intermediate_size"`
	Vocab        int      `json:"vocab_size"`
	MaxPos       int      `json:"max_position_embeddings"`
	Tie          *bool    `json:"tie_word_embeddings"`
	AttnBias     *bool    `json:"attention_bias"`
	QKVBias      *bool    `json:"qkv_bias"`
	HiddenAct    string   `json:"hidden_act"`
	HiddenAct2   string   `json:"hidden_activation"`
	FinalSoftcap float64  `json:"final_logit_softcapping"`
	AttnSoftcap  float64  `json:"attn_logit_softcapping"`
	RotaryFactor *float64 `json:"partial_rotary_factor"`
	RopeParams   *hfRope  `json:"rope_parameters"`
	EmbedMult    float64  `json:"embedding_multiplier"`
	ResidMult    float64  `json:"residual_multiplier"`
	LogitsScale  float64  `json:"logits_scaling"`
	// MoE keys (Mixtral names, then Qwen-MoE names)
	LocalExperts  int   `json:"num_local_experts"`
	Experts       int   `json:"num_experts"`
	TopK          int   `json:"num_experts_per_tok"`
	MoEFFN        int   `json:"moe_intermediate_size"`
	SharedFFN     int   `json:"shared_expert_intermediate_size"`
	SparseStep    int   `json:"decoder_sparse_step"`
	MLPOnlyLayers []int `json:"mlp_only_layers"`
	RouterLogits  bool  `json:"output_router_logits"`
	// sliding-window layers (Gemma 2/3)
	LayerTypes []string `json:"layer_types"`
}

// decoderFromHF parses the shared keys of a decoder config.json into an
// Arch of family fam (tied embeddings default to tie), returning the raw
// keys for the family's quirks.
func decoderFromHF(fam, modelType string, data []byte, tie bool) (Arch, hfDecoder, error) {
	var h hfDecoder
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, h, err
	}
	if err := h.check(); err != nil {
		return Arch{}, h, err
	}
	a := Arch{Name: modelType, Family: fam, Hidden: h.HiddenSize, Layers: h.Layers, Heads: h.Heads, KVHeads: h.KVHeads,
		HeadDim: h.HeadDim, FFN: h.Intermediate, Vocab: h.Vocab, Tied: orBool(h.Tie, tie),
		AttnBias: orBool(h.AttnBias, false), MaxPos: 4096, DefaultSeq: 2048}
	if h.MaxPos > 0 {
		a.MaxPos = h.MaxPos
	}
	return a, h, nil
}

// check fails on a required key missing or not positive, or an optional
// one negative.
func (h *hfDecoder) check() error {
	if err := needPositive(hfKey{"hidden_size", h.HiddenSize}, hfKey{"num_hidden_layers", h.Layers},
		hfKey{"num_attention_heads", h.Heads}, hfKey{"intermediate_size", h.Intermediate}, hfKey{"vocab_size", h.Vocab}); err != nil {
		return err
	}
	return notNegative(hfKey{"num_key_value_heads", h.KVHeads}, hfKey{"head_dim", h.HeadDim},
		hfKey{"max_position_embeddings", h.MaxPos}, hfKey{"num_local_experts", h.LocalExperts}, hfKey{"num_experts", h.Experts},
		hfKey{"num_experts_per_tok", h.TopK}, hfKey{"moe_intermediate_size", h.MoEFFN},
		hfKey{"shared_expert_intermediate_size", h.SharedFFN}, hfKey{"decoder_sparse_step", h.SparseStep})
}

// beforeRanges is the parameter order 0..n-1 with each range of moved
// placed just before the matching range of at.
func beforeRanges(n int, at, moved [][2]int) []int {
	skip := map[int]bool{}
	first := map[int][2]int{}
	for k, m := range moved {
		for i := m[0]; i < m[1]; i++ {
			skip[i] = true
		}
		first[at[k][0]] = m
	}
	order := make([]int, 0, n)
	for i := 0; i < n; i++ {
		if m, ok := first[i]; ok {
			order = appendRanges(order, m)
		}
		if !skip[i] {
			order = append(order, i)
		}
	}
	return order
}

// hfRope is the rope_parameters block transformers 5 writes, where it
// keeps partial_rotary_factor.
type hfRope struct {
	Partial *float64 `json:"partial_rotary_factor"`
}

// partialRotary is the fraction of a head the config rotates: the
// family's own key (GPT-NeoX's rotary_pct), partial_rotary_factor, or
// rope_parameters' copy of it, else def.
func (h *hfDecoder) partialRotary(def float64, own *float64) float64 {
	keys := []*float64{own, h.RotaryFactor}
	if h.RopeParams != nil {
		keys = append(keys, h.RopeParams.Partial)
	}
	for _, k := range keys {
		if k != nil {
			return *k
		}
	}
	return def
}

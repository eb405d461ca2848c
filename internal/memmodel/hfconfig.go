package memmodel

import (
	"encoding/json"
	"fmt"
)

// hfConfig holds the config.json keys vramkit reads, across model types.
type hfConfig struct {
	ModelType     string   `json:"model_type"`
	Architectures []string `json:"architectures"`
	// BERT / LLaMA names
	HiddenSize   int               `json:"hidden_size"`
	Layers       int               `json:"num_hidden_layers"`
	Heads        int               `json:"num_attention_heads"`
	KVHeads      int               `json:"num_key_value_heads"`
	HeadDim      int               `json:"head_dim"`
	Intermediate int               `json:"intermediate_size"`
	Vocab        int               `json:"vocab_size"`
	MaxPos       int               `json:"max_position_embeddings"`
	TypeVocab    int               `json:"type_vocab_size"`
	HiddenDrop   *float64          `json:"hidden_dropout_prob"`
	NumLabels    int               `json:"num_labels"`
	ID2Label     map[string]string `json:"id2label"`
	Tie          *bool             `json:"tie_word_embeddings"`
	AttnBias     *bool             `json:"attention_bias"`
	// GPT-2 names
	NEmbd      int      `json:"n_embd"`
	NLayer     int      `json:"n_layer"`
	NHead      int      `json:"n_head"`
	NInner     *int     `json:"n_inner"`
	NPositions int      `json:"n_positions"`
	ResidDrop  *float64 `json:"resid_pdrop"`
	// T5 names
	DModel     int      `json:"d_model"`
	DFF        int      `json:"d_ff"`
	DKV        int      `json:"d_kv"`
	NumHeads   int      `json:"num_heads"`
	NumLayers  int      `json:"num_layers"`
	DecLayers  int      `json:"num_decoder_layers"`
	DropRate   *float64 `json:"dropout_rate"`
	FFProj     string   `json:"feed_forward_proj"`
	RelBuckets int      `json:"relative_attention_num_buckets"`
}

// ParseHFConfig turns a Hugging Face config.json (BERT, GPT-2,
// LLaMA/Mistral/Qwen2, T5) into an Arch.
func ParseHFConfig(data []byte) (Arch, error) {
	var h hfConfig
	if err := json.Unmarshal(data, &h); err != nil {
		return Arch{}, fmt.Errorf("config.json: %w", err)
	}
	f64 := func(p *float64, d float64) float64 {
		if p != nil {
			return *p
		}
		return d
	}
	boolOr := func(p *bool, d bool) bool {
		if p != nil {
			return *p
		}
		return d
	}
	need := func(name string, v int) error {
		if v <= 0 {
			return fmt.Errorf("config.json: %s missing or not positive", name)
		}
		return nil
	}
	var a Arch
	switch h.ModelType {
	case "bert", "roberta":
		a = Arch{Name: h.ModelType, Family: "bert", Hidden: h.HiddenSize, Layers: h.Layers, Heads: h.Heads,
			FFN: h.Intermediate, Vocab: h.Vocab, MaxPos: h.MaxPos, TypeVocab: h.TypeVocab,
			Dropout: f64(h.HiddenDrop, 0.1), Labels: max(h.NumLabels, len(h.ID2Label), 2), DefaultSeq: 512}
		for _, kv := range [][2]any{{"hidden_size", h.HiddenSize}, {"num_hidden_layers", h.Layers},
			{"num_attention_heads", h.Heads}, {"intermediate_size", h.Intermediate}, {"vocab_size", h.Vocab}} {
			if err := need(kv[0].(string), kv[1].(int)); err != nil {
				return Arch{}, err
			}
		}
		if a.MaxPos == 0 {
			a.MaxPos = 512
		}
	case "gpt2":
		a = gpt2("gpt2", h.NEmbd, h.NLayer, h.NHead)
		if h.NInner != nil && *h.NInner > 0 {
			a.FFN = *h.NInner
		}
		if h.Vocab > 0 {
			a.Vocab = h.Vocab
		}
		if h.NPositions > 0 {
			a.MaxPos, a.DefaultSeq = h.NPositions, h.NPositions
		}
		a.Dropout = f64(h.ResidDrop, 0.1)
		a.Tied = boolOr(h.Tie, true)
		for _, kv := range [][2]any{{"n_embd", h.NEmbd}, {"n_layer", h.NLayer}, {"n_head", h.NHead}} {
			if err := need(kv[0].(string), kv[1].(int)); err != nil {
				return Arch{}, err
			}
		}
	case "llama", "mistral", "qwen2", "qwen3":
		bias := h.ModelType == "qwen2"
		a = llama(h.ModelType, h.HiddenSize, h.Layers, h.Heads, h.KVHeads, h.Intermediate, h.Vocab,
			boolOr(h.Tie, false), boolOr(h.AttnBias, bias))
		a.HeadDim = h.HeadDim
		if h.MaxPos > 0 {
			a.MaxPos = h.MaxPos
		}
		for _, kv := range [][2]any{{"hidden_size", h.HiddenSize}, {"num_hidden_layers", h.Layers},
			{"num_attention_heads", h.Heads}, {"intermediate_size", h.Intermediate}, {"vocab_size", h.Vocab}} {
			if err := need(kv[0].(string), kv[1].(int)); err != nil {
				return Arch{}, err
			}
		}
	case "t5":
		a = t5("t5", h.DModel, h.DFF, h.NumHeads, h.NumLayers)
		if h.DKV > 0 {
			a.HeadDim = h.DKV
		}
		if h.DecLayers > 0 {
			a.DecLayers = h.DecLayers
		}
		if h.Vocab > 0 {
			a.Vocab = h.Vocab
		}
		if h.RelBuckets > 0 {
			a.RelBuckets = h.RelBuckets
		}
		a.Dropout = f64(h.DropRate, 0.1)
		a.GatedFFN = h.FFProj == "gated-gelu"
		a.Tied = boolOr(h.Tie, !a.GatedFFN)
		for _, kv := range [][2]any{{"d_model", h.DModel}, {"d_ff", h.DFF}, {"num_heads", h.NumHeads}, {"num_layers", h.NumLayers}} {
			if err := need(kv[0].(string), kv[1].(int)); err != nil {
				return Arch{}, err
			}
		}
	case "":
		return Arch{}, fmt.Errorf("config.json: model_type missing")
	default:
		return Arch{}, fmt.Errorf("config.json: model_type %q is not supported (bert, gpt2, llama, mistral, qwen2, t5)", h.ModelType)
	}
	if a.Heads > 0 && a.HeadDim == 0 && a.Hidden%a.Heads != 0 {
		return Arch{}, fmt.Errorf("config.json: hidden size %d is not divisible by %d heads", a.Hidden, a.Heads)
	}
	return a, nil
}

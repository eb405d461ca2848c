package memmodel

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/vramkit/vramkit/internal/units"
)

// Helpers the families' FromHF parsers share. Each family declares the
// config.json keys it reads next to its builder (family_*.go).

// decodeHF reads the keys v declares from a config.json.
func decodeHF(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return hfJSONErr(err)
	}
	return nil
}

// hfJSONErr says what is wrong with a config.json in its own terms: the
// key whose value has the wrong type (not the Go struct that reads it),
// or that the file is not one JSON object.
func hfJSONErr(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return fmt.Errorf("config.json: %w", err)
	}
	if te.Field == "" {
		return fmt.Errorf("config.json: a JSON %s, not an object of keys as a Hugging Face config.json is", te.Value)
	}
	// the keys every decoder shares are read through an embedded struct,
	// whose Go name json puts before the key
	key := strings.TrimPrefix(te.Field, "hfDecoder.")
	return fmt.Errorf("config.json: %s: a JSON %s where %s belongs", key, te.Value, jsonKind(te.Type))
}

// jsonKind names the JSON value a Go type reads.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "an object"
}

// hfKey is a required config.json integer and its value.
type hfKey struct {
	name  string
	value int
}

// needPositive fails on the first key that is missing or not positive.
func needPositive(keys ...hfKey) error {
	for _, k := range keys {
		if k.value <= 0 {
			return fmt.Errorf("config.json: %s missing or not positive", k.name)
		}
	}
	return nil
}

// notNegative fails on the first optional key given a negative value (a
// key left out reads as 0 and takes the family's default; a negative
// one would be ignored or counted as a negative size).
func notNegative(keys ...hfKey) error {
	for _, k := range keys {
		if k.value < 0 {
			return fmt.Errorf("config.json: %s is %d; a size cannot be negative", k.name, k.value)
		}
	}
	return nil
}

// checkHFArch refuses what a family's parser read from a config.json
// when transformers could not build the model it describes, or when its
// sizes are past what vramkit computes in (which would wrap the 64-bit
// parameter and byte counts into figures that look like answers).
func checkHFArch(a *Arch) error {
	if a.Heads > 0 && a.HeadDim == 0 && a.Hidden%a.Heads != 0 {
		return fmt.Errorf("config.json: hidden size %d is not divisible by %d heads", a.Hidden, a.Heads)
	}
	if a.Heads > 0 && a.KVHeads > 0 && a.Heads%a.KVHeads != 0 {
		return fmt.Errorf("config.json: num_attention_heads %d is not a multiple of num_key_value_heads %d (each key/value head serves a whole group of query heads)",
			a.Heads, a.KVHeads)
	}
	if m := a.MoE; m.Experts > 0 && m.TopK > m.Experts {
		return fmt.Errorf("config.json: each token is routed to %d experts, more than the %d the model has", m.TopK, m.Experts)
	}
	if n := len(a.Decoder.LayerTypes); n > 0 && n != a.Layers {
		return fmt.Errorf("config.json: layer_types lists %d layers, num_hidden_layers is %d", n, a.Layers)
	}
	if a.Decoder.SlidingWindow < 0 {
		return fmt.Errorf("config.json: sliding_window is %d; a window cannot be negative", a.Decoder.SlidingWindow)
	}
	if n := a.Layers + a.DecLayers; n > MaxLayers {
		return fmt.Errorf("config.json: %d layers, more than the %d vramkit plans (every layer is replayed through the allocator)", n, MaxLayers)
	}
	// weights, gradients and Adam's two moments in float32
	if b := hfParamBound(a) * 16; b > MaxStepBytes {
		return fmt.Errorf("config.json: too large to plan: its parameters alone could take up to %s under Adam, past the %s vramkit computes in",
			scaleBytes(b), units.Bytes(MaxStepBytes))
	}
	return nil
}

// hfParamBound is an upper bound, in float64 so that it cannot wrap, on
// the parameter elements of a model read from a config.json: each layer's
// matrices counted as a square of everything its rows and columns could
// span (hidden size, all heads, the MLP or every expert's), plus the
// embeddings, positions and head.
func hfParamBound(a *Arch) float64 {
	d := float64(a.Hidden)
	hd := float64(a.HeadDim)
	if hd <= 0 && a.Heads > 0 {
		hd = d / float64(a.Heads)
	}
	attn := float64(max(a.Heads, 0)+2*max(a.KVHeads, a.Heads, 0)) * hd
	mlp := float64(a.FFN)*float64(max(a.MoE.Experts, 1)) + float64(a.MoE.FFN)*float64(a.MoE.Experts) + float64(a.MoE.SharedFFN)
	span := d + attn + mlp
	layers := float64(a.Layers + a.DecLayers)
	return layers*span*span + float64(a.Vocab+a.MaxPos+a.TypeVocab+a.Labels+a.Classes)*d*2
}

func orF64(p *float64, d float64) float64 {
	if p != nil {
		return *p
	}
	return d
}

func orBool(p *bool, d bool) bool {
	if p != nil {
		return *p
	}
	return d
}

// HFQuant is a config.json's quantization_config as planning reads it:
// the checkpoint's own weight format.
type HFQuant struct {
	// Present: the config has the key; Method is its quant_method ("" if
	// it names none)
	Present bool
	Method  string
	// Bits per weight: bits, AutoAWQ's w_bit, or bitsandbytes'
	// load_in_4bit / load_in_8bit; 0 when the config does not say
	Bits int
}

// ReadHFQuant reads quantization_config from a config.json (the zero
// HFQuant when there is none, or the file does not parse: the family's
// parser reports that).
func ReadHFQuant(data []byte) HFQuant {
	var h struct {
		Q *struct {
			Method string `json:"quant_method"`
			Bits   int    `json:"bits"`
			WBits  int    `json:"w_bit"`
			Load4  bool   `json:"load_in_4bit"`
			Load8  bool   `json:"load_in_8bit"`
		} `json:"quantization_config"`
	}
	if json.Unmarshal(data, &h) != nil || h.Q == nil {
		return HFQuant{}
	}
	q := HFQuant{Present: true, Method: h.Q.Method, Bits: h.Q.Bits}
	switch {
	case q.Bits == 0 && h.Q.WBits > 0:
		q.Bits = h.Q.WBits
	case q.Bits == 0 && h.Q.Load4:
		q.Bits = 4
	case q.Bits == 0 && h.Q.Load8:
		q.Bits = 8
	}
	return q
}

// Native reports whether q is the format family's own builders model
// (Family.CheckpointQuant: gpt-oss's MXFP4 experts).
func (q HFQuant) Native(family string) bool {
	f, err := LookupFamily(family)
	return err == nil && q.Method != "" && f.CheckpointQuant == q.Method
}

// hfQuantNote says that a training plan did not read the config.json's
// quantization_config (a GPTQ, AWQ or FP8 checkpoint): it plans the
// unquantised model in the spec's precision, which over-states the
// frozen weights of a LoRA run on such a base. "" when there is nothing
// to say: no such key, the family's own format, or a bitsandbytes
// checkpoint planned with --quant.
func (c *config) hfQuantNote() string {
	q := ReadHFQuant(c.spec.HFConfig)
	if !q.Present || q.Native(c.arch.Family) || (q.Method == "bitsandbytes" && c.spec.Quant != "") {
		return ""
	}
	m := q.Method
	if m == "" {
		m = "without quant_method"
	}
	return fmt.Sprintf("config.json's quantization_config (%s) is not read by a training plan: the weights are the unquantised model's under precision %s; a 4-bit base under LoRA is planned with --quant nf4", m, c.spec.Precision)
}

// hfGelu is the activation a config's hidden_act names, as
// DecoderQuirks.Act spells it ("" for SiLU); def when it names none.
func hfGelu(act, def string) string {
	switch act {
	case "":
		return def
	case "gelu", "gelu_new":
		return act
	case "gelu_pytorch_tanh":
		return "gelu_tanh"
	case "gelu_fast", "gelu_python":
		// tanh or erf written as Python ops, as NewGELUActivation is
		return "gelu_new"
	case "silu", "swish":
		return ""
	}
	return def
}

// hfEncDec is the encoder-decoder config.json keys BART and Whisper share
// (Whisper's configuration descends from BART's).
type hfEncDec struct {
	DModel    int      `json:"d_model"`
	EncLayers int      `json:"encoder_layers"`
	DecLayers int      `json:"decoder_layers"`
	EncHeads  int      `json:"encoder_attention_heads"`
	DecHeads  int      `json:"decoder_attention_heads"`
	EncFFN    int      `json:"encoder_ffn_dim"`
	DecFFN    int      `json:"decoder_ffn_dim"`
	Vocab     int      `json:"vocab_size"`
	Dropout   *float64 `json:"dropout"`
}

// check fails on a required key missing or not positive, and on a decoder
// whose heads or FFN differ from the encoder's: both families are modelled
// with one shape for the two stacks (every released BART and Whisper).
func (h *hfEncDec) check() error {
	if err := needPositive(hfKey{"d_model", h.DModel}, hfKey{"encoder_layers", h.EncLayers}, hfKey{"decoder_layers", h.DecLayers},
		hfKey{"encoder_attention_heads", h.EncHeads}, hfKey{"encoder_ffn_dim", h.EncFFN}); err != nil {
		return err
	}
	if err := notNegative(hfKey{"decoder_attention_heads", h.DecHeads}, hfKey{"decoder_ffn_dim", h.DecFFN},
		hfKey{"vocab_size", h.Vocab}); err != nil {
		return err
	}
	if (h.DecHeads != 0 && h.DecHeads != h.EncHeads) || (h.DecFFN != 0 && h.DecFFN != h.EncFFN) {
		return fmt.Errorf("config.json: decoder heads/ffn (%d/%d) differ from the encoder's (%d/%d): not supported; use equal sizes (every released model has them)",
			h.DecHeads, h.DecFFN, h.EncHeads, h.EncFFN)
	}
	return nil
}

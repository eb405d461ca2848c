package memmodel_test

import (
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// debertaV3Base are microsoft/deberta-v3-base's config.json keys (its
// pos_att_type the "|"-separated string the Hub's copy has; transformers 5
// saves a list, as dev92's rows show).
const debertaV3Base = `{"model_type": "deberta-v2", "attention_probs_dropout_prob": 0.1, "hidden_act": "gelu",
	"hidden_dropout_prob": 0.1, "hidden_size": 768, "initializer_range": 0.02, "intermediate_size": 3072,
	"max_position_embeddings": 512, "relative_attention": true, "position_buckets": 256, "norm_rel_ebd": "layer_norm",
	"share_att_key": true, "pos_att_type": "p2c|c2p", "layer_norm_eps": 1e-7, "max_relative_positions": -1,
	"position_biased_input": false, "num_attention_heads": 12, "num_hidden_layers": 12, "type_vocab_size": 0,
	"vocab_size": 128100}`

// TestHFConfigDeberta: DeBERTa-v2/v3 config.json files plan (model_type
// deberta-v2 was refused, pointing at BERT, before this family): the
// relative attention's keys in either spelling, the ConvLayer of
// deberta-v2-xlarge, the head of the class the config names, and one-line
// errors for what transformers could not build.
func TestHFConfigDeberta(t *testing.T) {
	a, err := memmodel.ParseHFConfig([]byte(debertaV3Base))
	d := a.Deberta
	if err != nil || a.Family != "deberta-v2" || d.Span != 256 || d.Buckets != 256 || !d.C2P || !d.P2C || !d.NormRel ||
		d.AbsPositions || d.OwnPosProj || d.ConvKernel != 0 || a.Labels != 2 {
		t.Fatalf("got %+v, %v; want deberta-v2 with 256 buckets, c2p and p2c, normalised shared relative embeddings", a, err)
	}
	// DebertaV2ForSequenceClassification with two labels, as dev92's
	// deberta-v3-base rows count it
	if r, err := planHF([]byte(debertaV3Base)); err != nil || r.Params != 184_423_682 {
		t.Errorf("got %v, %v; want 184,423,682 params", r, err)
	}
	set := func(kv string) []byte { return []byte(strings.TrimSuffix(debertaV3Base, "}") + ", " + kv + "}") }
	// deberta-v2-xlarge: 1536 wide, 64-wide heads, the ConvLayer
	a, err = memmodel.ParseHFConfig(set(`"conv_kernel_size": 3, "conv_act": "gelu", "attention_head_size": 64,
		"architectures": ["DebertaV2ForTokenClassification"], "num_labels": 9`))
	if err != nil || a.Deberta.ConvKernel != 3 || a.Deberta.ConvAct != "gelu" || a.HeadDim != 64 ||
		a.Head != "token-classification" || a.Labels != 9 {
		t.Errorf("got %+v, %v; want the ConvLayer, 64-wide heads and the token-classification head", a, err)
	}
	a, err = memmodel.ParseHFConfig(set(`"share_att_key": false, "pos_att_type": ["c2p"], "position_buckets": -1`))
	if d := a.Deberta; err != nil || !d.OwnPosProj || !d.C2P || d.P2C || d.Span != 512 || d.Buckets != 0 {
		t.Errorf("got %+v, %v; want own c2p projections over 512 unbucketed positions", a.Deberta, err)
	}
	for kv, want := range map[string]string{
		`"pos_att_type": ["c2q"]`:                 `pos_att_type "c2q"`,
		`"pos_att_type": 3`:                       "pos_att_type: want a list",
		`"pooler_hidden_size": 1024`:              "pooler_hidden_size 1024 differs from hidden_size 768",
		`"conv_kernel_size": 3, "conv_groups": 4`: "conv_groups 4",
		`"hidden_act": "mish"`:                    `hidden_act "mish"`,
		`"intermediate_size": 0`:                  "intermediate_size missing or not positive",
		`"type_vocab_size": -1`:                   "type_vocab_size is -1",
	} {
		_, err := memmodel.ParseHFConfig(set(kv))
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want one line with %q", kv, err, want)
		}
	}
}

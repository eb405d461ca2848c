package memmodel_test

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// dev96Config is the config.json (hf_config) of dev96's first row of
// family dir, with keys set (nil deletes one).
func dev96Config(t *testing.T, dir string, set map[string]any) []byte {
	t.Helper()
	return capturedConfig(t, "../../testdata/dev96/"+dir+"/families/results.jsonl", set)
}

// dev100Config is dev96Config for dev100's family dir.
func dev100Config(t *testing.T, dir string, set map[string]any) []byte {
	t.Helper()
	return capturedConfig(t, "../../testdata/dev100/"+dir+"/families/results.jsonl", set)
}

// capturedConfig is the config.json (hf_config) of the first row of the
// results file path, with keys set (nil deletes one).
func capturedConfig(t *testing.T, path string, set map[string]any) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	if !sc.Scan() {
		t.Fatalf("%s: no rows", path)
	}
	var row struct {
		HF map[string]any `json:"hf_config"`
	}
	if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
		t.Fatal(err)
	}
	for k, v := range set {
		if v == nil {
			delete(row.HF, k)
		} else {
			row.HF[k] = v
		}
	}
	out, _ := json.Marshal(row.HF)
	return out
}

// TestHFConfigBARTRelatives plans Marian's and mBART's config.json with
// the layout keys transformers 3's BartConfig wrote, which the released
// opus-mt and mbart-large files still carry (no class reads them now),
// and refuses a key that says the model runs another layout, an
// activation the builders do not model, or Marian's separate decoder
// embedding.
func TestHFConfigBARTRelatives(t *testing.T) {
	marianKeys := map[string]any{"normalize_before": false, "add_final_layer_norm": false,
		"normalize_embedding": false, "static_position_embeddings": true, "add_bias_logits": false}
	mbartKeys := map[string]any{"normalize_before": true, "add_final_layer_norm": true,
		"normalize_embedding": true, "static_position_embeddings": false}
	for dir, tc := range map[string]struct {
		set    map[string]any
		params int64
	}{
		"marian": {marianKeys, 74_410_496},
		"mbart":  {mbartKeys, 77_961_216}, // the 512-wide 6+6-layer row's config
	} {
		r, err := planHF(dev96Config(t, dir, tc.set))
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if r.Params != tc.params {
			t.Errorf("%s: %d params, PyTorch counted %d", dir, r.Params, tc.params)
		}
	}
	for _, tc := range []struct {
		dir  string
		set  map[string]any
		want string
	}{
		{"marian", map[string]any{"normalize_before": true}, "normalize_before true"},
		{"marian", map[string]any{"static_position_embeddings": false}, "static_position_embeddings false"},
		{"marian", map[string]any{"share_encoder_decoder_embeddings": false, "decoder_vocab_size": 60000}, "share_encoder_decoder_embeddings false"},
		{"marian", map[string]any{"activation_function": "tanh"}, "activation_function \"tanh\""},
		{"mbart", map[string]any{"add_final_layer_norm": false}, "add_final_layer_norm false"},
		{"mbart", map[string]any{"normalize_embedding": false}, "normalize_embedding false"},
		{"mbart", map[string]any{"encoder_attention_heads": 7, "decoder_attention_heads": 7}, "not a multiple of encoder_attention_heads 7"},
	} {
		_, err := memmodel.ParseHFConfig(dev96Config(t, tc.dir, tc.set))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s %v: got %v, want one line with %q", tc.dir, tc.set, err, tc.want)
		}
	}
}

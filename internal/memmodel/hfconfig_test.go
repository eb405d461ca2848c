package memmodel_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// readHF is a real config.json from testdata/hfconfigs, with keys set
// (nil deletes one) to break it the way a hand-edited file could be.
func readHF(t *testing.T, name string, set map[string]any) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "hfconfigs", name))
	if err != nil {
		t.Fatal(err)
	}
	if set == nil {
		return data
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range set {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	out, _ := json.Marshal(m)
	return out
}

func planHF(data []byte) (*memmodel.Result, error) {
	s := memmodel.Spec{HFConfig: data, Batch: 1, Seq: 16, Precision: "bf16", Checkpoint: "none", Accum: 1,
		Optimizer: "sgd", Parallel: memmodel.Parallel{Strategy: "none", GPUs: 1, TP: 1, PP: 1, MicroBatches: 1}, GPU: "h200"}
	return memmodel.Estimate(s, memmodel.Options{Steps: 1, SkipReserved: true})
}

// TestHFRealConfigParams plans real config.json files (transformers 4 and
// 5 serialisations) and checks the parameter count against the
// checkpoint's own (the safetensors total, or num_parameters() on the
// model card).
func TestHFRealConfigParams(t *testing.T) {
	for name, want := range map[string]int64{
		"llama-3-8b-instruct.json": 8_030_261_248,
		"mixtral-8x7b.json":        46_702_792_704,
		"qwen3-14b.json":           14_768_307_200,
		"t5-small.json":            60_506_624,
		// the class the config names, XLMRobertaForMaskedLM:
		// XLMRobertaModel's 278,043,648 less its pooler (590,592), plus
		// the LM head's transform (590,592 + 1,536) and bias (250,002);
		// its decoder is the tied word embedding
		"xlm-roberta-base.json": 278_295_186,
	} {
		r, err := planHF(readHF(t, name, nil))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.Params != want {
			t.Errorf("%s: %d params, the checkpoint has %d", name, r.Params, want)
		}
	}
	// the same config saved from XLMRobertaForSequenceClassification:
	// the pooler-sized classification head (590,592 + 1,538)
	r, err := planHF(readHF(t, "xlm-roberta-base.json", map[string]any{"architectures": []string{"XLMRobertaForSequenceClassification"}}))
	if err != nil || r.Params != 278_045_186 {
		t.Errorf("xlm-roberta-base as sequence classification: %v, %d params, want 278045186", err, r.Params)
	}
	// gpt-oss-20b's safetensors hold 20,914,757,184; the graph leaves out
	// the experts' and router's biases, o_proj's bias and the attention
	// sinks (6.7M, 0.03%)
	r, err = planHF(readHF(t, "gpt-oss-20b.json", nil))
	if err != nil {
		t.Fatal(err)
	}
	if d := float64(r.Params)/20_914_757_184 - 1; d < -0.001 || d > 0.001 {
		t.Errorf("gpt-oss-20b: %d params, %.2f%% from the checkpoint's 20,914,757,184", r.Params, 100*d)
	}
}

// TestHFConfigRefusesBroken: a config.json transformers could not build,
// or whose sizes would wrap vramkit's 64-bit counts, is refused with one
// line naming the key, instead of planned with a key ignored, a negative
// size counted or a wrapped (even negative) parameter count printed.
func TestHFConfigRefusesBroken(t *testing.T) {
	for _, tc := range []struct {
		file string
		set  map[string]any
		want string
	}{
		// were planned: 7.93B params for heads that cannot be grouped
		{"llama-3-8b-instruct.json", map[string]any{"num_key_value_heads": 5}, "not a multiple of num_key_value_heads 5"},
		{"llama-3-8b-instruct.json", map[string]any{"num_key_value_heads": 64}, "not a multiple of num_key_value_heads 64"},
		// were planned, training and serving counting different models
		{"llama-3-8b-instruct.json", map[string]any{"num_key_value_heads": -8}, "num_key_value_heads is -8"},
		{"llama-3-8b-instruct.json", map[string]any{"head_dim": -128}, "head_dim is -128"},
		{"llama-3-8b-instruct.json", map[string]any{"max_position_embeddings": -1}, "max_position_embeddings is -1"},
		// were planned with -7.96e18 and -4.09e18 params (int64 wrapped)
		{"llama-3-8b-instruct.json", map[string]any{"head_dim": 1e12}, "too large to plan"},
		{"llama-3-8b-instruct.json", map[string]any{"hidden_size": 1e12}, "too large to plan"},
		{"llama-3-8b-instruct.json", map[string]any{"intermediate_size": 1e12}, "too large to plan"},
		{"gpt2-medium-vocab32000.json", map[string]any{"n_embd": 1e12}, "too large to plan"},
		// Go's struct, not the key, used to be named
		{"llama-3-8b-instruct.json", map[string]any{"num_hidden_layers": "32"}, "num_hidden_layers: a JSON string where an integer belongs"},
		{"llama-3-8b-instruct.json", map[string]any{"hidden_size": 4096.5}, "hidden_size: a JSON number 4096.5 where an integer belongs"},
		{"llama-3-8b-instruct.json", map[string]any{"model_type": 7}, "model_type: a JSON number where a string belongs"},
		// were planned with the key ignored (the family's default used)
		{"gpt2-medium-vocab32000.json", map[string]any{"vocab_size": -5}, "vocab_size is -5"},
		{"gpt2-medium-vocab32000.json", map[string]any{"n_positions": -5}, "n_positions is -5"},
		{"t5-small.json", map[string]any{"d_kv": -64}, "d_kv is -64"},
		{"t5-small.json", map[string]any{"num_decoder_layers": -6}, "num_decoder_layers is -6"},
		// was planned with a negative position table (124.25M params)
		{"bert-6layer.json", map[string]any{"max_position_embeddings": -5}, "max_position_embeddings is -5"},
		{"gpt-oss-20b.json", map[string]any{"num_experts_per_tok": 64}, "routed to 64 experts, more than the 32"},
		{"gpt-oss-20b.json", map[string]any{"layer_types": []string{"sliding_attention"}}, "layer_types lists 1"},
		{"gpt-oss-20b.json", map[string]any{"sliding_window": -5}, "sliding_window is -5"},
	} {
		_, err := memmodel.ParseHFConfig(readHF(t, tc.file, tc.set))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") ||
			strings.Contains(err.Error(), "Go ") {
			t.Errorf("%s %v: got %v, want one line with %q", tc.file, tc.set, err, tc.want)
		}
	}
	for _, doc := range []string{`[1, 2]`, `"llama"`} {
		if _, err := memmodel.ParseHFConfig([]byte(doc)); err == nil || !strings.Contains(err.Error(), "not an object") {
			t.Errorf("%s: got %v, want it called not an object", doc, err)
		}
	}
}

// TestHFConfigViT: a real ViTForImageClassification config.json (the
// ViT-B/16 fine-tune in testdata, two labels in its id2label) plans
// transformers' ViT (family hf-vit); it was refused pointing at torchvision's ViT before
// session 45.
func TestHFConfigViT(t *testing.T) {
	a, err := memmodel.ParseHFConfig(readHF(t, "vit-base-patch16-224.json", nil))
	if err != nil || a.Family != "hf-vit" || a.Hidden != 768 || a.Layers != 12 || a.Classes != 2 || a.ImageSize != 224 || a.Patch != 16 {
		t.Errorf("got %+v, %v; want hf-vit 768×12, 2 classes, 224 pixels, patch 16", a, err)
	}
	// DINOv2 (facebook/dinov2-base's keys) plans since session 45: its
	// position table is its pre-training grid's, 37×37+1
	a, err = memmodel.ParseHFConfig([]byte(`{"model_type": "dinov2", "hidden_size": 768, "num_hidden_layers": 12,
		"num_attention_heads": 12, "mlp_ratio": 4, "image_size": 518, "patch_size": 14, "num_channels": 3}`))
	if err != nil || a.Family != "dinov2" || a.FFN != 3072 || a.MaxPos != 1370 || a.Patch != 14 || !a.LayerScale {
		t.Errorf("got %+v, %v; want dinov2 with FFN 3072, 1370 positions, patch 14, layer scale", a, err)
	}
}

// TestHFQuantConfigNoted: a training plan from a quantised checkpoint's
// config.json plans the unquantised weights and says so, naming the
// method; gpt-oss's MXFP4, which its builder models, draws no note.
func TestHFQuantConfigNoted(t *testing.T) {
	awq := map[string]any{"quant_method": "awq", "bits": 4, "group_size": 128, "version": "gemm", "zero_point": true}
	r, err := planHF(readHF(t, "llama-3-8b-instruct.json", map[string]any{"quantization_config": awq}))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Join(r.Notes, "\n"); !strings.Contains(n, "quantization_config (awq)") {
		t.Errorf("no note names the checkpoint's awq format: %q", n)
	}
	// gpt-oss-20b's checkpoint names its experts' format (the copy in
	// testdata leaves the key out)
	mxfp4 := map[string]any{"quantization_config": map[string]any{"quant_method": "mxfp4"}}
	for name, set := range map[string]map[string]any{"llama-3-8b-instruct.json": nil, "gpt-oss-20b.json": mxfp4} {
		r, err := planHF(readHF(t, name, set))
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Join(r.Notes, "\n"); strings.Contains(n, "quantization_config") {
			t.Errorf("%s: a note about quantization_config: %q", name, n)
		}
	}
}

// TestHFHeadMismatchNoted: a config.json saved from a class whose head the
// plan does not price (LlamaForTokenClassification, XLMRobertaForCausalLM)
// is planned with the family's head and says so; the classes the plan
// does price (LlamaForCausalLM, a reward model's
// LlamaForSequenceClassification, XLMRobertaForMaskedLM, an NER model's
// XLMRobertaForTokenClassification and a SQuAD model's
// ...ForQuestionAnswering since session 44) get no such note and plan
// that head.
func TestHFHeadMismatchNoted(t *testing.T) {
	for _, tc := range []struct {
		file, class, head string
		note              bool
	}{
		{"llama-3-8b-instruct.json", "LlamaForTokenClassification", "causal-lm", true},
		{"llama-3-8b-instruct.json", "LlamaForCausalLM", "causal-lm", false},
		{"llama-3-8b-instruct.json", "LlamaForSequenceClassification", "sequence-classification", false},
		{"xlm-roberta-base.json", "XLMRobertaForCausalLM", "sequence-classification", true},
		{"xlm-roberta-base.json", "XLMRobertaForTokenClassification", "token-classification", false},
		{"xlm-roberta-base.json", "XLMRobertaForQuestionAnswering", "question-answering", false},
		{"xlm-roberta-base.json", "XLMRobertaForMaskedLM", "masked-lm", false},
	} {
		r, err := planHF(readHF(t, tc.file, map[string]any{"architectures": []string{tc.class}}))
		if err != nil {
			t.Fatalf("%s as %s: %v", tc.file, tc.class, err)
		}
		got := strings.Contains(strings.Join(r.Notes, "\n"), "config.json names "+tc.class)
		if got != tc.note || r.Head != tc.head {
			t.Errorf("%s as %s: head %s, note %v; want %s, %v (notes %q)", tc.file, tc.class, r.Head, got, tc.head, tc.note, r.Notes)
		}
	}
}

// TestHFConfigSwin: SwinConfig's keys (microsoft/swin-base-patch4-window12-384's
// sizes) plan the swin family, missing keys taking transformers' defaults
// (swin-tiny's), and what it does not model is refused in one line. Swin
// was refused, pointing at the catalog's vision models, until session 46.
func TestHFConfigSwin(t *testing.T) {
	a, err := memmodel.ParseHFConfig([]byte(`{"model_type": "swin", "embed_dim": 128, "depths": [2, 2, 18, 2],
		"num_heads": [4, 8, 16, 32], "window_size": 12, "image_size": 384, "patch_size": 4, "num_channels": 3,
		"mlp_ratio": 4.0, "qkv_bias": true, "drop_path_rate": 0.1, "num_labels": 1000}`))
	if err != nil || a.Family != "swin" || a.Window != 12 || a.ImageSize != 384 || a.Heads != 4 || a.FFN != 512 ||
		a.Classes != 1000 || a.Layers != 24 || fmt.Sprint(a.Widths) != "[128 256 512 1024]" {
		t.Errorf("got %+v, %v; want swin-base at 384 pixels, window 12", a, err)
	}
	a, err = memmodel.ParseHFConfig([]byte(`{"model_type": "swin"}`))
	if err != nil || fmt.Sprint(a.Blocks, a.Widths) != "[2 2 6 2] [96 192 384 768]" || a.Window != 7 || a.DropPath != 0.1 {
		t.Errorf("got %+v, %v; want swin-tiny's defaults", a, err)
	}
	for _, tc := range []struct{ doc, want string }{
		{`{"model_type": "swin", "num_heads": [3, 6, 12, 12]}`, "heads doubling"},
		{`{"model_type": "swin", "depths": [2, 2, 6]}`, "one positive depth and head count per stage"},
		{`{"model_type": "swin", "embed_dim": 100}`, "not a multiple of num_heads[0]"},
		{`{"model_type": "swin", "hidden_act": "relu"}`, "modelled with gelu"},
		{`{"model_type": "swin", "drop_path_rate": 1.5}`, "drop_path_rate 1.5"},
		{`{"model_type": "swin", "window_size": -7}`, "window_size is -7"},
		{`{"model_type": "swin", "depths": "2,2,6,2"}`, "depths: a JSON string"},
	} {
		_, err := memmodel.ParseHFConfig([]byte(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want one line with %q", tc.doc, err, tc.want)
		}
	}
}

package memmodel_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// clipConfig is a CLIPConfig config.json as transformers serialises
// openai/clip-vit-base-patch32's sizes (the keys the graph reads, beside
// some it ignores), with keys of text_config or vision_config replaced
// (nil deletes one).
func clipConfig(t *testing.T, text, vision map[string]any) []byte {
	t.Helper()
	tc := map[string]any{"model_type": "clip_text_model", "hidden_size": 512, "intermediate_size": 2048,
		"num_hidden_layers": 12, "num_attention_heads": 8, "max_position_embeddings": 77, "vocab_size": 49408,
		"hidden_act": "quick_gelu", "attention_dropout": 0.0, "layer_norm_eps": 1e-5, "eos_token_id": 2}
	vc := map[string]any{"model_type": "clip_vision_model", "hidden_size": 768, "intermediate_size": 3072,
		"num_hidden_layers": 12, "num_attention_heads": 12, "image_size": 224, "patch_size": 32, "num_channels": 3,
		"hidden_act": "quick_gelu", "attention_dropout": 0.0, "layer_norm_eps": 1e-5}
	for m, set := range map[*map[string]any]map[string]any{&tc: text, &vc: vision} {
		for k, v := range set {
			if v == nil {
				delete(*m, k)
			} else {
				(*m)[k] = v
			}
		}
	}
	cfg := map[string]any{"model_type": "clip", "architectures": []string{"CLIPModel"}, "projection_dim": 512,
		"logit_scale_init_value": 2.6592, "text_config": tc, "vision_config": vc}
	out, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestHFConfigCLIP: CLIPConfig's two towers and projection plan the
// parameters CLIPModel has (the catalog's figures), and what the graph
// does not model is refused in one line naming the key.
func TestHFConfigCLIP(t *testing.T) {
	r, err := planHF(clipConfig(t, nil, nil))
	if err != nil || r.Params != 151_277_313 {
		t.Fatalf("B/32 config: %v, %d params, want 151277313", err, paramsOrZero(r))
	}
	// patch 16 and the L/14 sizes, from the same keys
	r, err = planHF(clipConfig(t, nil, map[string]any{"patch_size": 16}))
	if err != nil || r.Params != 149_620_737 {
		t.Errorf("B/16 config: %v, %d params, want 149620737", err, paramsOrZero(r))
	}
	// keys left out take CLIPTextConfig's and CLIPVisionConfig's defaults
	// (the B/32 sizes)
	r, err = planHF(clipConfig(t, map[string]any{"hidden_size": nil, "num_attention_heads": nil},
		map[string]any{"patch_size": nil, "intermediate_size": nil}))
	if err != nil || r.Params != 151_277_313 {
		t.Errorf("defaults: %v, %d params, want 151277313", err, paramsOrZero(r))
	}
	for _, tc := range []struct {
		text, vision map[string]any
		want         string
	}{
		{map[string]any{"hidden_act": "gelu"}, nil, `text_config.hidden_act "gelu"`},
		{nil, map[string]any{"hidden_act": "gelu"}, `vision_config.hidden_act "gelu"`},
		{nil, map[string]any{"num_channels": 1}, "num_channels 1"},
		{nil, map[string]any{"num_attention_heads": 7}, "not a multiple of num_attention_heads 7"},
		{map[string]any{"vocab_size": -3}, nil, "text_config.vocab_size is -3"},
		{nil, map[string]any{"patch_size": 448}, "patch_size 448 is larger than its image_size 224"},
	} {
		_, err := memmodel.ParseHFConfig(clipConfig(t, tc.text, tc.vision))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v %v: got %v, want one line with %q", tc.text, tc.vision, err, tc.want)
		}
	}
	if _, err := memmodel.ParseHFConfig([]byte(`{"model_type": "clip", "text_config": {}}`)); err == nil ||
		!strings.Contains(err.Error(), "vision_config missing") {
		t.Errorf("no vision_config: got %v", err)
	}
}

// TestCLIPPlans: the catalog's CLIP plans its default 77 tokens at its
// own image side, LoRA adapts q_proj and v_proj of both towers (PEFT r16:
// 12·2·16·(512+512) + 12·2·16·(768+768) = 983,040 trainable), block
// checkpointing lowers the peak, and an image side (the config's is the
// only one CLIPVisionEmbeddings takes), tensor parallelism and more than
// 77 tokens are refused.
func TestCLIPPlans(t *testing.T) {
	name := "openai/clip-vit-base-patch32"
	spec := func() memmodel.Spec {
		return memmodel.Spec{Model: &name, Batch: 32, Precision: "bf16-amp", Checkpoint: "none", Accum: 1,
			Optimizer: "adamw", Parallel: memmodel.Parallel{Strategy: "none", GPUs: 1, TP: 1, PP: 1, MicroBatches: 1}, GPU: "h100"}
	}
	opts := memmodel.Options{Steps: 2, SkipReserved: true}
	full, err := memmodel.Estimate(spec(), opts)
	if err != nil {
		t.Fatal(err)
	}
	s := spec()
	s.LoRA = &memmodel.LoRA{Rank: 16, Alpha: 32}
	lora, err := memmodel.Estimate(s, opts)
	if err != nil || lora.TrainableParams != 983_040 {
		t.Fatalf("LoRA r16: %v, want 983040 trainable", err)
	}
	s = spec()
	s.Checkpoint = "block"
	ck, err := memmodel.Estimate(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	if ck.PeakAllocated >= full.PeakAllocated {
		t.Errorf("checkpointed: peak %d not below %d", ck.PeakAllocated, full.PeakAllocated)
	}
	s = spec()
	s.Image = 336
	if _, err := memmodel.Estimate(s, opts); err == nil {
		t.Error("an image side was accepted for CLIP")
	}
	s = spec()
	s.Parallel = memmodel.Parallel{Strategy: "tp", GPUs: 2, TP: 2, PP: 1, MicroBatches: 1}
	if _, err := memmodel.Estimate(s, opts); err == nil || !strings.Contains(err.Error(), "not planned for clip") {
		t.Errorf("tp 2: got %v, want refused", err)
	}
	s = spec()
	s.Seq = 78
	if _, err := memmodel.Estimate(s, opts); err == nil || !strings.Contains(err.Error(), "77 positions") {
		t.Errorf("seq 78: got %v, want refused past the 77 positions", err)
	}
}

func paramsOrZero(r *memmodel.Result) int64 {
	if r == nil {
		return 0
	}
	return r.Params
}

package memmodel

import (
	"strings"
	"testing"
)

// TestWav2Vec2Params checks the graph's parameters module by module
// against the published sizes: facebook/wav2vec2-base-960h is 94.4M
// parameters (the Hub's count) and wav2vec2-large-960h-lv60-self 315M.
// The exact figures are summed by hand from modeling_wav2vec2's modules:
// base, the feature encoder 4,200,448 (conv 1→512 k10 without bias,
// GroupNorm 2·512, four 512→512 k3 and two k2 convs), the projection
// 395,008 (LayerNorm 2·512, Linear 512→768), masked_spec_embed 768, the
// positional conv 4,719,488 (weight_v 768·48·128, weight_g 128, bias
// 768), the encoder's LayerNorm 1,536, twelve layers of 7,087,872, and
// lm_head 768·32+32 = 94,396,320; large-lv60, convs with biases and a
// LayerNorm each (4,210,176), projection 526,336, 1,024, positional conv
// 8,389,760, 2,048, 24 layers of 12,596,224 and lm_head 32,800 =
// 315,471,520. Freezing the feature encoder leaves all but its
// parameters trainable; the classification head replaces lm_head with
// the projector (768→256) and classifier (256→labels).
func TestWav2Vec2Params(t *testing.T) {
	for _, tc := range []struct {
		model, head    string
		freeze         bool
		total, trained int64
	}{
		{"facebook/wav2vec2-base-960h", "", true, 94_396_320, 94_396_320 - 4_200_448},
		{"wav2vec2-base", "", false, 94_396_320, 94_396_320},
		{"facebook/wav2vec2-large-960h-lv60-self", "", true, 315_471_520, 315_471_520 - 4_210_176},
		{"wav2vec2-base", "sequence-classification", true, 94_396_320 - 24_608 + 196_864 + 514,
			94_396_320 - 24_608 + 196_864 + 514 - 4_200_448},
	} {
		s := DefaultSpec()
		m := tc.model
		s.Model, s.Batch, s.Precision, s.Head = &m, 1, "bf16-amp", tc.head
		s.AudioSeconds, s.FreezeFeatureEncoder = 2, &tc.freeze
		r, err := Estimate(s, Options{Steps: 1, SkipReserved: true})
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		if r.Params != tc.total || r.TrainableParams != tc.trained {
			t.Errorf("%s %s freeze=%v: %d params (%d trainable), want %d (%d)", m, tc.head, tc.freeze,
				r.Params, r.TrainableParams, tc.total, tc.trained)
		}
	}
}

// TestWav2Vec2Frames: the feature encoder's frames are transformers'
// _get_feat_extract_output_lengths (a second of 16 kHz audio is 49
// frames; facebook/wav2vec2-base-960h's docstring shape for 93,680
// samples is 292), and a frozen feature encoder saves nothing, so that
// training it costs its activations over the raw audio.
func TestWav2Vec2Frames(t *testing.T) {
	a, _ := Lookup("wav2vec2-base")
	for samples, want := range map[int64]int64{16000: 49, 93680: 292, 160000: 499, 400: 1, 399: 0} {
		if got := a.Wav2Vec2.frames(samples); got != want {
			t.Errorf("%d samples: %d frames, want %d", samples, got, want)
		}
	}
	peak := func(freeze bool) int64 {
		s := DefaultSpec()
		m := "wav2vec2-base"
		s.Model, s.Batch, s.Precision, s.AudioSeconds, s.FreezeFeatureEncoder = &m, 4, "bf16-amp", 5, &freeze
		r, err := Estimate(s, Options{Steps: 2, SkipReserved: true})
		if err != nil {
			t.Fatal(err)
		}
		return r.PeakAllocated
	}
	if fr, tr := peak(true), peak(false); tr <= fr {
		t.Errorf("training the feature encoder: %d bytes, frozen %d: want more", tr, fr)
	}
}

// TestWav2Vec2Refusals: what the model does not plan is refused by name.
func TestWav2Vec2Refusals(t *testing.T) {
	base := `{"model_type": "wav2vec2", "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12, "intermediate_size": 3072, "vocab_size": 32`
	for _, tc := range []struct{ extra, want string }{
		{`, "use_weighted_layer_sum": true`, "use_weighted_layer_sum"},
		{`, "add_adapter": true`, "add_adapter"},
		{`, "adapter_attn_dim": 16`, "adapter_attn_dim"},
		{`, "feat_extract_norm": "batch"`, "feat_extract_norm"},
		{`, "conv_dim": [512, 512], "conv_kernel": [10], "conv_stride": [5, 2]`, "same conv layers"},
		{`, "mask_feature_prob": 0.1`, "mask_feature_prob"},
		{`, "hidden_act": "relu"`, "hidden_act"},
		{`, "layerdrop": 1.5`, "layerdrop"},
	} {
		if _, err := ParseHFConfig([]byte(base + tc.extra + "}")); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error naming %s", tc.extra, err, tc.want)
		}
	}
	a, err := ParseHFConfig([]byte(base + `, "feat_extract_norm": "layer", "do_stable_layer_norm": true, "conv_bias": true}`))
	if err != nil || !a.Wav2Vec2.LayerNormConv || !a.Wav2Vec2.Stable || !a.Wav2Vec2.ConvBias || len(a.Wav2Vec2.ConvDim) != 7 {
		t.Errorf("lv60 layout: %+v, %v", a.Wav2Vec2, err)
	}
	// layerdrop: Wav2Vec2Config's 0.1 when absent, the file's otherwise
	for extra, want := range map[string]float64{"": 0.1, `, "layerdrop": 0.0`: 0, `, "layerdrop": 0.05`: 0.05} {
		if a, err := ParseHFConfig([]byte(base + extra + "}")); err != nil || a.Wav2Vec2.LayerDrop != want {
			t.Errorf("%q: layerdrop %v, %v; want %v", extra, a.Wav2Vec2.LayerDrop, err, want)
		}
	}
}

// TestWav2Vec2PlanRefusals: what a plan of the audio family cannot mean
// is refused by key: token lengths, tensor and pipeline parallelism (the
// feature encoder's split is not modelled), and audio too short for
// SpecAugment's span.
func TestWav2Vec2PlanRefusals(t *testing.T) {
	m := "wav2vec2-base"
	for _, tc := range []struct {
		edit func(*Spec)
		want string
	}{
		{func(s *Spec) { s.Lengths = []int{100, 200} }, "lengths"},
		{func(s *Spec) { s.Parallel = Parallel{Strategy: "tp", GPUs: 2, TP: 2, PP: 1, MicroBatches: 1} }, "parallel"},
		{func(s *Spec) { s.Parallel = Parallel{Strategy: "pp", GPUs: 2, TP: 1, PP: 2, MicroBatches: 1} }, "parallel"},
		{func(s *Spec) { s.AudioSeconds = 0.1 }, "audio_seconds"},
		{func(s *Spec) { s.AudioSeconds = -1 }, "audio_seconds"},
	} {
		s := DefaultSpec()
		s.Model = &m
		tc.edit(&s)
		if _, err := Estimate(s, Options{Steps: 1, SkipReserved: true}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want a refusal naming %s", s, err, tc.want)
		}
	}
}

package memmodel

import "encoding/json"

// The Gemma family: transformers' GemmaForCausalLM, Gemma2ForCausalLM and
// Gemma3ForCausalLM (text), recorded by buildDecoder. What sets them
// apart from LLaMA: a 256k-token vocabulary (the logits dominate at short
// sequences), embeddings scaled by √hidden, RMSNorm computing x·(1+w) in
// float32, GELU-tanh MLPs, head_dim independent of hidden/heads, tied
// embeddings; Gemma 2 and 3 add norms after attention and MLP, Gemma 2
// soft-caps the final logits (two more vocabulary-wide tensors) and the
// attention scores (eager attention only), Gemma 3 normalises q and k per
// head; both alternate sliding-window and global layers.

func init() {
	register(&Family{
		Name: "gemma", Task: "causal-lm", Attention: true, AnyLength: true, Decoder: true, Captured: true,
		ModelTypes:  []string{"gemma", "gemma2", "gemma3_text"},
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			gemma("gemma-2b", "gemma", 2048, 18, 8, 1, 256, 16384, 256000),
			gemma("gemma-7b", "gemma", 3072, 28, 16, 16, 256, 24576, 256000),
			gemma("gemma-2-2b", "gemma2", 2304, 26, 8, 4, 256, 9216, 256000),
			gemma("gemma-2-9b", "gemma2", 3584, 42, 16, 8, 256, 14336, 256000),
			gemma("gemma-2-27b", "gemma2", 4608, 46, 32, 16, 128, 36864, 256000),
			gemma3("gemma-3-1b", 1152, 26, 4, 1, 256, 6912, 262144, 512, 32768),
			gemma3("gemma-3-4b", 2560, 34, 8, 4, 256, 10240, 262208, 1024, 131072),
			gemma3("gemma-3-12b", 3840, 48, 16, 8, 256, 15360, 262208, 1024, 131072),
			gemma3("gemma-3-27b", 5376, 62, 32, 16, 128, 21504, 262208, 1024, 131072),
		},
		Aliases: map[string]string{
			"google/gemma-2b": "gemma-2b", "google/gemma-7b": "gemma-7b", "google/gemma-2-2b": "gemma-2-2b",
			"google/gemma-2-9b": "gemma-2-9b", "google/gemma-2-27b": "gemma-2-27b", "google/gemma-3-1b-pt": "gemma-3-1b", "google/gemma-3-1b-it": "gemma-3-1b",
			"google/gemma-3-4b-pt": "gemma-3-4b", "google/gemma-3-4b-it": "gemma-3-4b", "google/gemma-2-9b-it": "gemma-2-9b",
			"google/gemma-2-2b-it": "gemma-2-2b", "google/gemma-2b-it": "gemma-2b", "google/gemma-7b-it": "gemma-7b",
			"gemma2-2b": "gemma-2-2b", "gemma2-9b": "gemma-2-9b", "gemma3-1b": "gemma-3-1b", "gemma3-4b": "gemma-3-4b",
			"google/gemma-3-12b-it": "gemma-3-12b", "google/gemma-3-27b-it": "gemma-3-27b", "google/gemma-2-27b-it": "gemma-2-27b",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildDecoder(b, a, in.Batch, in.Seq, in.Cache) },
		FromHF: gemmaFromHF,
	})
}

// gemmaQuirks are the quirks of each Gemma generation with its default
// soft-capping and sliding window.
func gemmaQuirks(modelType string) DecoderQuirks {
	q := DecoderQuirks{Norm: "f32w1p", Act: "gelu_tanh", EmbedScale: true}
	switch modelType {
	case "gemma2":
		q.NormPlace, q.FinalSoftcap, q.AttnSoftcap = "sandwich", 30, 50
		q.SlidingWindow, q.SlidingEvery = 4096, 2
	case "gemma3_text":
		q.NormPlace, q.QKNorm, q.QKNormLate = "sandwich", "head", true
		q.SlidingWindow, q.SlidingEvery = 4096, 6
		q.LocalRope = true
	}
	return q
}

func gemma(name, modelType string, hidden, layers, heads, kv, hd, ffn, vocab int) Arch {
	return Arch{Name: name, Family: "gemma", Hidden: hidden, Layers: layers, Heads: heads, KVHeads: kv, HeadDim: hd,
		FFN: ffn, Vocab: vocab, Tied: true, MaxPos: 8192, DefaultSeq: 2048, Decoder: gemmaQuirks(modelType)}
}

// gemma3 is a Gemma 3 text model with its checkpoint's sliding window
// (512 tokens for 1B, 1024 from 4B on, not Gemma3TextConfig's default of
// 4096) and context length. The 4B-27B checkpoints are
// Gemma3ForConditionalGeneration: SigLIP beside the text model (which
// training plans alone), and the global layers' rotary embedding scaled
// linearly by 8 to reach 131,072 positions.
func gemma3(name string, hidden, layers, heads, kv, hd, ffn, vocab, window, maxPos int) Arch {
	a := gemma(name, "gemma3_text", hidden, layers, heads, kv, hd, ffn, vocab)
	a.Decoder.SlidingWindow, a.MaxPos = window, maxPos
	if maxPos > 32768 {
		t := siglipSO400M
		a.Images, a.Decoder.RopeFactor = &t, 8
	}
	return a
}

func gemmaFromHF(modelType string, data []byte) (Arch, error) {
	a, h, err := decoderFromHF("gemma", modelType, data, true)
	if err != nil {
		return Arch{}, err
	}
	var extra struct {
		Window  *int `json:"sliding_window"`
		Pattern int  `json:"sliding_window_pattern"`
	}
	var keys map[string]json.RawMessage
	if err := decodeHF(data, &extra); err != nil {
		return Arch{}, err
	}
	if err := decodeHF(data, &keys); err != nil {
		return Arch{}, err
	}
	if err := notNegative(hfKey{"sliding_window_pattern", extra.Pattern}); err != nil {
		return Arch{}, err
	}
	a.Decoder = gemmaQuirks(modelType)
	if a.HeadDim == 0 {
		a.HeadDim = 256 // GemmaConfig's default, not hidden/heads
	}
	// keys given (null included) replace the generation's defaults
	if _, ok := keys["final_logit_softcapping"]; ok {
		a.Decoder.FinalSoftcap = h.FinalSoftcap
	}
	if _, ok := keys["attn_logit_softcapping"]; ok {
		a.Decoder.AttnSoftcap = h.AttnSoftcap
	}
	if a.Decoder.SlidingWindow > 0 && extra.Window != nil {
		a.Decoder.SlidingWindow = *extra.Window
	}
	if extra.Pattern > 0 && a.Decoder.SlidingWindow > 0 {
		a.Decoder.SlidingEvery = extra.Pattern
	}
	if a.Decoder.SlidingWindow > 0 {
		a.Decoder.LayerTypes = h.LayerTypes
	}
	return a, nil
}

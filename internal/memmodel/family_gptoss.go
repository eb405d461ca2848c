package memmodel

// The gpt-oss family: transformers' GptOssForCausalLM, recorded by
// buildDecoder with the MoE block of moe.go (num_local_experts experts of
// intermediate_size, experts_per_token a token, router and experts with
// biases). Attention has q/k/v/o biases and a learned sink per head (a
// scalar: nothing to count), and alternates 128-token sliding-window
// layers (the even ones) with full ones. Training is planned on the
// bfloat16 weights (the MXFP4 checkpoint dequantised, as transformers
// loads it for fine-tuning); vLLM serves the MXFP4 experts (internal/infer).

func init() {
	register(&Family{
		Name: "gpt-oss", Task: "causal-lm", Attention: true, AnyLength: true, Decoder: true, CheckpointQuant: "mxfp4",
		ModelTypes:  []string{"gpt_oss"},
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			gptOSS("gpt-oss-20b", 24, 32),
			gptOSS("gpt-oss-120b", 36, 128),
		},
		Aliases: map[string]string{
			"openai/gpt-oss-20b": "gpt-oss-20b", "openai/gpt-oss-120b": "gpt-oss-120b",
			"gpt-oss": "gpt-oss-20b", "gptoss-20b": "gpt-oss-20b", "gptoss-120b": "gpt-oss-120b",
		},
		Unmeasured: "gpt-oss is modelled from transformers' and vLLM's source, without captures: training on its bfloat16 weights is not measured",
		Build:      func(b *builder, a *Arch, in Input) { buildDecoder(b, a, in.Batch, in.Seq, in.Cache) },
		FromHF:     gptOSSFromHF,
	})
}

// gptOSS is a gpt-oss checkpoint: both sizes share the width (2880),
// 64 query heads and 8 KV heads of 64, 4 experts a token and the 201,088-
// token vocabulary; they differ in depth and expert count.
func gptOSS(name string, layers, experts int) Arch {
	return Arch{Name: name, Family: "gpt-oss", Hidden: 2880, Layers: layers, Heads: 64, KVHeads: 8, HeadDim: 64,
		FFN: 2880, Vocab: 201088, AttnBias: true, MaxPos: 131072, DefaultSeq: 2048,
		MoE:     MoE{Experts: experts, TopK: 4, FFN: 2880},
		Decoder: DecoderQuirks{SlidingWindow: 128, SlidingEvery: 2}}
}

func gptOSSFromHF(modelType string, data []byte) (Arch, error) {
	a, h, err := decoderFromHF("gpt-oss", modelType, data, false)
	if err != nil {
		return Arch{}, err
	}
	var extra struct {
		Window  int `json:"sliding_window"`
		PerTok  int `json:"experts_per_token"`
		Experts int `json:"num_experts"`
	}
	if err := decodeHF(data, &extra); err != nil {
		return Arch{}, err
	}
	if err := notNegative(hfKey{"sliding_window", extra.Window}, hfKey{"experts_per_token", extra.PerTok},
		hfKey{"num_experts", extra.Experts}); err != nil {
		return Arch{}, err
	}
	experts, topk := h.LocalExperts, h.TopK
	if experts == 0 {
		experts = extra.Experts
	}
	if topk == 0 {
		topk = extra.PerTok
	}
	if err := needPositive(hfKey{"num_local_experts", experts}, hfKey{"experts_per_token", topk}); err != nil {
		return Arch{}, err
	}
	a.AttnBias = true
	if a.HeadDim == 0 {
		a.HeadDim = 64
	}
	a.MoE = MoE{Experts: experts, TopK: topk, FFN: h.Intermediate, AuxLoss: h.RouterLogits}
	if extra.Window > 0 {
		a.Decoder.SlidingWindow, a.Decoder.SlidingEvery, a.Decoder.LayerTypes = extra.Window, 2, h.LayerTypes
	}
	return a, nil
}

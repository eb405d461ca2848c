package infer

// The Gemma family (memmodel's gemma: Gemma, Gemma 2, Gemma 3 text) as
// vLLM serves it: LLaMA's layer with head_dim independent of the width,
// GeluAndMul's fused gate_up (2·ffn) and output (ffn) at the MLP, and for
// Gemma 2 and 3 the norms around attention and the MLP ("sandwich") and,
// for Gemma 3, per-head q/k norms. The embedding is tied to the LM head.
// Hugging Face generate is not planned for it (no block).
func init() {
	registerDecoder(&decoder{family: "gemma", weights: gemmaWeights, servedMLP: 3, halfRefused: gemmaHalfRefused})
}

// gemmaWeights lists Gemma's parameters as vLLM's Gemma, Gemma2 and
// Gemma3 models construct them.
func gemmaWeights(c *config, w *weights) {
	h, v, dt := c.hidden, c.vocab, c.dt
	q := &c.arch.Decoder
	w.add(v*h, v*h*dt) // embed_tokens
	for l := int64(0); l < c.layers; l++ {
		attentionWeights(c, w, q.QKNorm == "head")
		if q.NormPlace == "sandwich" {
			w.add(h, h*dt) // pre_feedforward_layernorm
			w.add(h, h*dt) // post_feedforward_layernorm
		}
		gatedMLPWeights(c, w, c.ffn)
	}
	rotaryTail(c, w)
}

// gemmaHalfRefused: vLLM refuses float16 for Gemma 2 and 3 (their
// activations overflow it; _FLOAT16_NOT_SUPPORTED_MODELS, planned from
// 0.10), the generations with sliding-window layers; on a GPU without
// bfloat16 "auto" then loads them in float32.
func gemmaHalfRefused(c *config) bool {
	return c.arch.Decoder.SlidingWindow > 0 && c.engine.atLeast(halfRefusedMinor)
}

// halfRefusedMinor is the first 0.x planned with vLLM's float16 refusal
// for Gemma 2 and 3 (it arrived in mid-2025).
const halfRefusedMinor = 10
